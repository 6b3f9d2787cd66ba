import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';

export const BENCHMARKS_FILE = join(import.meta.dirname, '..', 'docs', 'benchmarks.md');

/** One benchmark module: `run` measures and returns a Markdown section body. */
export interface BenchModule {
  readonly name: string;
  readonly title: string;
  run(): Promise<string>;
}

/** The machine, with the 1-minute load average when the benchmark started (`load`), else now. */
export function machine(load = loadavg()[0]!): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${process.platform}/${process.arch}, load average ${load.toFixed(2)} at start`;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The nearest-rank percentile `p` (0–100) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

export function table(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  const line = (cells: ReadonlyArray<string | number>) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const HEADER = `# Benchmarks

Written by \`npm run bench\` (or \`npm run bench -- <name>…\` for some); each section
says the command, the machine and the date it was measured on. Figures are medians
unless stated. Speed targets live here, never in tests.
`;

/** Replaces (or appends) the section of one benchmark, leaving the others as they were. */
export function writeSection(module: BenchModule, body: string, loadAtStart?: number): void {
  const current = existsSync(BENCHMARKS_FILE) ? readFileSync(BENCHMARKS_FILE, 'utf8') : HEADER;
  const start = `<!-- bench:${module.name} -->`;
  const end = `<!-- /bench:${module.name} -->`;
  const section = `${start}\n## ${module.title}\n\nCommand: \`npm run bench -- ${module.name}\` · machine: ${machine(loadAtStart)} · date: ${new Date().toISOString().slice(0, 10)}\n\n${body.trim()}\n${end}`;
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next =
    from >= 0 && to > from
      ? `${current.slice(0, from)}${section}${current.slice(to + end.length)}`
      : `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(BENCHMARKS_FILE, next);
}
