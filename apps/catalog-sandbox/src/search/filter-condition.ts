import { OPERATORS, type Operator } from '#lib/catalog-contract';
import { CatalogApiError } from '../http/catalog-api.error.js';
import { isPlainObject } from './json-shape.js';
import { compileLinearRegex } from './linear-regex.js';

export type Operand = string | number | null;
type ScalarOperator = '$eq' | '$ne' | '$gt' | '$gte' | '$lt' | '$lte';

/** One operator of an operator object, with its operand checked against the field. */
export type Condition =
  | { op: ScalarOperator; operand: Operand }
  | { op: '$in' | '$nin'; operands: Operand[] }
  | { op: '$exists'; exists: boolean }
  | { op: '$regex'; regex: RegExp };

/** What a filtered field holds, so operands can be checked when the filter is read. */
export interface FieldSpec {
  type: 'string' | 'number';
  /** The field may hold no value: `null` is accepted by $eq, $ne, $in and $nin (null = no value). */
  nullable: boolean;
  /** String fields only: numbers are accepted and turned into strings (compared as strings). */
  numbersAsStrings?: boolean;
  /** Allowed values for $eq, $ne, $in and $nin (an enumeration such as the enrichment status). */
  allowed?: readonly string[];
}

const isOperator = (key: string): key is Operator => (OPERATORS as readonly string[]).includes(key);

/**
 * Reads an operator object such as `{"$gte": 1, "$lte": 2}` into conditions, all of which must
 * hold. Anything but a non-empty object is invalid_query_structure; a key that is not one of the
 * ten operators is unsupported_operator.
 */
export function parseConditions(raw: unknown, field: string, spec: FieldSpec): Condition[] {
  if (!isPlainObject(raw)) {
    throw CatalogApiError.queryStructure(field, 'an operator object, e.g. {"$eq": <value>}', raw);
  }
  const entries = Object.entries(raw);
  if (entries.length === 0) {
    throw CatalogApiError.queryStructure(field, 'an operator object with at least one operator', raw);
  }
  return entries.map(([op, operand]) => parseCondition(op, operand, field, spec));
}

function parseCondition(op: string, operand: unknown, field: string, spec: FieldSpec): Condition {
  if (!isOperator(op)) throw CatalogApiError.unsupportedOperator(op, field);
  const at = `${field}.${op}`;
  switch (op) {
    case '$eq':
    case '$ne':
      return { op, operand: parseOperand(operand, at, spec, true) };
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return { op, operand: parseOperand(operand, at, { ...spec, allowed: undefined }, false) };
    case '$in':
    case '$nin': {
      if (!Array.isArray(operand))
        throw CatalogApiError.queryStructure(at, `an array of ${kind(spec)}s`, operand);
      return { op, operands: operand.map((item, i) => parseOperand(item, `${at}[${i}]`, spec, true)) };
    }
    case '$exists':
      if (typeof operand !== 'boolean') throw CatalogApiError.queryStructure(at, 'a boolean', operand);
      return { op, exists: operand };
    case '$regex':
      if (spec.type !== 'string') {
        throw CatalogApiError.queryStructure(at, 'an operator other than $regex on a number field', operand);
      }
      if (typeof operand !== 'string') {
        throw CatalogApiError.queryStructure(at, 'a string (regular expression)', operand);
      }
      return { op, regex: compileLinearRegex(operand, at) };
    default: {
      const unreachable: never = op;
      throw new Error(`unhandled operator ${String(unreachable)}`);
    }
  }
}

function parseOperand(raw: unknown, at: string, spec: FieldSpec, nullAllowed: boolean): Operand {
  if (raw === null && nullAllowed && spec.nullable) return null;
  if (spec.type === 'number') {
    if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
    throw CatalogApiError.queryStructure(at, 'a number', raw);
  }
  const value = typeof raw === 'number' && spec.numbersAsStrings && Number.isFinite(raw) ? String(raw) : raw;
  if (typeof value !== 'string') throw CatalogApiError.queryStructure(at, 'a string', raw);
  if (spec.allowed && !spec.allowed.includes(value)) {
    throw CatalogApiError.queryStructure(at, `one of ${spec.allowed.join(', ')}`, raw);
  }
  return value;
}

function kind(spec: FieldSpec): string {
  return spec.type;
}
