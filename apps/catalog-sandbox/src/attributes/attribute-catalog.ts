import { AttributeType, USER_ATTRIBUTE_TYPES } from '#lib/catalog-contract';
import type { AttributeDef, AttributeDefinitionInput } from './attribute-definition.js';
import { DEFAULT_ATTRIBUTES, SYSTEM_ATTRIBUTE_KEYS } from './default-attributes.js';

/** An account's attribute definitions: the defaults first, then the account's own, by key. */
export class AttributeCatalog {
  private readonly byKey = new Map<string, AttributeDef>();

  /** Throws an Error with a readable message when a definition is invalid. */
  constructor(
    custom: AttributeDefinitionInput[],
    createdAt: number,
    categoryExists: (id: string) => boolean,
  ) {
    for (const input of DEFAULT_ATTRIBUTES) this.add(input, createdAt, true);
    for (const input of custom) {
      if (this.byKey.has(input.key))
        throw new Error(`attribute "${input.key}" is defined twice (or is a default)`);
      if (!USER_ATTRIBUTE_TYPES.includes(input.type)) {
        throw new Error(`attribute "${input.key}": type must be one of ${USER_ATTRIBUTE_TYPES.join(', ')}`);
      }
      if (input.class !== 'CUSTOM' && input.class !== 'LIB') {
        throw new Error(`attribute "${input.key}": class must be CUSTOM or LIB`);
      }
      const choice = input.type === AttributeType.DROPDOWN || input.type === AttributeType.MULTI_SELECT;
      if (choice && !(input.option?.values && input.option.values.length > 0)) {
        throw new Error(`attribute "${input.key}": ${input.type} needs option.values`);
      }
      for (const id of input.categories ?? []) {
        if (!categoryExists(id)) throw new Error(`attribute "${input.key}": unknown category "${id}"`);
      }
      this.add(input, createdAt, false);
    }
  }

  get(key: string): AttributeDef | undefined {
    return this.byKey.get(key);
  }

  all(): AttributeDef[] {
    return [...this.byKey.values()];
  }

  private add(input: AttributeDefinitionInput, createdAt: number, isDefault: boolean): void {
    if (!/^[A-Za-z][A-Za-z0-9_.-]{0,99}$/.test(input.key))
      throw new Error(`attribute key "${input.key}" is invalid`);
    this.byKey.set(input.key, {
      key: input.key,
      displayName: input.displayName ?? input.key,
      type: input.type,
      class: isDefault ? 'DEFAULT' : (input.class ?? 'CUSTOM'),
      disabled: input.option?.disabled ?? false,
      variantable: input.option?.variantable ?? false,
      values: input.option?.values ?? null,
      maxLength: input.option?.maxLength ?? null,
      categories: input.categories ?? null,
      aiEnabled: input.ai?.enabled ?? false,
      aiInstructions: input.ai?.instructions ?? null,
      system: SYSTEM_ATTRIBUTE_KEYS.has(input.key),
      createdAt,
      position: this.byKey.size,
    });
  }
}
