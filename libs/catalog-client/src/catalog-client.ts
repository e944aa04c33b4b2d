import type {
  AttributeDefinition,
  AttributeSearchRequest,
  AttributeSearchResponse,
  DeletionResponse,
  ProductRecord,
  ProductSearchRequest,
  ProductSearchResponse,
  ProductWriteRequest,
  TaxonomyResponse,
  UploadPrepareRequest,
  UploadPrepareResponse,
  UploadStatusResponse,
  VariantCreateRequest,
  VariantCreateResponse,
  VariantPatchRequest,
  VariantPatchResponse,
} from '#lib/catalog-contract';
import { SystemClock } from '#lib/clock';
import { CircuitBreaker } from './breaker/circuit-breaker.js';
import type {
  CallOptions,
  CatalogClientOptions,
  CreateOptions,
  DeleteOutcome,
  IterateOptions,
} from './catalog-client.options.js';
import { CreateReconciler } from './creates/create-reconciler.js';
import { RecordLookup } from './creates/record-lookup.js';
import { CatalogRoutes as R } from './http/catalog-routes.js';
import { type CatalogRequest, CatalogTransport } from './http/catalog-transport.js';
import { apiKeyFingerprint } from './limiter/api-key-fingerprint.js';
import { InProcessRateLimiter } from './limiter/in-process-rate-limiter.js';
import type { RateLimiter } from './limiter/rate-limiter.js';
import { resolveLogger, resolveMetrics } from './metrics/client-metrics.js';
import { paginate } from './pagination/search-iterators.js';
import { UploadHelper, type UploadImageInput, type UploadResult } from './uploads/upload-helper.js';

export type {
  CallOptions,
  CatalogClientOptions,
  CreateOptions,
  DeleteOutcome,
  IterateOptions,
} from './catalog-client.options.js';

/** The typed catalog API. See README.md for the behaviour behind each call. */
export class CatalogClient {
  readonly breaker: CircuitBreaker;
  readonly limiter: RateLimiter;
  /** The API key's fingerprint (safe to log); shared limiters are keyed by it. */
  readonly keyFingerprint: string;
  readonly #transport: CatalogTransport;
  readonly #creates: CreateReconciler;
  readonly #lookup: RecordLookup;
  readonly #uploads: UploadHelper;
  readonly #ownsLimiter: boolean;

  constructor(options: CatalogClientOptions) {
    const clock = options.clock ?? new SystemClock();
    const metrics = resolveMetrics(options.metrics);
    this.keyFingerprint = apiKeyFingerprint(options.apiKey);
    this.#ownsLimiter = typeof options.limiter === 'function' || options.limiter === undefined;
    this.limiter =
      typeof options.limiter === 'function'
        ? options.limiter({ fingerprint: this.keyFingerprint, clock })
        : (options.limiter ?? new InProcessRateLimiter({ ...options.rate, clock }));
    this.breaker = new CircuitBreaker(clock, options.breaker);
    this.breaker.onStateChange((t) => metrics.breakerState(t));
    this.#transport = new CatalogTransport({
      clock,
      metrics,
      logger: options.logger,
      random: options.random,
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      limiter: this.limiter,
      breaker: this.breaker,
      retry: options.retry,
      timeouts: options.timeouts,
    });
    const redact = this.#transport.redact;
    // Every part logs through one guarded, scrubbed logger: a throwing logger never fails a call.
    const common = { clock, metrics, logger: resolveLogger(options.logger, redact), random: options.random };
    this.#creates = new CreateReconciler({
      ...common,
      redact,
      transport: this.#transport,
      maxAttempts: options.retry?.maxAttempts,
      baseDelayMs: options.retry?.baseDelayMs,
      maxDelayMs: options.retry?.maxDelayMs,
      timeoutSettleMs: options.retry?.timeoutSettleMs,
    });
    this.#lookup = new RecordLookup((request, call) => this.searchProducts(request, call));
    this.#uploads = new UploadHelper({
      ...common,
      redact,
      api: this,
      uploadTimeoutMs: this.#transport.timeouts.uploadMs,
      options: options.uploads,
    });
  }

  // Products

  getProduct(skuId: string, call: CallOptions = {}): Promise<ProductRecord> {
    return this.#transport.send(R.getProduct(call, { skuId }));
  }

  /** Never duplicates: an ambiguous failure is resolved by a look-up of `supplierSku`. */
  createProduct(body: ProductWriteRequest, call: CreateOptions = {}): Promise<ProductRecord> {
    const supplierSku = body.product.supplierSku;
    return this.#creates.create({
      request: R.createProduct(call, {}, { body }),
      supplierSku,
      lookup: () => this.#lookup.product(supplierSku, call),
      lookupFirst: call.lookupFirst,
      onAmbiguous: call.onAmbiguous,
    });
  }

  /**
   * Every record (products and variants) whose `supplierSku` is exactly this one, newest first
   * (a search, `$eq`, every page). For reconciling a `create_outcome_unknown`: one record means
   * the create landed; two products mean a duplicate to resolve. A create adopts the newest
   * record without a parent (products) or with one (variants).
   */
  findBySupplierSku(supplierSku: string, call: CallOptions = {}): Promise<ProductRecord[]> {
    return this.#lookup.all(supplierSku, call);
  }

  /** PATCH /v1/products: `product.supplierSku` names the record. */
  updateProduct(body: ProductWriteRequest, call: CallOptions = {}): Promise<ProductRecord> {
    return this.#transport.send(R.updateProduct(call, {}, { body }));
  }

  updateProductBySkuId(
    skuId: string,
    body: ProductWriteRequest,
    call: CallOptions = {},
  ): Promise<ProductRecord> {
    return this.#transport.send(R.updateProductBySkuId(call, { skuId }, { body }));
  }

  deleteProduct(skuId: string, call: CallOptions = {}): Promise<DeleteOutcome> {
    return this.delete(skuId, R.deleteProduct(call, { skuId }));
  }

  searchProducts(body: ProductSearchRequest, call: CallOptions = {}): Promise<ProductSearchResponse> {
    return this.#transport.send(R.searchProducts(call, {}, { body }));
  }

  /**
   * Every match, 500 per call, paged by offset. Without `sort`, sorts by `createdAt` ascending.
   * The spec promises no order among equal sort values: records that tie across a page boundary
   * may be skipped or repeated while the set is paged. Page by keyset where ties matter.
   */
  iterateProducts(
    body: Omit<ProductSearchRequest, 'pagination'> = {},
    call: IterateOptions = {},
  ): AsyncGenerator<ProductRecord, void, undefined> {
    const sort = body.sort ?? { field: 'createdAt', order: 'ASC' };
    return paginate(async (offset, limit) => {
      const page = await this.searchProducts({ ...body, sort, pagination: { offset, limit } }, call);
      return { items: page.products, pagination: page.pagination };
    }, call.pageSize);
  }

  // Variants

  /** Never duplicates: an ambiguous failure is resolved by a look-up of `supplierSku`. */
  createVariant(body: VariantCreateRequest, call: CreateOptions = {}): Promise<VariantCreateResponse> {
    return this.#creates.create({
      request: R.createVariant(call, {}, { body }),
      supplierSku: body.supplierSku,
      lookup: () => this.#lookup.variant(body, call),
      lookupFirst: call.lookupFirst,
      onAmbiguous: call.onAmbiguous,
    });
  }

  getVariant(skuId: string, call: CallOptions = {}): Promise<ProductRecord> {
    return this.#transport.send(R.getVariant(call, { skuId }));
  }

  updateVariant(
    skuId: string,
    body: VariantPatchRequest,
    call: CallOptions = {},
  ): Promise<VariantPatchResponse> {
    return this.#transport.send(R.updateVariant(call, { skuId }, { body }));
  }

  deleteVariant(skuId: string, call: CallOptions = {}): Promise<DeleteOutcome> {
    return this.delete(skuId, R.deleteVariant(call, { skuId }));
  }

  // Configuration

  searchAttributes(
    body: AttributeSearchRequest = {},
    call: CallOptions = {},
  ): Promise<AttributeSearchResponse> {
    return this.#transport.send(R.searchAttributes(call, {}, { body }));
  }

  /** Every matching attribute definition, 500 per call. */
  iterateAttributes(
    body: Omit<AttributeSearchRequest, 'pagination'> = {},
    call: IterateOptions = {},
  ): AsyncGenerator<AttributeDefinition, void, undefined> {
    return paginate(async (offset, limit) => {
      const page = await this.searchAttributes({ ...body, pagination: { offset, limit } }, call);
      return { items: page.attributes, pagination: page.pagination };
    }, call.pageSize);
  }

  getTaxonomy(call: CallOptions = {}): Promise<TaxonomyResponse> {
    return this.#transport.send(R.getTaxonomy(call));
  }

  // Uploads

  /** POST /v1/upload/prepare. Retried like a read: an unused upload URL simply expires. */
  prepareUpload(body: UploadPrepareRequest, call: CallOptions = {}): Promise<UploadPrepareResponse> {
    return this.#transport.send(R.prepareUpload(call, {}, { body }));
  }

  /** GET /v1/upload/status (priority `bulk` by default); a 404 means "still processing". */
  getUploadStatus(
    by: { uploadId: string } | { fileName: string },
    call: CallOptions = {},
  ): Promise<UploadStatusResponse> {
    const query: Record<string, string> =
      'uploadId' in by ? { uploadId: by.uploadId } : { fileName: by.fileName };
    return this.#transport.send(R.getUploadStatus(call, {}, { query }));
  }

  /** Prepare, PUT the bytes to the object store, poll until processed; returns the `fileId`. */
  uploadImage(input: UploadImageInput): Promise<UploadResult> {
    return this.#uploads.upload(input);
  }

  /**
   * Stops the limiter the client made (default or factory; queued calls fail). A limiter instance
   * passed in, and the connections given to shared limiters, stay the caller's to close.
   */
  async close(): Promise<void> {
    if (this.#ownsLimiter) await this.limiter.close();
  }

  private async delete(skuId: string, request: CatalogRequest): Promise<DeleteOutcome> {
    const result = await this.#transport.sendDelete<DeletionResponse>(request);
    return result.gone
      ? { skuId, status: 'deleted', confirmedBy: 'not_found_after_retry' }
      : { ...result.data, confirmedBy: 'response' };
  }
}
