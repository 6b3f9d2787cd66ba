import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { DEMO_WELCOME_CREDITS, loadConfig } from '../../runtime/config.js';
import { itRejectsNamingTheVariable } from '../support/config.js';

describe('configuration', () => {
  it('uses the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      role: 'all',
      port: 8080,
      dataDir: '.data',
      logLevel: 'info',
      databaseUrl: undefined,
      demoLibrary: true,
    });
  });

  itRejectsNamingTheVariable([
    [{ PORT: 'abc' }, 'PORT', 'PORT must be an integer from 0 to 65535 (got "abc")'],
    [{ PORT: '70000' }, 'PORT', 'PORT must be an integer from 0 to 65535 (got "70000")'],
    [{ DATABASE_URL: 'mysql://x@y/z' }, 'DATABASE_URL', 'DATABASE_URL must use postgres or postgresql (got "mysql")'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL', 'DATABASE_URL must be an absolute URL (got "not a url")'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL', 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")'],
    [{ ROLE: 'gateway' }, 'SUBGRAPH_LIBRARY_URL', 'SUBGRAPH_LIBRARY_URL is required when ROLE=gateway'],
    [
      { ROLE: 'subgraph:billing' },
      'ROLE',
      'ROLE must be one of all, gateway, worker, subgraph:library, subgraph:research, subgraph:operations (got "subgraph:billing")',
    ],
    [{ ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN', 'ADMIN_TOKEN must be at least 16 characters long'],
    [{ STRIPE_WEBHOOK_SECRET: 'abc' }, 'STRIPE_WEBHOOK_SECRET', 'STRIPE_WEBHOOK_SECRET must be a Stripe webhook signing secret (whsec_…)'],
    [{ MEILI_HOST: 'ftp://meili' }, 'MEILI_HOST', 'MEILI_HOST must use http or https (got "ftp")'],
    [
      { WORKSPACE_ISSUERS: '[{"issuer":"idp.example.org"}]' },
      'WORKSPACE_ISSUERS',
      'WORKSPACE_ISSUERS must be a JSON array of {issuer, audience?, jwksUri?, tokenType?} with http(s) URLs',
    ],
    [
      { RESEARCH_WELCOME_CREDITS: '-5' },
      'RESEARCH_WELCOME_CREDITS',
      'RESEARCH_WELCOME_CREDITS must be an integer from 0 to 1000000 (got "-5")',
    ],
    [{ CONSOLE_ISSUER: 'https://idp.example.org' }, 'CONSOLE_CLIENT_ID', 'CONSOLE_CLIENT_ID must be set together with its pair'],
    [
      { CONSOLE_ISSUER: 'https://idp.example.org', CONSOLE_CLIENT_ID: 'console' },
      'CONSOLE_ISSUER',
      'CONSOLE_ISSUER must be one of the issuers of WORKSPACE_ISSUERS (got "https://idp.example.org")',
    ],
    [{ API_BASE_URL: 'api.example.org' }, 'API_BASE_URL', 'API_BASE_URL must be an absolute URL (got "api.example.org")'],
    [
      { MCP_ALLOWED_ORIGINS: 'https://ok.example, https://bad.example/path' },
      'MCP_ALLOWED_ORIGINS',
      'MCP_ALLOWED_ORIGINS must list origins as scheme://host[:port], comma-separated (got "https://bad.example/path")',
    ],
    [{ ROLE: 'worker', QUEUE_CONSUMERS: 'false' }, 'QUEUE_CONSUMERS', 'QUEUE_CONSUMERS cannot be false with ROLE=worker'],
    [{ QUEUE_CONSUMERS: 'sometimes' }, 'QUEUE_CONSUMERS', 'QUEUE_CONSUMERS must be true or false (got "sometimes")'],
  ]);

  it('reads the issuers the workspace API trusts and where the console signs in', () => {
    const config = loadConfig({
      WORKSPACE_OWN_ISSUER: 'false',
      WORKSPACE_ISSUERS: JSON.stringify([{ issuer: 'https://idp.example.org', audience: 'api://research', tokenType: false }]),
      CONSOLE_ISSUER: 'https://idp.example.org/',
      CONSOLE_CLIENT_ID: 'research-console',
      RESEARCH_WELCOME_CREDITS: '25',
    });
    expect(config).toMatchObject({
      workspaceOwnIssuer: false,
      workspaceIssuers: [{ issuer: 'https://idp.example.org', audience: 'api://research', tokenType: false }],
      console: { issuer: 'https://idp.example.org', clientId: 'research-console', scope: 'openid email profile' },
      researchWelcomeCredits: 25,
    });
    expect(loadConfig({})).toMatchObject({ workspaceOwnIssuer: true, workspaceIssuers: [], console: undefined });
  });

  it('gives signed-in users welcome credits on default settings only: demo on and no LLM, whose work costs nothing', () => {
    expect(loadConfig({}).researchWelcomeCredits).toBe(DEMO_WELCOME_CREDITS);
    expect(loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:9/v1' }).researchWelcomeCredits).toBe(0);
    expect(loadConfig({ DEMO_RESEARCH: 'false' }).researchWelcomeCredits).toBe(0);
    expect(loadConfig({ RESEARCH_WELCOME_CREDITS: '0' }).researchWelcomeCredits).toBe(0);
  });

  it('reads the site and API base URLs and the MCP origin allow-list', () => {
    const config = loadConfig({
      SITE_BASE_URL: 'https://example.org/',
      API_BASE_URL: 'https://api.example.org',
      MCP_ALLOWED_ORIGINS: 'https://inspector.example.org, http://localhost:6274',
    });
    expect(config).toMatchObject({
      siteBaseUrl: 'https://example.org',
      apiBaseUrl: 'https://api.example.org',
      mcpAllowedOrigins: ['https://inspector.example.org', 'http://localhost:6274'],
    });
    expect(loadConfig({})).toMatchObject({ siteBaseUrl: undefined, apiBaseUrl: undefined, mcpAllowedOrigins: [] });
  });

  it('runs queue consumers in ROLE=all unless QUEUE_CONSUMERS=false, always in ROLE=worker, never in the other roles', () => {
    const urls = {
      SUBGRAPH_LIBRARY_URL: 'http://127.0.0.1:4001/graphql',
      SUBGRAPH_RESEARCH_URL: 'http://127.0.0.1:4002/graphql',
      SUBGRAPH_OPERATIONS_URL: 'http://127.0.0.1:4003/graphql',
    };
    expect(loadConfig({}).queueConsumers).toBe(true);
    expect(loadConfig({ QUEUE_CONSUMERS: 'false' }).queueConsumers).toBe(false);
    expect(loadConfig({ ROLE: 'worker' }).queueConsumers).toBe(true);
    expect(loadConfig({ ROLE: 'subgraph:operations' }).queueConsumers).toBe(false);
    expect(loadConfig({ ROLE: 'gateway', ...urls }).queueConsumers).toBe(false);
  });

  it('runs one HTTP worker per core in ROLE=all unless WEB_CONCURRENCY says otherwise, and one process in the other roles', () => {
    expect(loadConfig({}).webConcurrency).toBe(Math.min(availableParallelism(), 64));
    expect(loadConfig({ WEB_CONCURRENCY: '3' }).webConcurrency).toBe(3);
    expect(loadConfig({ WEB_CONCURRENCY: '1' }).webConcurrency).toBe(1);
    expect(loadConfig({ ROLE: 'worker' }).webConcurrency).toBe(1);
    expect(() => loadConfig({ WEB_CONCURRENCY: '0' })).toThrow('WEB_CONCURRENCY must be an integer from 1 to 64 (got "0")');
    expect(() => loadConfig({ ROLE: 'worker', WEB_CONCURRENCY: '2' })).toThrow(
      'WEB_CONCURRENCY must be 1 with ROLE=worker: run more processes instead',
    );
  });

  it('stops the process with one line naming the variable', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'main.ts'], {
      env: { ...process.env, PORT: 'eighty' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      'qantara: invalid configuration: PORT must be an integer from 0 to 65535 (got "eighty")',
    ]);
  });
});
