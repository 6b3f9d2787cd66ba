import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../runtime/config.js';

describe('DEMO_OPERATIONS_RECORDS', () => {
  it('is on by default on the embedded database and off by default with DATABASE_URL; either way it can be set', () => {
    expect(loadConfig({}).demoOperationsRecords).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/q' }).demoOperationsRecords).toBe(false);
    expect(loadConfig({ DEMO_OPERATIONS_RECORDS: 'false' }).demoOperationsRecords).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/q', DEMO_OPERATIONS_RECORDS: 'true' }).demoOperationsRecords).toBe(true);
  });
});
