import { CatalogApiError } from '../http/catalog-api.error.js';
import { FAULT_KINDS, type FaultPlan } from './fault-plan.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a fault plan body; throws `validation_error` naming the bad field. */
export function parseFaultPlan(body: unknown): FaultPlan {
  const bad = (field: string, expected: string): never => {
    throw CatalogApiError.validation(`"${field}" must be ${expected}.`, { field });
  };
  if (!isObj(body)) return bad('(body)', 'an object');
  for (const key of Object.keys(body)) {
    if (key !== 'seed' && !(FAULT_KINDS as readonly string[]).includes(key)) {
      bad(key, `one of ${[...FAULT_KINDS, 'seed'].join(', ')}`);
    }
  }
  if (body.seed !== undefined && !Number.isInteger(body.seed)) bad('seed', 'an integer');
  for (const kind of FAULT_KINDS) {
    const rule = body[kind];
    if (rule === undefined) continue;
    if (!isObj(rule)) bad(kind, 'an object');
    const r = rule as Obj;
    const p = r.probability;
    if (p !== undefined && (typeof p !== 'number' || p < 0 || p > 1))
      bad(`${kind}.probability`, 'a number from 0 to 1');
    if (r.count !== undefined && (!Number.isInteger(r.count) || (r.count as number) < 0)) {
      bad(`${kind}.count`, 'a non-negative integer');
    }
    if (r.method !== undefined && typeof r.method !== 'string') bad(`${kind}.method`, 'a string');
    if (r.path !== undefined && typeof r.path !== 'string') bad(`${kind}.path`, 'a string');
    if (
      kind === 'latency' &&
      (!Number.isInteger(r.ms) || (r.ms as number) < 0 || (r.ms as number) > 120_000)
    ) {
      bad('latency.ms', 'an integer from 0 to 120000');
    }
    const retry = r.retryAfterSeconds;
    if (kind === 'burst429' && retry !== undefined && (!Number.isInteger(retry) || (retry as number) < 0)) {
      bad('burst429.retryAfterSeconds', 'a non-negative integer');
    }
  }
  return body as FaultPlan;
}
