/** One metafield definition (`MetafieldDefinition`). Times are epoch milliseconds. */
export interface MetafieldDefinitionRecord {
  id: number;
  /** A `MetafieldOwnerType`: `PRODUCT`, `PRODUCTVARIANT`, `COLLECTION`, … */
  ownerType: string;
  /** Resolved (`$app` → `app--<id>`). */
  namespace: string;
  key: string;
  name: string;
  description: string | null;
  type: string;
  validations: Array<{ name: string; value: string }>;
  /** `MetafieldAdminAccess`; `PUBLIC_READ_WRITE` for merchant-owned namespaces. */
  adminAccess: string;
  /** `MetafieldStorefrontAccess`. */
  storefrontAccess: string;
  createdAt: number;
  updatedAt: number;
}

/** One shop's metafield definitions, in creation order. */
export class MetafieldDefinitionStore {
  private readonly definitions = new Map<number, MetafieldDefinitionRecord>();

  list(): MetafieldDefinitionRecord[] {
    return [...this.definitions.values()];
  }

  get(id: number): MetafieldDefinitionRecord | undefined {
    return this.definitions.get(id);
  }

  find(ownerType: string, namespace: string, key: string): MetafieldDefinitionRecord | undefined {
    return this.list().find((d) => d.ownerType === ownerType && d.namespace === namespace && d.key === key);
  }

  put(record: MetafieldDefinitionRecord): void {
    this.definitions.set(record.id, record);
  }

  delete(id: number): boolean {
    return this.definitions.delete(id);
  }
}

/** The `MetafieldOwnerType` of a metafield owner gid, for the owners the sandbox has. */
export function ownerTypeOf(ownerId: string): string | undefined {
  const type = /^gid:\/\/shopify\/([A-Za-z]+)\//.exec(ownerId)?.[1];
  switch (type) {
    case 'Product':
      return 'PRODUCT';
    case 'ProductVariant':
      return 'PRODUCTVARIANT';
    case 'Collection':
      return 'COLLECTION';
    default:
      return undefined;
  }
}
