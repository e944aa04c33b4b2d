import { CreateInbox1764000000000 } from './1764000000000-create-inbox.js';
import { CreateFailures1764000000001 } from './1764000000001-create-failures.js';
import { CreateProductSyncState1764000000002 } from './1764000000002-create-product-sync-state.js';
import { CreateCatalogRateBuckets1764000000003 } from './1764000000003-create-catalog-rate-buckets.js';
import { CreateSkuMap1764000000004 } from './1764000000004-create-sku-map.js';

/** Every migration, in order. The schema only ever changes through these (never synchronize). */
export const MIGRATIONS = [
  CreateInbox1764000000000,
  CreateFailures1764000000001,
  CreateProductSyncState1764000000002,
  CreateCatalogRateBuckets1764000000003,
  CreateSkuMap1764000000004,
];
