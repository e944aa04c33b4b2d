import {
  METAFIELD_DEFINITION_CREATE_MUTATION,
  METAFIELD_DEFINITION_QUERY,
} from './documents/metafield-definitions.documents.js';
import type { ShopAdminClient } from './shop-admin.client.js';

/** A metafield definition Shopify holds: its id, type and access. */
export interface MetafieldDefinitionFound {
  id: string;
  type: { name: string };
  access: { admin: string | null; storefront: string | null };
}

/** Shopify's refusal of a definition, one line per user error. */
export interface DefinitionUserError {
  field: string[] | null;
  message: string;
  code: string | null;
}

/**
 * Why: the one place `METAFIELD_DEFINITION_QUERY` runs: the definition of `namespace.key` for
 * `ownerType` (`PRODUCT`, `PRODUCTVARIANT`), null when there is none (3 points).
 */
export async function findMetafieldDefinition(
  admin: Pick<ShopAdminClient, 'request'>,
  target: { ownerType: string; namespace: string; key: string },
): Promise<MetafieldDefinitionFound | null> {
  const found = await admin.request<{ metafieldDefinitions: { nodes: MetafieldDefinitionFound[] } }>(
    METAFIELD_DEFINITION_QUERY,
    { ...target },
    3,
  );
  return found.metafieldDefinitions.nodes[0] ?? null;
}

/**
 * Why: the one place `METAFIELD_DEFINITION_CREATE_MUTATION` runs (10 points): resolves to
 * Shopify's user errors, empty when the definition was created.
 */
export async function createMetafieldDefinition(
  admin: Pick<ShopAdminClient, 'request'>,
  definition: Record<string, unknown>,
): Promise<DefinitionUserError[]> {
  const created = await admin.request<{
    metafieldDefinitionCreate: {
      createdDefinition: { id: string } | null;
      userErrors: DefinitionUserError[];
    };
  }>(METAFIELD_DEFINITION_CREATE_MUTATION, { definition }, 10);
  return created.metafieldDefinitionCreate.userErrors;
}
