import type { AttributeClass, AttributeType } from '#lib/catalog-contract';

/** An attribute as an account definition (seed or portal) gives it. */
export interface AttributeDefinitionInput {
  key: string;
  displayName?: string;
  type: AttributeType;
  class?: AttributeClass;
  option?: { disabled?: boolean; variantable?: boolean; values?: string[]; maxLength?: number };
  /** null (or absent) links the attribute globally; otherwise category node ids. */
  categories?: string[] | null;
  ai?: { enabled?: boolean; instructions?: string };
}

/** An attribute definition held by an account. */
export interface AttributeDef {
  key: string;
  displayName: string;
  type: AttributeType;
  class: AttributeClass;
  disabled: boolean;
  variantable: boolean;
  values: string[] | null;
  maxLength: number | null;
  categories: string[] | null;
  aiEnabled: boolean;
  aiInstructions: string | null;
  /** Set by the system (skuId, supplierSku): never written through `attributes`. */
  system: boolean;
  createdAt: number;
  /** Position in the account's attribute list (for stable response order). */
  position: number;
}
