import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDistributed, type DistributedStack } from '../support/distributed.js';
import { json } from '../support/library-keys.js';
import { startStack, type TestStack } from '../support/stack.js';

/** The seed's limit of registrations per client address and day. */
const PER_ADDRESS = 5;
let counter = 0;

async function register(url: string, headers: Record<string, string>): Promise<number> {
  counter += 1;
  return (await fetch(`${url}/v1/register`, json({ email: `addr-${counter}@example.org` }, headers))).status;
}

/** Uses up one address's registrations, then returns the statuses of a sixth call with each of `then`. */
async function exhaust(url: string, spend: () => Record<string, string>, then: Array<Record<string, string>>): Promise<number[]> {
  for (let call = 0; call < PER_ADDRESS; call += 1) expect(await register(url, spend())).toBe(201);
  const statuses: number[] = [];
  for (const headers of then) statuses.push(await register(url, headers));
  return statuses;
}

let spoofed = 0;
const forged = () => {
  spoofed += 1;
  return { 'x-forwarded-for': `198.51.100.${spoofed}`, 'x-client-ip': `192.0.2.${spoofed}` };
};

describe('the registration limit’s client address, TRUST_PROXY unset', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('is the socket address in process: spoofed X-Forwarded-For and x-client-ip change nothing', async () => {
    expect(await exhaust(stack.url, forged, [forged(), forged()])).toEqual([429, 429]);
  });
});

describe('the registration limit’s client address through remote subgraphs, TRUST_PROXY unset', () => {
  let stack: DistributedStack;
  beforeAll(async () => {
    stack = await startDistributed();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('is the socket address the gateway saw: spoofed headers change nothing', async () => {
    expect(await exhaust(stack.gateway.url, forged, [forged()])).toEqual([429]);
  });
});

describe('the registration limit’s client address with TRUST_PROXY', () => {
  let oneHop: TestStack;
  let everyHop: TestStack;
  beforeAll(async () => {
    oneHop = await startStack({ TRUST_PROXY: '1' });
    everyHop = await startStack({ TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await oneHop?.stop();
    await everyHop?.stop();
  });

  it('TRUST_PROXY=1 takes the last X-Forwarded-For entry, the one the trusted proxy added', async () => {
    const viaProxy = (client: string, forgedPart = '203.0.113.200') => ({ 'x-forwarded-for': `${forgedPart}, ${client}` });
    let forgedCount = 0;
    const statuses = await exhaust(oneHop.url, () => viaProxy('203.0.113.1', `203.0.113.${(forgedCount += 1)}`), [
      viaProxy('203.0.113.1', '203.0.113.99'),
      viaProxy('203.0.113.2'),
      { 'x-client-ip': '203.0.113.3', 'x-forwarded-for': '203.0.113.1' },
    ]);
    expect(statuses).toEqual([429, 201, 429]);
  });

  it('TRUST_PROXY=true takes the first X-Forwarded-For entry', async () => {
    const statuses = await exhaust(everyHop.url, () => ({ 'x-forwarded-for': '203.0.113.50, 10.0.0.1' }), [
      { 'x-forwarded-for': '203.0.113.50, 10.0.0.2' },
      { 'x-forwarded-for': '203.0.113.51, 10.0.0.1' },
    ]);
    expect(statuses).toEqual([429, 201]);
  });
});
