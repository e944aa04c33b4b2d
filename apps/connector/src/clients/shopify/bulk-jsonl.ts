/**
 * The lines of a JSONL body as they arrive: only the current chunk and an unfinished line are
 * ever held, so a bulk result of any size streams through a bounded amount of memory.
 */
export async function* jsonlLines(body: AsyncIterable<Uint8Array>): AsyncGenerator<string, void, undefined> {
  const decoder = new TextDecoder('utf-8');
  let rest = '';
  for await (const chunk of body) {
    rest += decoder.decode(chunk, { stream: true });
    let newline = rest.indexOf('\n');
    while (newline >= 0) {
      const line = rest.slice(0, newline).trim();
      if (line !== '') yield line;
      rest = rest.slice(newline + 1);
      newline = rest.indexOf('\n');
    }
  }
  rest += decoder.decode();
  if (rest.trim() !== '') yield rest.trim();
}
