import { describe, expect, it } from 'vitest';
import { LIBRARY_CONTRACTS } from '../../contracts/library/index.js';
import { mcpTools } from '../../edge/mcp-tools.js';

describe('MCP tools from contracts', () => {
  it('derives one tool per opted-in operation, its input schema carrying the contract’s bounds', () => {
    const tools = mcpTools(LIBRARY_CONTRACTS);
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ['authors', 'book', 'books', 'categories', 'read_page', 'retrieve', 'search', 'table_of_contents'].sort(),
    );
    const retrieve = tools.find((tool) => tool.name === 'retrieve')!;
    expect(retrieve.contract.name).toBe('libraryRetrieve');
    expect(retrieve.inputSchema).toMatchObject({
      type: 'object',
      required: ['q'],
      properties: {
        q: { type: 'string', minLength: 2, maxLength: 500 },
        limit: { type: 'integer', minimum: 1, maximum: 20, default: 8 },
        maxChars: { type: 'integer', minimum: 120, maximum: 2000, default: 700 },
      },
    });
  });
});
