import { USER_ATTRIBUTE_TYPES } from '#lib/catalog-contract';
import type { AttributeDefinitionInput } from '../attributes/attribute-definition.js';
import { BEHAVIOUR_CHOICES, type SandboxBehaviour } from '../config/sandbox-behaviour.js';
import { CatalogApiError } from '../http/catalog-api.error.js';
import type { TaxonomyNodeDefinition } from '../taxonomy/taxonomy.js';
import { PERMISSIONS } from './api-key.js';

/** One account, as the seed file lists it and as POST /portal/v1/accounts takes it. */
export interface AccountDefinition {
  id?: string;
  apiKeys?: Array<{ key: string; permissions?: string[] }>;
  taxonomy?: TaxonomyNodeDefinition[];
  attributes?: AttributeDefinitionInput[];
  behaviour?: Partial<SandboxBehaviour>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks the shape of an account definition; throws `validation_error` naming the bad field. */
export function parseAccountDefinition(input: unknown): AccountDefinition {
  const bad = (field: string, expected: string): never => {
    throw CatalogApiError.validation(`Invalid account definition: "${field}" must be ${expected}.`, {
      field,
    });
  };
  if (!isObj(input)) return bad('(body)', 'an object');
  if (input.id !== undefined && (typeof input.id !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(input.id))) {
    bad('id', 'a string of 1-64 letters, digits, "-" or "_"');
  }
  if (input.apiKeys !== undefined) {
    if (!Array.isArray(input.apiKeys)) bad('apiKeys', 'an array');
    (input.apiKeys as unknown[]).forEach((k, i) => {
      if (!isObj(k) || typeof k.key !== 'string' || k.key.length < 8)
        bad(`apiKeys[${i}].key`, 'a string of 8+ characters');
      parsePermissions((k as Obj).permissions, `apiKeys[${i}].permissions`);
    });
  }
  if (input.taxonomy !== undefined) {
    if (!Array.isArray(input.taxonomy)) bad('taxonomy', 'an array of nodes');
    const visit = (node: unknown, path: string) => {
      if (!isObj(node) || typeof node.id !== 'string' || node.id === '')
        bad(`${path}.id`, 'a non-empty string');
      const n = node as Obj;
      if (typeof n.name !== 'string') bad(`${path}.name`, 'a string');
      if (n.description !== undefined && typeof n.description !== 'string')
        bad(`${path}.description`, 'a string');
      if (n.reference !== undefined && n.reference !== null && typeof n.reference !== 'string') {
        bad(`${path}.reference`, 'a string');
      }
      if (n.children !== undefined && !Array.isArray(n.children)) bad(`${path}.children`, 'an array');
      for (const [i, c] of ((n.children as unknown[] | undefined) ?? []).entries())
        visit(c, `${path}.children[${i}]`);
    };
    for (const [i, n] of (input.taxonomy as unknown[]).entries()) visit(n, `taxonomy[${i}]`);
  }
  if (input.attributes !== undefined) {
    if (!Array.isArray(input.attributes)) bad('attributes', 'an array');
    for (const [i, a] of (input.attributes as unknown[]).entries()) {
      const p = `attributes[${i}]`;
      if (!isObj(a) || typeof a.key !== 'string') return bad(`${p}.key`, 'a string');
      if (!USER_ATTRIBUTE_TYPES.includes(a.type as never))
        bad(`${p}.type`, `one of ${USER_ATTRIBUTE_TYPES.join(', ')}`);
      if (a.class !== undefined && a.class !== 'CUSTOM' && a.class !== 'LIB')
        bad(`${p}.class`, 'CUSTOM or LIB');
      if (a.option !== undefined && !isObj(a.option)) bad(`${p}.option`, 'an object');
      const values = (a.option as Obj | undefined)?.values;
      if (values !== undefined && (!Array.isArray(values) || values.some((v) => typeof v !== 'string'))) {
        bad(`${p}.option.values`, 'an array of strings');
      }
      if (a.categories !== undefined && a.categories !== null) {
        if (!Array.isArray(a.categories) || a.categories.some((c) => typeof c !== 'string')) {
          bad(`${p}.categories`, 'null or an array of category ids');
        }
      }
      if (a.ai !== undefined && !isObj(a.ai)) bad(`${p}.ai`, 'an object {enabled, instructions}');
    }
  }
  return {
    id: input.id as string | undefined,
    apiKeys: input.apiKeys as AccountDefinition['apiKeys'],
    taxonomy: input.taxonomy as TaxonomyNodeDefinition[] | undefined,
    attributes: input.attributes as AttributeDefinitionInput[] | undefined,
    behaviour: input.behaviour === undefined ? undefined : parseBehaviour(input.behaviour),
  };
}

export function parsePermissions(value: unknown, field: string): string[] {
  if (value === undefined) return ['*'];
  if (!Array.isArray(value) || value.length === 0 || value.some((p) => !PERMISSIONS.includes(p as string))) {
    throw CatalogApiError.validation(`"${field}" must be a non-empty list of: ${PERMISSIONS.join(', ')}.`, {
      field,
    });
  }
  return [...(value as string[])];
}

/** Checks a partial behaviour object against the allowed choices. */
export function parseBehaviour(value: unknown): Partial<SandboxBehaviour> {
  if (!isObj(value))
    throw CatalogApiError.validation('"behaviour" must be an object.', { field: 'behaviour' });
  const result: Record<string, unknown> = {};
  for (const [key, choice] of Object.entries(value)) {
    const allowed = (BEHAVIOUR_CHOICES as Record<string, readonly unknown[]>)[key];
    if (!allowed)
      throw CatalogApiError.validation(`Unknown behaviour switch "${key}".`, { field: `behaviour.${key}` });
    if (!allowed.includes(choice)) {
      throw CatalogApiError.validation(`behaviour.${key} must be one of ${allowed.map(String).join(', ')}.`, {
        field: `behaviour.${key}`,
      });
    }
    result[key] = choice;
  }
  return result as Partial<SandboxBehaviour>;
}
