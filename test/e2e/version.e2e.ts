import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../support/stack.js';

/** Read here on its own, so the test does not take the version from the code it checks. */
const PACKAGE_VERSION = (JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string })
  .version;

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe('one version across the entry points', () => {
  it('every OpenAPI document (library, research, operations) gives the version of package.json', async () => {
    for (const path of ['/openapi.json', '/.well-known/openapi.json', '/api/v1/openapi.json']) {
      const response = await stack.fetch(path);
      expect(response.status, path).toBe(200);
      const document = (await response.json()) as { info: { version: string } };
      expect(document.info.version, path).toBe(PACKAGE_VERSION);
    }
  });

  it('the health bodies of library, research and operations give the version of package.json', async () => {
    for (const path of ['/healthz', '/health', '/api/v1/health/live']) {
      const response = await stack.fetch(path);
      expect(response.status, path).toBe(200);
      expect(((await response.json()) as { version: string }).version, path).toBe(PACKAGE_VERSION);
    }
  });

  it('the GraphQL page a browser gets shows the version of package.json', async () => {
    const response = await stack.fetch('/graphql', { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`Version <span id="version">${PACKAGE_VERSION}</span>`);
  });
});
