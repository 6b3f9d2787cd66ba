import { connect } from 'node:net';
import { operationsHealth } from '../../../contracts/operations/health.contract.js';
import type { ServiceHealthData } from '../../../contracts/shared/health.js';
import { implement, type Implementation } from '../../shared/contracts/implementation.js';
import { checkServiceHealth, type HealthCheck } from '../../shared/health.js';
import type { Services, SubgraphRuntime } from '../../shared/subgraph.js';
import type { SigningKeys } from '../iam/signing-keys.js';

/** A Redis `PING` over a plain connection: the cache is up when it answers `+PONG`. */
function redisPing(url: string): HealthCheck {
  return () =>
    new Promise((resolve) => {
      const { hostname, port } = new URL(url);
      const socket = connect({ host: hostname, port: Number(port || 6379) });
      const done = (up: boolean, detail: string) => {
        socket.destroy();
        resolve({ up, detail });
      };
      socket.setTimeout(2000, () => done(false, 'no answer within 2 s'));
      socket.once('error', (error) => done(false, error.message));
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (data) => done(data.toString().startsWith('+PONG'), data.toString().trim()));
    });
}

/**
 * Readiness of the operations service: database, migrations, identity (signing keys), and
 * the cache and the dependencies of modules (object storage, virus scanner) when configured.
 */
export class OperationsHealthService {
  constructor(
    private readonly runtime: SubgraphRuntime,
    private readonly keys: SigningKeys,
    private readonly dependencies: Readonly<Record<string, HealthCheck>> = {},
  ) {}

  check(): Promise<ServiceHealthData> {
    const checks: Record<string, HealthCheck> = {
      identity: async () => ({ up: this.keys.ready, detail: this.keys.ready ? 'signing keys loaded' : 'no signing key' }),
      ...this.dependencies,
    };
    if (this.runtime.config.redisUrl) checks.cache = redisPing(this.runtime.config.redisUrl);
    return checkServiceHealth('operations', this.runtime.orm, this.runtime.database, checks);
  }
}

export const healthOperations = (services: Services): Implementation[] => [
  implement(operationsHealth, () => services.get(OperationsHealthService).check()),
];
