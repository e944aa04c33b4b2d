import { Clock } from '#lib/clock';
import type { BulkOperations } from '../bulk/bulk-operation.js';
import type { Leniency } from '../config/shopify-sandbox.config.js';
import type { Shop } from '../shops/shop.js';
import type { SearchWarning } from './product-search.js';

/** What every resolver of one Admin GraphQL request sees. */
export interface AdminContext {
  shop: Shop;
  clock: Clock;
  apiVersion: string;
  /** The app's webhook API version (configuration): new subscriptions inherit it. */
  webhookApiVersion: string;
  /** The shops' IANA time zone (configuration). */
  timeZone: string;
  /** The kinder-than-Shopify behaviours switched on (configuration). */
  leniency: Leniency;
  /** Collected from `query:` arguments; returned in `extensions.search`, as Shopify does. */
  searchWarnings: Array<{ path: string[]; query: string; warnings: SearchWarning[] }>;
  /** The app whose token made the request (subscriptions it creates are its own). */
  clientId?: string;
  /** The access scopes of the request's token (`currentAppInstallation.accessScopes`). */
  scopes?: readonly string[];
  /** The bulk operations of every shop (`bulkOperationRunQuery` and friends). */
  bulk: BulkOperations;
}

/** A GraphQL object as the default field resolver reads it: values, or functions of the field's args. */
export type GraphQLObject = Record<string, unknown>;
