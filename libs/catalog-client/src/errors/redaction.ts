/** Removes every occurrence of a secret from text the client is about to expose. */
export type Redact = (text: string) => string;

export const REDACTED = '[redacted]';

/** Leaves text as it is: for errors built without a secret to hide. */
export const noRedaction: Redact = (text) => text;

/**
 * Why: the API key can reach an error or a log line through any text the client builds (a path
 * with the key as a `skuId`, a message the catalog quoted back, a cause's name). The key is
 * replaced as written and in the forms it takes in a URL (`encodeURIComponent`, `encodeURI`).
 */
export function redactorFor(secret: string): Redact {
  if (secret.length === 0) return noRedaction;
  const forms = [...new Set([secret, encodeURIComponent(secret), encodeURI(secret)])].sort(
    (a, b) => b.length - a.length,
  );
  return (text) => {
    let out = text;
    for (const form of forms) out = out.split(form).join(REDACTED);
    return out;
  };
}

/** Applies `redact` to every string inside a JSON-like value (keys included). */
export function redactDeep(value: unknown, redact: Redact): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactDeep(v, redact)]));
  }
  return value;
}
