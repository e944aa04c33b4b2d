/** A JSON object (not null, not an array): the shape of filters, operator objects and bodies. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
