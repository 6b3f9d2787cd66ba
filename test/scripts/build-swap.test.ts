import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { swapIn } from '../../scripts/build.js';

/** Builds of one checkout swapped into its `dist/` as concurrent `npm start`s do it. */

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function root(): string {
  const dir = mkdtempSync(join(tmpdir(), 'build-swap-'));
  scratch.push(dir);
  return dir;
}

/** A finished build: its stamp and one file naming which build it is. */
function built(dir: string, stamp: string, name: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, '.build-stamp'), stamp);
  writeFileSync(join(dir, 'main.js'), name);
  return dir;
}

const whose = (dist: string) => readFileSync(join(dist, 'main.js'), 'utf8');

describe('swapping a build into dist/', () => {
  it('puts a new build in place of an older one and leaves no scratch directory behind', () => {
    const base = root();
    const dist = built(join(base, 'dist'), 'old', 'old build');
    swapIn(built(join(base, 'dist.1'), 'new', 'new build'), dist);
    expect(whose(dist)).toBe('new build');
    expect(readdirSync(base)).toEqual(['dist']);
  });

  it('drops a build identical to the one already in place', () => {
    const base = root();
    const dist = built(join(base, 'dist'), 'same', 'first build');
    swapIn(built(join(base, 'dist.2'), 'same', 'second build'), dist);
    expect(whose(dist)).toBe('first build');
    expect(readdirSync(base)).toEqual(['dist']);
  });

  it('identical builds of a checkout without dist/, swapped one after another: the first stays, the others are dropped', () => {
    const base = root();
    const dist = join(base, 'dist');
    const asides = Array.from({ length: 4 }, (_, index) => built(join(base, `dist.${index}`), 'same', `build ${index}`));
    swapIn(asides[0]!, dist);
    for (const aside of asides.slice(1)) expect(() => swapIn(aside, dist)).not.toThrow();
    expect(whose(dist)).toBe('build 0');
    expect(readdirSync(base)).toEqual(['dist']);
  });

  it('a dist/ that another build put in place with another stamp is replaced, not a failure', () => {
    const base = root();
    const dist = built(join(base, 'dist'), 'other', 'other build');
    const aside = built(join(base, 'dist.3'), 'mine', 'my build');
    swapIn(aside, dist);
    expect(whose(dist)).toBe('my build');
    expect(existsSync(aside)).toBe(false);
  });
});
