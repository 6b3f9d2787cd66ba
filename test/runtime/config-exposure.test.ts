import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../runtime/config.js';
import { itRejectsNamingTheVariable } from '../support/config.js';

/** Settings that decide what the deployment exposes: demo users, webhook targets, event retention, CORS. */

const EXTERNAL = { DATABASE_URL: 'postgres://qantara@db.example.org/qantara' };

describe('exposure settings', () => {
  it('creates demo data by default only with the embedded database', () => {
    expect(loadConfig({})).toMatchObject({ demoOperations: true, demoResearch: true });
    expect(loadConfig(EXTERNAL)).toMatchObject({ demoOperations: false, demoResearch: false });
    expect(loadConfig({ ...EXTERNAL, DEMO_OPERATIONS: 'true', DEMO_RESEARCH: 'true' })).toMatchObject({
      demoOperations: true,
      demoResearch: true,
    });
    expect(loadConfig({ DEMO_OPERATIONS: 'false', DEMO_RESEARCH: 'false' })).toMatchObject({ demoOperations: false, demoResearch: false });
  });

  it('refuses internal webhook targets unless WEBHOOK_ALLOW_PRIVATE=true, and keeps delivered events 7 days by default', () => {
    expect(loadConfig({})).toMatchObject({ webhookAllowPrivate: false, outboxRetentionDays: 7 });
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'true', OUTBOX_RETENTION_DAYS: '30' })).toMatchObject({
      webhookAllowPrivate: true,
      outboxRetentionDays: 30,
    });
  });

  it('reads CORS_ORIGINS as named origins and an optional wildcard, none by default', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example.org, http://localhost:5173/' }).corsOrigins).toEqual([
      'https://app.example.org',
      'http://localhost:5173',
    ]);
    expect(loadConfig({ CORS_ORIGINS: '*, https://app.example.org' }).corsOrigins).toEqual(['https://app.example.org', '*']);
  });

  itRejectsNamingTheVariable([
    [{ WEBHOOK_ALLOW_PRIVATE: 'maybe' }, 'WEBHOOK_ALLOW_PRIVATE', 'WEBHOOK_ALLOW_PRIVATE must be true or false (got "maybe")'],
    [{ OUTBOX_RETENTION_DAYS: '0' }, 'OUTBOX_RETENTION_DAYS', 'OUTBOX_RETENTION_DAYS must be an integer from 1 to 3650 (got "0")'],
    [
      { CORS_ORIGINS: 'https://app.example.org/path' },
      'CORS_ORIGINS',
      'CORS_ORIGINS must list origins as scheme://host[:port], comma-separated (got "https://app.example.org/path")',
    ],
    [
      { CORS_ORIGINS: 'app.example.org' },
      'CORS_ORIGINS',
      'CORS_ORIGINS must list origins as scheme://host[:port], comma-separated (got "app.example.org")',
    ],
    [{ DEMO_OPERATIONS: 'sure' }, 'DEMO_OPERATIONS', 'DEMO_OPERATIONS must be true or false (got "sure")'],
  ]);
});
