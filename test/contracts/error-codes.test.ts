import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defineErrorCodes, errorCatalogue, errorCode, type ErrorKey, type ErrorNamespace } from '../../contracts/errors.js';
import '../../contracts/registry.js';

/**
 * Every error code is spelt once, in its registry (`contracts/**\/errors.ts` and the
 * registries some contracts declare beside them); the services' error factories and the
 * HTTP edges name it through the registry's constant, never as a second string.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const NAMESPACES: readonly ErrorNamespace[] = ['common', 'edge', 'graphql', 'library', 'research', 'operations'];
/** Where codes are used rather than declared. */
const USERS = ['subgraphs', 'gateway', 'server', 'rest-facade', 'mcp', 'runtime', 'edge', 'qantara'];
/**
 * Strings that spell a code but are not one: the library's `error.type` by status follows
 * the OpenAI-compatible families, two of which share a code's name.
 */
const NOT_CODES: ReadonlyArray<{ file: string; literal: string }> = [
  { file: 'rest-facade/errors/library.ts', literal: 'upstream_error' },
  { file: 'rest-facade/errors/library.ts', literal: 'service_unavailable' },
];

function sources(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sources(path));
    else if (entry.name.endsWith('.ts')) found.push(path);
  }
  return found;
}

/** The code without its comments (a comment may name a code to explain it). */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

/** String literals of `text` that spell one of `codes`. */
function spelledCodes(text: string, codes: ReadonlySet<string>): string[] {
  return [...withoutComments(text).matchAll(/(['"])([A-Za-z_]+)\1/g)].map((match) => match[2]!).filter((word) => codes.has(word));
}

const registered = errorCatalogue(NAMESPACES);
const CODES = new Set(registered.map((entry) => entry.code));

/** Error factories: the classes that extend `DomainError`, with the registry constants they import. */
function factories(): Array<{ file: string; text: string }> {
  return sources(join(ROOT, 'subgraphs'))
    .map((file) => ({ file, text: readFileSync(file, 'utf8') }))
    .filter(({ text }) => /class \w+ extends DomainError\b/.test(text));
}

describe('error codes are written once', () => {
  it('finds a code spelt as a string, and not one named in a comment', () => {
    const codes = new Set(['FUEL_TANK_CODE_TAKEN']);
    expect(spelledCodes(`throw new FuelError('FUEL_TANK_CODE_TAKEN' as ErrorKey, 'taken');`, codes)).toEqual(['FUEL_TANK_CODE_TAKEN']);
    expect(spelledCodes(`// answers 409 'FUEL_TANK_CODE_TAKEN'\nconst x = 1;`, codes)).toEqual([]);
    expect(spelledCodes("describe('answers `FUEL_TANK_CODE_TAKEN` when taken')", codes)).toEqual([]);
  });

  it('registers codes the services and edges use', () => {
    expect(CODES.size).toBeGreaterThan(100);
    expect(errorCode('operations.FUEL_TANK_CODE_TAKEN' as ErrorKey).status).toBe(409);
  });

  it('no service, gateway, server or facade source spells a registered code as a string of its own', () => {
    const spelt: string[] = [];
    for (const dir of USERS) {
      let files: string[];
      try {
        files = sources(join(ROOT, dir));
      } catch {
        continue;
      }
      for (const file of files) {
        const name = relative(ROOT, file);
        for (const literal of spelledCodes(readFileSync(file, 'utf8'), CODES)) {
          if (!NOT_CODES.some((allowed) => allowed.file === name && allowed.literal === literal)) spelt.push(`${name}: '${literal}'`);
        }
      }
    }
    expect(spelt).toEqual([]);
  });

  it('every error factory builds its errors from a registry constant that is registered', async () => {
    const found = factories();
    expect(found.length).toBeGreaterThan(5);
    const problems: string[] = [];
    for (const { file, text } of found) {
      const name = relative(ROOT, file);
      // The registries the factory file imports from contracts, by local name.
      const registries = new Map<string, Record<string, ErrorKey>>();
      for (const match of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'([^']*contracts\/[^']*)'/g)) {
        const module = (await import(resolve(dirname(file), match[2]!.replace(/\.js$/, '.ts')))) as Record<string, unknown>;
        for (const part of match[1]!.split(',')) {
          const [imported = '', local = imported] = part
            .replace(/\btype\b/, '')
            .split(/\s+as\s+/)
            .map((word) => word.trim());
          const value = module[imported];
          if (value && typeof value === 'object' && !Array.isArray(value)) registries.set(local, value as Record<string, ErrorKey>);
        }
      }
      for (const match of withoutComments(text).matchAll(/new \w+Error\(\s*([^,]+),/g)) {
        const argument = match[1]!.trim();
        const constant = /^(\w+)\.(\w+)$/.exec(argument);
        const key = constant ? registries.get(constant[1]!)?.[constant[2]!] : undefined;
        if (!key) {
          problems.push(`${name}: ${argument} is not a registry constant`);
          continue;
        }
        try {
          errorCode(key);
        } catch {
          problems.push(`${name}: ${argument} is not registered`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('refuses a code a second registry of the same namespace spells again', () => {
    expect(() => defineErrorCodes('operations', { FUEL_TANK_CODE_TAKEN: { status: 409, description: 'Spelt twice.' } })).toThrow(
      'error code operations.FUEL_TANK_CODE_TAKEN is registered twice',
    );
  });
});
