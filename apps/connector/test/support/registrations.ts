/** One call handing something to a registry, as read from the sources. */
export interface RegistrationCall {
  /** The file, relative to `src/`. */
  file: string;
  /** The class the file exports, which makes the call. */
  className: string;
  /** What the call's arguments say, read by `read` (undefined: not a literal it can read). */
  key: string | undefined;
}

/**
 * Why: the flow table and `HOUSEKEEPING` name the class registering each replay handler, pruned
 * table and shop-data owner; this finds who does in the sources. A file injects the registry
 * (`private readonly <field>: <registry>`) and calls `this.<field>.<method>(…)`; `read` gets the
 * text after the opening parenthesis and returns the key (a job kind, a table name, tables).
 * A file naming the registry and calling the method another way is returned with no key.
 */
export function registrationCalls(
  sources: ReadonlyMap<string, string>,
  registry: string,
  method: string,
  read: (args: string) => string | undefined,
): RegistrationCall[] {
  const calls: RegistrationCall[] = [];
  for (const [file, text] of sources) {
    if (!new RegExp(`\\b${registry}\\b`).test(text) || new RegExp(`export class ${registry}\\b`).test(text))
      continue;
    const className = /export class (\w+)/.exec(text)?.[1] ?? file;
    const fields = [...text.matchAll(new RegExp(`(\\w+)\\s*:\\s*${registry}\\b`, 'g'))].map((m) => m[1]);
    let found = 0;
    for (const field of fields) {
      for (const match of text.matchAll(new RegExp(`this\\.${field}\\.${method}\\(`, 'g'))) {
        found += 1;
        calls.push({ file, className, key: read(text.slice((match.index ?? 0) + match[0].length)) });
      }
    }
    if (found === 0 && new RegExp(`\\.${method}\\(`).test(text))
      calls.push({ file, className, key: undefined });
  }
  return calls;
}
