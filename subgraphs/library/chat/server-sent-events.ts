/**
 * Reads the `data` of each server-sent event in a byte stream (the WHATWG event-stream
 * format): lines up to a blank line make one event; `data:` lines are joined with
 * newlines; comments and other fields are skipped.
 */
export async function* eventData(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = '';
  let data: string[] = [];
  const lineOf = (line: string): string | undefined => {
    if (line === '') {
      const event = data.length > 0 ? data.join('\n') : undefined;
      data = [];
      return event;
    }
    if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    return undefined;
  };
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    let end = buffered.search(/\r\n|\r|\n/);
    while (end >= 0) {
      const line = buffered.slice(0, end);
      // A lone \r at the end of a chunk may be half of \r\n: wait for the next chunk.
      if (buffered[end] === '\r' && end === buffered.length - 1) break;
      buffered = buffered.slice(end + (buffered.startsWith('\r\n', end) ? 2 : 1));
      const event = lineOf(line);
      if (event !== undefined) yield event;
      end = buffered.search(/\r\n|\r|\n/);
    }
  }
  const last = lineOf(buffered.replace(/\r$/, ''));
  if (last !== undefined) yield last;
  const pending = lineOf('');
  if (pending !== undefined) yield pending;
}
