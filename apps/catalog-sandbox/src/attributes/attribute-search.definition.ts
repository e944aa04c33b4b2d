import type { AttributeDefinition, CategoryScope } from '#lib/catalog-contract';
import type { AttributeDef } from './attribute-definition.js';

/** An account's attribute as attribute search returns it (`scope` only for a category-scoped search). */
export function toAttributeDefinition(def: AttributeDef, scope?: CategoryScope): AttributeDefinition {
  const option: AttributeDefinition['option'] = { disabled: def.disabled };
  if (def.variantable) option.variantable = true;
  if (def.values !== null) option.values = [...def.values];
  const ai: AttributeDefinition['ai'] = { enabled: def.aiEnabled };
  if (def.aiInstructions !== null) ai.instructions = def.aiInstructions;
  const definition: AttributeDefinition = {
    key: def.key,
    displayName: def.displayName,
    type: def.type,
    class: def.class,
    option,
    categories: def.categories === null ? null : [...def.categories],
    ai,
    createdAt: def.createdAt,
  };
  if (scope) definition.scope = scope;
  return definition;
}
