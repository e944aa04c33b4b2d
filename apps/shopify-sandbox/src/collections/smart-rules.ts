import type { ProductRecord } from '../products/product.model.js';

/**
 * Smart collection rules as the REST SmartCollection resource takes them
 * (https://shopify.dev/docs/api/admin-rest/latest/resources/smartcollection, read 2026-11-26):
 * `{column, relation, condition}`, applied all together or, with `disjunctive`, any one.
 * The columns the sandbox evaluates are the product's own text fields and its variants'
 * prices; the relations are those of `CollectionRuleRelation` in the 2026-07 schema.
 */
export const RULE_COLUMNS = ['tag', 'title', 'type', 'vendor', 'variant_price'] as const;
export type RuleColumn = (typeof RULE_COLUMNS)[number];

export const RULE_RELATIONS = [
  'equals',
  'not_equals',
  'starts_with',
  'ends_with',
  'contains',
  'not_contains',
  'greater_than',
  'less_than',
] as const;
export type RuleRelation = (typeof RULE_RELATIONS)[number];

export interface SmartRule {
  column: RuleColumn;
  relation: RuleRelation;
  condition: string;
}

const NUMERIC: readonly RuleRelation[] = ['equals', 'not_equals', 'greater_than', 'less_than'];
const TEXTUAL: readonly RuleRelation[] = [
  'equals',
  'not_equals',
  'starts_with',
  'ends_with',
  'contains',
  'not_contains',
];

/** Relations each column allows: text columns the text relations, prices the comparisons. */
export function allowedRelations(column: RuleColumn): readonly RuleRelation[] {
  if (column === 'variant_price') return NUMERIC;
  if (column === 'tag')
    return ['equals', 'not_equals', 'starts_with', 'ends_with', 'contains', 'not_contains'];
  return TEXTUAL;
}

/** Reads REST `rules`; returns the rules or the REST error messages for `rules`. */
export function parseRules(raw: unknown): { rules: SmartRule[] } | { errors: string[] } {
  if (!Array.isArray(raw)) return { errors: ['must be an array'] };
  const rules: SmartRule[] = [];
  const errors: string[] = [];
  for (const entry of raw) {
    const rule = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const column = String(rule.column ?? '');
    const relation = String(rule.relation ?? '');
    const condition = rule.condition === undefined || rule.condition === null ? '' : String(rule.condition);
    if (!(RULE_COLUMNS as readonly string[]).includes(column)) {
      errors.push(`column is not included in the list`);
      continue;
    }
    if (!allowedRelations(column as RuleColumn).includes(relation as RuleRelation)) {
      errors.push(`relation is not included in the list`);
      continue;
    }
    if (condition.trim() === '') {
      errors.push(`condition can't be blank`);
      continue;
    }
    if (column === 'variant_price' && Number.isNaN(Number(condition))) {
      errors.push(`condition is not a number`);
      continue;
    }
    rules.push({ column: column as RuleColumn, relation: relation as RuleRelation, condition });
  }
  if (rules.length === 0 && errors.length === 0) errors.push("can't be blank");
  return errors.length > 0 ? { errors } : { rules };
}

/** Whether a product belongs to a smart collection with these rules. */
export function matchesRules(
  product: ProductRecord,
  rules: readonly SmartRule[],
  disjunctive: boolean,
): boolean {
  if (rules.length === 0) return false;
  const test = (rule: SmartRule) => matchesRule(product, rule);
  return disjunctive ? rules.some(test) : rules.every(test);
}

/**
 * One rule against one product. Text compares case-insensitively (Shopify's admin matches
 * "Shirts" and "shirts" alike); `tag` with a negative relation holds when no tag matches.
 */
export function matchesRule(product: ProductRecord, rule: SmartRule): boolean {
  const condition = rule.condition.toLowerCase();
  switch (rule.column) {
    case 'tag': {
      const negative = rule.relation === 'not_equals' || rule.relation === 'not_contains';
      const positive = negative ? (rule.relation === 'not_equals' ? 'equals' : 'contains') : rule.relation;
      const any = product.tags.some((tag) => textMatches(tag.toLowerCase(), positive, condition));
      return negative ? !any : any;
    }
    case 'title':
      return textMatches(product.title.toLowerCase(), rule.relation, condition);
    case 'type':
      return textMatches(product.productType.toLowerCase(), rule.relation, condition);
    case 'vendor':
      return textMatches(product.vendor.toLowerCase(), rule.relation, condition);
    case 'variant_price':
      return product.variants.some((v) =>
        numberMatches(Number(v.price), rule.relation, Number(rule.condition)),
      );
  }
}

function textMatches(value: string, relation: RuleRelation, condition: string): boolean {
  switch (relation) {
    case 'equals':
      return value === condition;
    case 'not_equals':
      return value !== condition;
    case 'starts_with':
      return value.startsWith(condition);
    case 'ends_with':
      return value.endsWith(condition);
    case 'contains':
      return value.includes(condition);
    case 'not_contains':
      return !value.includes(condition);
    default:
      return false;
  }
}

function numberMatches(value: number, relation: RuleRelation, condition: number): boolean {
  switch (relation) {
    case 'equals':
      return value === condition;
    case 'not_equals':
      return value !== condition;
    case 'greater_than':
      return value > condition;
    case 'less_than':
      return value < condition;
    default:
      return false;
  }
}
