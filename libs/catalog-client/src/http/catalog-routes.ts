import type { Priority } from '../limiter/priority-queue.js';
import type { CatalogRequest, HttpMethod } from './catalog-transport.js';

type RouteBuilder = (
  call: { priority?: Priority },
  params?: Record<string, string>,
  extra?: { body?: unknown; query?: Record<string, string> },
) => CatalogRequest;

/**
 * What an ambiguous failure (time-out, dropped connection, 5xx) means for a route:
 * - `safe`: nothing that matters changed (reads, searches, upload prepare): repeated, failures
 *   reported as they are;
 * - `delete`: repeated, also after a time-out (a later 404 confirms it); a final failure after an
 *   ambiguous attempt is `write_outcome_unknown`;
 * - `patch`: repeated after 5xx and dropped connections, not after a time-out (the first attempt
 *   may still be running); a final failure after an ambiguous attempt is `write_outcome_unknown`;
 * - `create`: never repeated here (the create reconciler decides).
 */
type RetryKind = 'safe' | 'delete' | 'patch' | 'create';

/** A route of the catalog API: its method and path template, which time-out applies, and its retry kind. */
function route(
  method: HttpMethod,
  template: string,
  timeout: 'read' | 'write',
  kind: RetryKind,
  defaultPriority: Priority = 'normal',
): RouteBuilder {
  return (call, params = {}, extra = {}) => ({
    method,
    endpoint: `${method} ${template}`,
    path: template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? '')),
    priority: call.priority ?? defaultPriority,
    timeout,
    repeatable: kind !== 'create',
    resendAfterTimeout: kind !== 'patch' && kind !== 'create',
    mayBeApplied: kind === 'delete' || kind === 'patch',
    ...extra,
  });
}

/**
 * Every `/v1` endpoint of the spec. Searches are POSTs but reads, safe to repeat. Creates are not
 * repeatable (the create reconciler handles them). Prepare is repeated like a read: an unused
 * upload URL simply expires.
 */
export const CatalogRoutes = {
  getProduct: route('GET', '/v1/products/{skuId}', 'read', 'safe'),
  createProduct: route('POST', '/v1/products', 'write', 'create'),
  updateProduct: route('PATCH', '/v1/products', 'write', 'patch'),
  updateProductBySkuId: route('PATCH', '/v1/products/{skuId}', 'write', 'patch'),
  deleteProduct: route('DELETE', '/v1/products/{skuId}', 'write', 'delete'),
  searchProducts: route('POST', '/v1/products/search', 'read', 'safe'),
  createVariant: route('POST', '/v1/variants', 'write', 'create'),
  getVariant: route('GET', '/v1/variants/{skuId}', 'read', 'safe'),
  updateVariant: route('PATCH', '/v1/variants/{skuId}', 'write', 'patch'),
  deleteVariant: route('DELETE', '/v1/variants/{skuId}', 'write', 'delete'),
  searchAttributes: route('POST', '/v1/attributes/search', 'read', 'safe'),
  getTaxonomy: route('GET', '/v1/taxonomies', 'read', 'safe'),
  prepareUpload: route('POST', '/v1/upload/prepare', 'write', 'safe'),
  getUploadStatus: route('GET', '/v1/upload/status', 'read', 'safe', 'bulk'),
} as const;
