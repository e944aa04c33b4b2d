import type { CategoryScope, EnrichmentStatus, SortOrder } from './enums.js';

/** The ten search operators. */
export const OPERATORS = [
  '$eq',
  '$ne',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$in',
  '$nin',
  '$exists',
  '$regex',
] as const;
export type Operator = (typeof OPERATORS)[number];

export type Scalar = string | number | boolean | null;

/** An operator object, e.g. `{"$gte": 1700000000000, "$lte": 1800000000000}`. */
export interface OperatorObject<T = Scalar> {
  $eq?: T;
  $ne?: T;
  $gt?: T;
  $gte?: T;
  $lt?: T;
  $lte?: T;
  $in?: T[];
  $nin?: T[];
  $exists?: boolean;
  $regex?: string;
}

export interface AttributeCriterion {
  key: OperatorObject<string>;
  value?: OperatorObject<string>;
}

export interface ProductFilter {
  supplierSku?: OperatorObject<string>;
  skuId?: OperatorObject<string>;
  createdAt?: OperatorObject<number>;
  updatedAt?: OperatorObject<number>;
  keyword?: string;
  attributes?: AttributeCriterion[];
  dataEnrichment?: {
    status?: OperatorObject<EnrichmentStatus>;
    completedAt?: OperatorObject<number>;
  };
  attributeSummary?: {
    enrichableCompletionRate?: OperatorObject<number>;
  };
}

export interface AttributeFilter {
  linkedCategories?: string[];
  categoryScopes?: CategoryScope[];
  option?: { variantable?: true | { $exists: false } };
  'option.variantable'?: true | { $exists: false };
  key?: { $eq: string };
}

export interface Pagination {
  limit?: number;
  offset?: number;
}

export interface Sort<F extends string = string> {
  field: F;
  order?: SortOrder;
}
