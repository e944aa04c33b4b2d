/**
 * Switches for what the spec leaves "not shown" (README, gap table). Defaults are the choices
 * hardest on a client. The sandbox-wide defaults come from the environment; each account can
 * override them through the portal API.
 */
export interface SandboxBehaviour {
  /** POST /v1/products with an existing supplierSku: create a second record, or refuse (409). */
  duplicateSupplierSku: 'allow' | 'refuse';
  /** PATCH /v1/products or a variant's parentSupplierSku matching several records. */
  ambiguousSupplierSku: 'refuse' | 'newest' | 'oldest';
  /** HTTP status of a successful create. */
  createStatus: 200 | 201;
  /** DELETE of a parent that still has variants. */
  parentDelete: 'refuse' | 'cascade';
  /** `attributes` in product responses: every account attribute (null when unset), or set ones only. */
  responseAttributes: 'all' | 'set';
  /** Whether a review (approve/reject) changes the product's updatedAt. */
  reviewTouchesUpdatedAt: boolean;
  /** Whether an enrichment run that writes values (or a category) changes the product's updatedAt. */
  enrichmentTouchesUpdatedAt: boolean;
  /**
   * Order of product search results with equal sort keys: `shuffled` anew per request (seeded;
   * the spec promises no tie order), or `creation` (insertion order, stable across pages).
   */
  searchTieOrder: 'shuffled' | 'creation';
}

export const DEFAULT_BEHAVIOUR: SandboxBehaviour = {
  duplicateSupplierSku: 'allow',
  ambiguousSupplierSku: 'refuse',
  createStatus: 200,
  parentDelete: 'refuse',
  responseAttributes: 'all',
  reviewTouchesUpdatedAt: false,
  enrichmentTouchesUpdatedAt: false,
  searchTieOrder: 'shuffled',
};

export const BEHAVIOUR_CHOICES: { [K in keyof SandboxBehaviour]: readonly SandboxBehaviour[K][] } = {
  duplicateSupplierSku: ['allow', 'refuse'],
  ambiguousSupplierSku: ['refuse', 'newest', 'oldest'],
  createStatus: [200, 201],
  parentDelete: ['refuse', 'cascade'],
  responseAttributes: ['all', 'set'],
  reviewTouchesUpdatedAt: [false, true],
  enrichmentTouchesUpdatedAt: [false, true],
  searchTieOrder: ['shuffled', 'creation'],
};
