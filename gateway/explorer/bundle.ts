import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * The GraphQL explorer's script and stylesheet, bundled once per process from the
 * installed packages (GraphiQL, React, graphql-ws) on first request: every byte the page
 * loads is served by this process, from `node_modules`, nothing from a CDN.
 */

export interface ExplorerAssets {
  readonly script: string;
  readonly style: string;
}

const ENTRY = join(import.meta.dirname, 'explorer.browser.js');

async function bundle(): Promise<ExplorerAssets> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    write: false,
    outdir: 'explorer',
    legalComments: 'none',
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
    // Fonts and images small enough to inline; the page loads nothing else.
    loader: { '.woff': 'dataurl', '.woff2': 'dataurl', '.svg': 'dataurl', '.png': 'dataurl' },
  });
  const text = (extension: string) => {
    const file = result.outputFiles.find((output) => output.path.endsWith(extension));
    if (!file) throw new Error(`the explorer bundle has no ${extension} file`);
    return file.text;
  };
  return { script: text('.js'), style: text('.css') };
}

let assets: Promise<ExplorerAssets> | undefined;

/** The bundle, built on first use and kept; a failed build is retried on the next call. */
export function explorerAssets(): Promise<ExplorerAssets> {
  assets ??= bundle().catch((error: unknown) => {
    assets = undefined;
    throw error;
  });
  return assets;
}
