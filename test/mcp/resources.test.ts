import { describe, expect, it } from 'vitest';
import { RESEARCH_CONTRACTS } from '../../contracts/research/index.js';
import { matchResource, mcpResources } from '../../edge/mcp-resources.js';

describe('research MCP resources from contracts', () => {
  const resources = mcpResources(RESEARCH_CONTRACTS);

  it('declares billing, the case list, the case template and the research run template, each on the contract of its REST route', () => {
    expect(resources.map((resource) => [resource.name, resource.uri, resource.contract.name])).toEqual([
      ['billing', '/billing', 'researchBilling'],
      ['threads', '/chat/threads', 'researchThreads'],
      ['thread', '/chat/threads/{threadId}', 'researchThread'],
      ['research_run', '/chat/threads/{threadId}/research-runs/{runId}', 'researchRunReport'],
    ]);
  });

  it('matches absolute addresses under {api_url}, decoding template fields', () => {
    const api = 'https://api.example.org';
    expect(matchResource(resources, api, `${api}/billing`)?.resource.name).toBe('billing');
    expect(matchResource(resources, api, `${api}/chat/threads/thread_a%2Db`)).toMatchObject({
      resource: { name: 'thread' },
      values: { threadId: 'thread_a-b' },
    });
    expect(matchResource(resources, api, `${api}/chat/threads/a/b`)).toBeUndefined();
    expect(matchResource(resources, api, 'https://elsewhere.example.org/billing')).toBeUndefined();
    expect(matchResource(resources, api, `${api}/chat/threads/%E0%A4%A`)).toBeUndefined();
  });
});
