/**
 * JSON text as Shopify's webhooks carry it: `/` escaped as `\/` inside strings
 * (`"gid:\/\/shopify\/Product\/1"`, `"<p>x<\/p>"`), as in captured deliveries. The HMAC is
 * computed over exactly these bytes, so a receiver that re-serializes the parsed body (the usual
 * `express.json()` mistake) gets other bytes and a wrong signature, here as in production.
 *
 * Integers beyond 2^53 survive when given as `bigint`: they are written as exact JSON numbers.
 * Other values follow `JSON.stringify` (undefined members skipped, `toJSON` honoured).
 */
export function shopifyJson(value: unknown): string {
  const text = write(value);
  if (text === undefined) throw new TypeError('shopifyJson: the value has no JSON form');
  return text;
}

function write(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return escapeSlashes(JSON.stringify(value));
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      return writeObject(value as object);
    default:
      return undefined;
  }
}

function writeObject(value: object): string | undefined {
  const withToJson = value as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === 'function') return write(withToJson.toJSON());
  if (Array.isArray(value)) return `[${value.map((item) => write(item) ?? 'null').join(',')}]`;
  const members: string[] = [];
  for (const [key, member] of Object.entries(value)) {
    const text = write(member);
    if (text !== undefined) members.push(`${escapeSlashes(JSON.stringify(key))}:${text}`);
  }
  return `{${members.join(',')}}`;
}

/** In JSON text `/` occurs only inside strings, where `\/` means the same character. */
function escapeSlashes(jsonString: string): string {
  return jsonString.replaceAll('/', '\\/');
}
