import { describe, expect, it } from 'vitest';
import { RESEARCH_CONTRACTS } from '../../contracts/research/index.js';
import { mcpTools } from '../../mcp/tools.js';

describe('research MCP tools from contracts', () => {
  it('declares send_message (threadId optional) and start_research (threadId required, force defaulting to false)', () => {
    const tools = Object.fromEntries(mcpTools(RESEARCH_CONTRACTS).map((tool) => [tool.name, tool]));
    expect(Object.keys(tools).sort()).toEqual(['send_message', 'start_research']);
    expect(tools.send_message!.contract.name).toBe('researchSendMessage');
    expect(tools.send_message!.inputSchema).toMatchObject({
      type: 'object',
      required: ['message'],
      properties: { threadId: { type: 'string' }, message: { type: 'string', minLength: 1, maxLength: 8000 } },
    });
    expect(tools.start_research!.inputSchema).toMatchObject({
      required: ['threadId'],
      properties: { threadId: { type: 'string' }, force: { type: 'boolean', default: false } },
    });
  });
});
