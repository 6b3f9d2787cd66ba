import { describe, expect, it } from 'vitest';
import { RESEARCH_CONTRACTS } from '../../contracts/research/index.js';
import { mcpTools } from '../../edge/mcp-tools.js';

describe('research MCP tools from contracts', () => {
  it('declares send_message (threadId optional) and start_research (threadId required, force defaulting to false)', () => {
    const tools = Object.fromEntries(mcpTools(RESEARCH_CONTRACTS).map((tool) => [tool.name, tool]));
    expect(Object.keys(tools).sort()).toEqual(['get_thread', 'send_message', 'start_research', 'wait_for_reply']);
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

  it('declares get_thread (threadId required) and wait_for_reply (timeoutSeconds 0–30, defaulting to 30)', () => {
    const tools = Object.fromEntries(mcpTools(RESEARCH_CONTRACTS).map((tool) => [tool.name, tool]));
    expect(tools.get_thread!.contract.name).toBe('researchGetThread');
    expect(tools.get_thread!.inputSchema).toMatchObject({ required: ['threadId'], properties: { threadId: { type: 'string' } } });
    expect(tools.wait_for_reply!.contract.name).toBe('researchWaitForReply');
    expect(tools.wait_for_reply!.inputSchema).toMatchObject({
      required: ['threadId'],
      properties: { timeoutSeconds: { type: 'integer', minimum: 0, maximum: 30, default: 30 } },
    });
  });
});
