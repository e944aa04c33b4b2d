// The state `catch-up` starts from, set up fast: Shopify products through the merchant API,
// their catalog records through the bulk fixtures (approved enrichment, finished), and the
// connector's sku map rows, as a sync would have left them.
import type { AdminRequestRecord } from '#testing/shopify-sandbox';
import type { BenchStack } from './bench-stack.js';
import { createProducts } from './shop-fixtures.js';

/** One mapped product: its Shopify id and its catalog record. */
export interface EnrichedProduct {
  productId: string;
  skuId: string;
  seoTitle: string;
}

/** The write-back attributes of the demo mapping the fixture fills (all approved). */
export function enrichedValues(index: number): Array<{ key: string; value: unknown }> {
  return [
    { key: 'seoTitle', value: `Bench tee ${index}: soft everyday cotton` },
    { key: 'seoDescription', value: `Bench tee ${index}, a soft organic cotton tee for every day.` },
    { key: 'aiTags', value: ['eco', 'basics'] },
    { key: 'material', value: '100% cotton' },
  ];
}

/**
 * Creates `count` simple products in the shop (merchant API, no subscription: the connector syncs
 * none of them), their records in the connector's catalog account with every write-back
 * attribute `ENRICHMENT_APPROVED` and `dataEnrichment` FINISHED (one bulk call), and one live
 * `simple` sku map row per product in the connector's schema (one INSERT per 1,000).
 */
export async function enrichedProducts(stack: BenchStack, count: number): Promise<EnrichedProduct[]> {
  const products = await createProducts(stack, count, 1, 16);
  const handle = stack.shop.domain.replace(/\.myshopify\.com$/i, '');
  const completedAt = Date.now() - 1_000;
  const records = products.map((product, i) => ({
    supplierSku: `${handle}:product:${product.id}`,
    attributes: [
      { key: 'name', value: `Bench tee ${i}` },
      { key: 'brand', value: 'Acme' },
      ...enrichedValues(i).map((a) => ({ ...a, blame: 'ENRICHMENT_APPROVED' })),
    ],
    dataEnrichment: { status: 'FINISHED', completedAt },
  }));
  const answer = await stack.catalog.portal.post(
    `/portal/v1/accounts/${stack.connectorAccount.id}/products/bulk`,
    { products: records },
  );
  const body = answer.body as { data?: { skuIds: string[] } };
  if (answer.status !== 200 || !body.data) throw new Error(`bulk: ${answer.status} ${JSON.stringify(body)}`);
  const skuIds = body.data.skuIds;
  const mapped = products.map((product, i) => ({
    productId: String(product.id),
    skuId: skuIds[i] as string,
    seoTitle: enrichedValues(i)[0]?.value as string,
  }));
  for (let i = 0; i < mapped.length; i += 1_000) {
    const chunk = mapped.slice(i, i + 1_000);
    const values: unknown[] = [stack.shop.domain];
    const tuples = chunk.map((p, j) => {
      values.push(p.productId, `${handle}:product:${p.productId}`, p.skuId);
      const at = 2 + j * 3;
      return `($1, $${at}::bigint, NULL, 'simple', $${at + 1}, $${at + 2}, 'live', now(), now(), now())`;
    });
    await stack.db.query(
      `INSERT INTO "${stack.schema}".sku_map
         (shop, shopify_product_id, shopify_variant_id, kind, supplier_sku, sku_id, state,
          created_at, updated_at, applied_at)
       VALUES ${tuples.join(', ')}`,
      values,
    );
  }
  return mapped;
}

/** What the Shopify sandbox's request log says about the write-back. */
export interface WriteBackLog {
  /** Products with an accepted `productUpdate` of the write-back. */
  productsWritten: Set<string>;
  mutations: number;
  queries: number;
  throttled: number;
  /** Actual cost of every GraphQL request the connector made (throttled ones cost nothing). */
  costPoints: number;
  /** The same value written twice to one target (a field, a tag, a metafield of one owner). */
  duplicates: number;
  firstAt: number | null;
  lastAt: number | null;
}

/** Reads the shop's GraphQL request log: writes per target, costs, throttles. */
export function readWriteBackLog(requests: AdminRequestRecord[]): WriteBackLog {
  const log: WriteBackLog = {
    productsWritten: new Set(),
    mutations: 0,
    queries: 0,
    throttled: 0,
    costPoints: 0,
    duplicates: 0,
    firstAt: null,
    lastAt: null,
  };
  const written = new Set<string>();
  const wrote = (target: string, value: unknown) => {
    const key = `${target}=${JSON.stringify(value)}`;
    if (written.has(key)) log.duplicates++;
    written.add(key);
  };
  for (const request of requests) {
    if (request.api !== 'graphql') continue;
    const at = Date.parse(request.at);
    log.firstAt = Math.min(log.firstAt ?? at, at);
    log.lastAt = Math.max(log.lastAt ?? at, at);
    log.costPoints += request.actualQueryCost ?? 0;
    if (request.outcome === 'throttled') log.throttled++;
    if (request.operationType === 'mutation') log.mutations++;
    else log.queries++;
    if (request.operationType !== 'mutation' || request.outcome !== 'ok') continue;
    for (const [target, value] of targetsOf(request.operationName, request.variables ?? {})) {
      wrote(target, value);
      if (request.operationName === 'WriteBackProductUpdate')
        log.productsWritten.add(target.split('#')[0] ?? '');
    }
  }
  return log;
}

/** The (target, value) pairs a write-back mutation writes. */
function targetsOf(operation: string | null, variables: Record<string, unknown>): Array<[string, unknown]> {
  const pairs: Array<[string, unknown]> = [];
  const product = variables.product as Record<string, unknown> | undefined;
  if (product && typeof product.id === 'string') {
    for (const [field, value] of Object.entries(product))
      if (field !== 'id') pairs.push([`${product.id}#${field}`, value]);
    return pairs;
  }
  if (Array.isArray(variables.metafields)) {
    for (const m of variables.metafields as Array<Record<string, unknown>>)
      pairs.push([`${m.ownerId}#${m.namespace}.${m.key}`, m.value]);
    return pairs;
  }
  if (typeof variables.id === 'string' && Array.isArray(variables.tags)) {
    for (const tag of variables.tags as unknown[]) pairs.push([`${variables.id}#${operation}:${tag}`, tag]);
    return pairs;
  }
  pairs.push([`${operation}:${JSON.stringify(variables)}`, null]);
  return pairs;
}
