import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../runtime/config.js';

describe('TRUST_PROXY and SUBGRAPH_SECRET configuration', () => {
  it('reads TRUST_PROXY as off by default, true, or a number of proxies', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(() => loadConfig({ TRUST_PROXY: 'maybe' })).toThrow(/^TRUST_PROXY must be true, false or a number of proxies/);
  });

  it('refuses a SUBGRAPH_SECRET shorter than 16 characters', () => {
    expect(loadConfig({}).subgraphSecret).toBeUndefined();
    expect(loadConfig({ SUBGRAPH_SECRET: 'a-long-enough-secret' }).subgraphSecret).toBe('a-long-enough-secret');
    expect(() => loadConfig({ SUBGRAPH_SECRET: 'short' })).toThrow('SUBGRAPH_SECRET must be at least 16 characters long');
  });
});
