import { randomBytes } from 'node:crypto';

/** A short id unique to this test run, so each test makes its own tenant, shop and records. */
export function uniqueId(prefix = 't'): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`;
}
