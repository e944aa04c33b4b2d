import type { Priority } from '../limiter/priority-queue.js';
import type { CatalogRequest, HttpMethod } from './catalog-transport.js';

type RouteBuilder = (
  call: { priority?: Priority },
  params?: Record<string, string>,
  extra?: { body?: unknown; query?: Record<string, string> },
) => CatalogRequest;

/**
 * A route of the catalog API: its method and path template, which time-out applies, and whether
 * it is safe to repeat after an ambiguous failure.
 */
function route(
  method: HttpMethod,
  template: string,
  timeout: 'read' | 'write',
  repeatable: boolean,
  defaultPriority: Priority = 'normal',
): RouteBuilder {
  return (call, params = {}, extra = {}) => ({
    method,
    endpoint: `${method} ${template}`,
    path: template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? '')),
    priority: call.priority ?? defaultPriority,
    timeout,
    repeatable,
    ...extra,
  });
}

/**
 * Every `/v1` endpoint of the spec. Searches are POSTs but reads, safe to repeat. Creates are not
 * repeatable (the create reconciler handles them). Prepare is repeated like a read: an unused
 * upload URL simply expires.
 */
export const CatalogRoutes = {
  getProduct: route('GET', '/v1/products/{skuId}', 'read', true),
  createProduct: route('POST', '/v1/products', 'write', false),
  updateProduct: route('PATCH', '/v1/products', 'write', true),
  updateProductBySkuId: route('PATCH', '/v1/products/{skuId}', 'write', true),
  deleteProduct: route('DELETE', '/v1/products/{skuId}', 'write', true),
  searchProducts: route('POST', '/v1/products/search', 'read', true),
  createVariant: route('POST', '/v1/variants', 'write', false),
  getVariant: route('GET', '/v1/variants/{skuId}', 'read', true),
  updateVariant: route('PATCH', '/v1/variants/{skuId}', 'write', true),
  deleteVariant: route('DELETE', '/v1/variants/{skuId}', 'write', true),
  searchAttributes: route('POST', '/v1/attributes/search', 'read', true),
  getTaxonomy: route('GET', '/v1/taxonomies', 'read', true),
  prepareUpload: route('POST', '/v1/upload/prepare', 'write', true),
  getUploadStatus: route('GET', '/v1/upload/status', 'read', true, 'bulk'),
} as const;
