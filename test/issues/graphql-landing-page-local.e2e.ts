import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe('GET /graphql from a browser', () => {
  it('serves a page that loads its script, style and icon only from this address', async () => {
    const response = await stack.fetch('/graphql', { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toMatch(/^default-src 'none'; /);
    expect(csp).not.toMatch(/https?:|\*|unsafe-/);
    const html = await response.text();
    expect(html).toContain('Qantara GraphQL');
    const addresses = [...html.matchAll(/\b(?:src|href)\s*=\s*"([^"]*)"/gi)].map((match) => match[1]!);
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) expect(address).toMatch(/^(graphql\/[a-z.]+|data:,)$/);
    expect(html).not.toMatch(/https?:\/\//i);
    for (const asset of ['/graphql/explorer.js', '/graphql/explorer.css']) {
      const served = await stack.fetch(asset);
      expect(served.status, asset).toBe(200);
      expect(await served.text(), asset).not.toMatch(/<script src=["']https?:|@import\s+url\(["']?https?:/i);
    }
  });
});
