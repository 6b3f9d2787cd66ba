import { describe, expect, it } from 'vitest';
import { originPolicy } from '../../mcp/origins.js';

describe('MCP Origin allow-list', () => {
  it('allows configured origins and those of the base URLs, nothing else', () => {
    const policy = originPolicy({
      configured: ['http://localhost:6274'],
      baseUrls: ['https://example.org/app', 'https://api.example.org'],
      boundOrigin: () => 'http://127.0.0.1:8080',
    });
    expect(policy.allows('http://localhost:6274')).toBe(true);
    expect(policy.allows('https://example.org')).toBe(true);
    expect(policy.allows('https://api.example.org')).toBe(true);
    expect(policy.allows('https://evil.example.org')).toBe(false);
    expect(policy.allows('http://example.org')).toBe(false);
    // With base URLs set, the bound address is not an origin of the site.
    expect(policy.allows('http://127.0.0.1:8080')).toBe(false);
    expect(policy.allows('null')).toBe(false);
  });

  it('allows the bound origin and its loopback aliases when no base URL is set, never another name for it', () => {
    const policy = originPolicy({ configured: [], baseUrls: [], boundOrigin: () => 'http://localhost:8080' });
    for (const origin of ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080']) expect(policy.allows(origin)).toBe(true);
    // A rebound DNS name pointing at this machine is refused.
    expect(policy.allows('http://attacker.example:8080')).toBe(false);
    expect(policy.allows('http://localhost:9090')).toBe(false);
  });
});
