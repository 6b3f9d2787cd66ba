/**
 * `npm run build`: the server's TypeScript transpiled file by file into `dist/`, keeping the
 * layout, so production processes run on plain Node without a loader hook
 * (docs/adr/0041-gateway-hot-path.md). Files that are not TypeScript (SDL, operations, the
 * console, skills, package.json) are copied beside them, so paths taken from
 * `import.meta.dirname` resolve alike in the source tree and in `dist/`.
 *
 * `--if-stale` builds only when a source file is newer than the last build, or the file list
 * changed; `./qantara start` and `npm start` run it before every start. Processes of a
 * distributed run may start at once from one checkout: each build is made aside and swapped
 * in, and a build that finds an identical one already in place leaves it alone.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { transform } from 'esbuild';

const ROOT = join(import.meta.dirname, '..');
export const DIST = join(ROOT, 'dist');
/** What the server runs: the entry point, its layers and the files they read at run time. */
const SOURCES = [
  'main.ts',
  'package.json',
  'contracts',
  'runtime',
  'server',
  'edge',
  'gateway',
  'subgraphs',
  'rest-facade',
  'mcp',
  'schema',
  'console',
  'scripts',
];

function walk(path: string, files: string[]): void {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) {
    for (const entry of readdirSync(path)) walk(join(path, entry), files);
    return;
  }
  files.push(path);
}

function sourceFiles(): string[] {
  const files: string[] = [];
  for (const source of SOURCES) walk(join(ROOT, source), files);
  return files.sort();
}

/** Names, sizes and modification times of every source file: a new stamp means a new build. */
function stampOf(files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of files) {
    const stat = statSync(file);
    hash.update(`${relative(ROOT, file)}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

/** The stamp of the build in `dist`, or undefined when there is none. */
function stampIn(dist: string): string | undefined {
  const file = join(dist, '.build-stamp');
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** Whether `dist/` is missing or older than the sources. */
export function isStale(): boolean {
  return stampIn(DIST) !== stampOf(sourceFiles());
}

const TSCONFIG_RAW = {
  compilerOptions: { experimentalDecorators: true, useDefineForClassFields: false, verbatimModuleSyntax: false },
} as const;

export async function build(): Promise<number> {
  const files = sourceFiles();
  const stamp = stampOf(files);
  const aside = `${DIST}.${process.pid}.${Date.now()}`;
  await Promise.all(
    files.map(async (file) => {
      const target = join(aside, relative(ROOT, file));
      mkdirSync(dirname(target), { recursive: true });
      if (!file.endsWith('.ts') || file.endsWith('.d.ts')) {
        copyFileSync(file, target);
        return;
      }
      const { code } = await transform(readFileSync(file, 'utf8'), {
        loader: 'ts',
        format: 'esm',
        platform: 'node',
        target: 'node22',
        sourcefile: file,
        sourcemap: 'inline',
        tsconfigRaw: TSCONFIG_RAW,
      });
      writeFileSync(target.replace(/\.ts$/, '.js'), code);
    }),
  );
  writeFileSync(join(aside, '.build-stamp'), stamp);
  swapIn(aside, DIST);
  return files.length;
}

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * Puts the build made in `aside` at `dist`, or drops it when an identical build (same stamp) is
 * there already. Another build of the same checkout may be swapping at the same moment: a `dist`
 * that disappears under the move aside, or appears before the move in, is that build's doing,
 * and the move is tried again against what it left.
 */
export function swapIn(aside: string, dist: string): void {
  const stamp = stampIn(aside);
  for (let attempt = 0; ; attempt++) {
    if (stampIn(dist) === stamp) {
      rmSync(aside, { recursive: true, force: true });
      return;
    }
    const old = `${aside}.old${attempt}`;
    try {
      if (existsSync(dist)) renameSync(dist, old);
      renameSync(aside, dist);
      rmSync(old, { recursive: true, force: true });
      return;
    } catch (error) {
      if (attempt >= 5 || !['ENOENT', 'ENOTEMPTY', 'EEXIST'].includes(codeOf(error) ?? '')) throw error;
      rmSync(old, { recursive: true, force: true });
    }
  }
}

if (process.argv[1] && relative(process.argv[1], import.meta.filename) === '') {
  if (process.argv.includes('--if-stale') && !isStale()) process.exit(0);
  const count = await build();
  process.stderr.write(`build: ${count} files into dist/\n`);
}
