import { describe, expect, it } from 'vitest';
import { eventData } from '../../../../subgraphs/library/chat/server-sent-events.js';

async function read(...chunks: string[]): Promise<string[]> {
  const encoder = new TextEncoder();
  async function* body() {
    for (const chunk of chunks) yield encoder.encode(chunk);
  }
  const events: string[] = [];
  for await (const data of eventData(body())) events.push(data);
  return events;
}

describe('eventData', () => {
  it('yields the data of each event, across chunk boundaries and line-ending styles', async () => {
    expect(await read('data: {"a":1}\n\nda', 'ta: {"b":2}\r', '\n\r\n: comment\n\ndata:[DONE]\n\n')).toEqual([
      '{"a":1}',
      '{"b":2}',
      '[DONE]',
    ]);
  });

  it('joins multi-line data, skips other fields and flushes an event the stream ended in', async () => {
    expect(await read('event: message\nid: 7\ndata: one\ndata: two\n\ndata: last')).toEqual(['one\ntwo', 'last']);
  });

  it('decodes UTF-8 split inside a character', async () => {
    const bytes = new TextEncoder().encode('data: بغداد\n\n');
    async function* body() {
      yield bytes.slice(0, 8);
      yield bytes.slice(8);
    }
    const events: string[] = [];
    for await (const data of eventData(body())) events.push(data);
    expect(events).toEqual(['بغداد']);
  });
});
