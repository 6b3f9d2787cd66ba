import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Files that start whole server processes or a browser: the suite's longest, by minutes. */
const STARTS_PROCESSES = /support\/(processes|browser)\.js/;

/**
 * Vitest's order (earlier runs' durations, else the larger file first), but files that start
 * processes or a browser first: on a fresh clone there are no earlier durations, and a
 * two-minute file picked up last would run alone at the end while the other workers sit idle.
 */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const slow = new Set(sorted.filter((spec) => STARTS_PROCESSES.test(readFileSync(spec.moduleId, 'utf8'))));
    return [...slow, ...sorted.filter((spec) => !slow.has(spec))];
  }
}
