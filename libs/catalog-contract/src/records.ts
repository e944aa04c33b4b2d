import type {
  AttributeClass,
  AttributeType,
  Blame,
  CategoryScope,
  EnrichmentStatus,
  SourceType,
} from './enums.js';

/** A value as sent and read back: prices and numbers are strings; media is an array of image ids. */
export type AttributeValue = string | string[] | null;

export interface AttributeSource {
  id: string;
  type: SourceType;
}

export interface AttributeEntry {
  key: string;
  value: AttributeValue;
  /** Absent on values entered by a user or sent by the API. */
  blame?: Blame;
  /** Only with blame ENRICHMENT. */
  sources?: AttributeSource[];
  /** True on a variant's attribute managed at the parent (read-only on the variant). */
  inherited?: boolean;
}

export interface AttributeSummary {
  enrichableTotal: number;
  enrichableCompleted: number;
  /** Percent, 0 to 100. */
  enrichableCompletionRate: number;
}

export interface DataEnrichment {
  taskId: string;
  status: EnrichmentStatus;
  /** Epoch ms; present once the run has ended. */
  completedAt?: number;
}

export interface ProductRecord {
  id: string;
  skuId: string;
  supplierSku: string;
  /** Non-null for variants. */
  parentSkuId: string | null;
  createdAt: number;
  updatedAt: number;
  attributeSummary: AttributeSummary;
  /** Absent for a product never submitted for enrichment. */
  dataEnrichment?: DataEnrichment;
  attributes: AttributeEntry[];
}

/** Answer of POST /v1/variants. `attributes` holds only the variant-specific attributes sent. */
export interface VariantCreateResponse extends ProductRecord {
  parentSupplierSku: string;
  inheritedAttributes: AttributeEntry[];
}

/** Answer of PATCH /v1/variants/{skuId}. */
export interface VariantPatchResponse {
  id: string;
  skuId: string;
  supplierSku: string;
  parentSkuId: string;
  createdAt: number;
  updatedAt: number;
  attributeSummary: AttributeSummary;
  attributes: AttributeEntry[];
}

export interface DeletionResponse {
  skuId: string;
  supplierSku: string;
  status: 'deleted';
  deletedAt: number;
}

export interface TaxonomyNode {
  id: string;
  name: string;
  description: string;
  children: TaxonomyNode[];
  createdAt: number;
}

export interface TaxonomyResponse {
  tree: TaxonomyNode[];
}

/** An attribute definition as attribute search returns it. */
export interface AttributeDefinition {
  key: string;
  displayName: string;
  type: AttributeType;
  class: AttributeClass;
  option: {
    disabled: boolean;
    /** Present (true) only on variant-specific attributes. */
    variantable?: true;
    values?: string[];
  };
  /** Null for a global attribute, otherwise the linked category node ids. */
  categories: string[] | null;
  ai: { enabled: boolean; instructions?: string };
  createdAt: number;
  /** Set only when the search was scoped by `linkedCategories`: how the attribute applies. */
  scope?: CategoryScope;
}

export interface PaginationResponse {
  limit: number;
  offset: number;
  total: number;
  hasMore: boolean;
}

export interface ProductSearchResponse {
  products: ProductRecord[];
  pagination: PaginationResponse;
}

export interface AttributeSearchResponse {
  attributes: AttributeDefinition[];
  pagination: PaginationResponse;
}

export interface UploadPrepareResponse {
  uploadUrl: string;
  expiresIn: number;
  fileName: string;
  finalUrl: string;
  uploadId: string;
}

export interface UploadStatusResponse {
  fileId: string;
  key: string;
  originalName: string;
  size: number;
  format: string;
  createdAt: number;
}
