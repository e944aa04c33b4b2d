import type { Condition, Operand } from './filter-condition.js';

/** A field's value on a record: undefined when it holds none; arrays for MULTI_SELECT and media. */
export type FieldValue = string | number | readonly string[] | undefined;

/** Whether every condition holds for the value. */
export function matchesAll(conditions: readonly Condition[], value: FieldValue): boolean {
  const items = itemsOf(value);
  return conditions.every((c) => matches(c, items));
}

/**
 * One condition against a value's items (an array's elements, a scalar alone, none when
 * absent). Positive operators hold when any item matches; $ne and $nin hold when no item
 * matches (so also on a record without a value). A null operand stands for "no value".
 * Strings compare by UTF-16 code units ("10" < "9"), numbers numerically.
 */
function matches(condition: Condition, items: readonly (string | number)[]): boolean {
  switch (condition.op) {
    case '$exists':
      return items.length > 0 === condition.exists;
    case '$eq':
      return equalsAny(items, condition.operand);
    case '$ne':
      return !equalsAny(items, condition.operand);
    case '$in':
      return condition.operands.some((o) => equalsAny(items, o));
    case '$nin':
      return !condition.operands.some((o) => equalsAny(items, o));
    case '$gt':
      return compareAny(items, condition.operand, (c) => c > 0);
    case '$gte':
      return compareAny(items, condition.operand, (c) => c >= 0);
    case '$lt':
      return compareAny(items, condition.operand, (c) => c < 0);
    case '$lte':
      return compareAny(items, condition.operand, (c) => c <= 0);
    case '$regex': {
      const { regex } = condition;
      return items.some((item) => typeof item === 'string' && regex.test(item));
    }
    default: {
      const unreachable: never = condition;
      throw new Error(`unhandled condition ${JSON.stringify(unreachable)}`);
    }
  }
}

function itemsOf(value: FieldValue): readonly (string | number)[] {
  if (value === undefined) return [];
  if (typeof value === 'string' || typeof value === 'number') return [value];
  return value;
}

function equalsAny(items: readonly (string | number)[], operand: Operand): boolean {
  return operand === null ? items.length === 0 : items.includes(operand);
}

function compareAny(
  items: readonly (string | number)[],
  operand: Operand,
  accept: (comparison: number) => boolean,
): boolean {
  if (operand === null) return false;
  return items.some((item) => {
    if (typeof item !== typeof operand) return false;
    return accept(item < operand ? -1 : item > operand ? 1 : 0);
  });
}
