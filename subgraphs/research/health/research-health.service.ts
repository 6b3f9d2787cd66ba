import type { ServiceHealthData } from '../../../contracts/shared/health.js';
import { checkServiceHealth } from '../../shared/health.js';
import type { SubgraphRuntime } from '../../shared/subgraph.js';
import { ASSISTANT_TURNS, RESEARCH_RUNS } from '../queues.js';

/** Database, migrations and the two queues (reachable, with their job counts). */
export class ResearchHealthService {
  constructor(private readonly runtime: SubgraphRuntime) {}

  check(): Promise<ServiceHealthData> {
    const { queues } = this.runtime;
    return checkServiceHealth('research', this.runtime.orm, this.runtime.database, {
      queues: async () => {
        const [turns, runs] = await Promise.all([queues.counts(ASSISTANT_TURNS), queues.counts(RESEARCH_RUNS)]);
        const line = (name: string, counts: typeof turns) =>
          `${name}: ${counts.waiting} waiting, ${counts.active} active, ${counts.delayed} delayed, ${counts.failed} failed`;
        return { up: true, detail: `${queues.backendKind}; ${line('turns', turns)}; ${line('runs', runs)}` };
      },
    });
  }
}
