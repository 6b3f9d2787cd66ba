import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../runtime/config.js';
import { startSystem } from '../../server/system.js';
import { createTestDatabase } from '../support/database.js';

/** A logger like the process's (role bound once at the root) that keeps every line it writes. */
function capturingLogger(role: string) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, logger: pino({ level: 'info', base: { service: 'qantara', role } }, sink) };
}

describe('the "listening" log line', () => {
  it('names the address the server binds (0.0.0.0) and carries each field once', async () => {
    const database = await createTestDatabase();
    const config = loadConfig({ PORT: '0', HOST: '0.0.0.0', ROLE: 'subgraph:operations', DATABASE_URL: database.url });
    const { lines, logger } = capturingLogger(config.role);
    const system = await startSystem(config, logger);
    try {
      const line = lines.find((text) => (JSON.parse(text) as { msg?: string }).msg === 'listening')!;
      const keys = [...line.matchAll(/"([^"]+)":/g)].map((match) => match[1]);
      expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
      expect(JSON.parse(line)).toMatchObject({
        role: 'subgraph:operations',
        address: '0.0.0.0',
        port: system.port,
        url: `http://0.0.0.0:${system.port}`,
      });
    } finally {
      await system.stop();
      await database.drop();
    }
  });
});
