import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { execute } from 'graphql';
import { Clock } from '#lib/clock';
import { parseAnyGid } from '../common/gid.js';
import { PublicUrl } from '../common/public-url.js';
import type { ShopifySandboxConfig } from '../config/shopify-sandbox.config.js';
import type { AdminContext, GraphQLObject } from '../graphql/admin-context.js';
import { adminSchema } from '../graphql/admin-schema.js';
import { bulkPaging } from '../graphql/connection.js';
import { fieldResolver } from '../graphql/field-resolver.js';
import { queryRoot } from '../graphql/resolvers/query-root.js';
import { SANDBOX_CONFIG } from '../shopify-sandbox.tokens.js';
import type { Shop } from '../shops/shop.js';
import { WebhookDeliveryService } from '../webhooks/webhook-delivery.service.js';
import { BULK_FINISH_TOPIC, bulkFinishPayload } from './bulk-finish-webhook.js';
import { jsonlLines } from './bulk-jsonl.js';
import { linkRunId, resultLink, signatureMatches } from './bulk-links.js';
import {
  type BulkErrorCode,
  type BulkOperationRecord,
  type BulkOperations,
  type BulkRunSummary,
  type BulkUserError,
  type BulkView,
  bulkOperationGid,
  bulkOperationNode,
  IN_PROGRESS,
  resultsExpireAt,
  viewStatus,
} from './bulk-operation.js';
import { checkBulkQuery } from './bulk-query-rules.js';
import { type BulkFaultsChange, type BulkFaultsState, ShopBulkFaults } from './shop-bulk-faults.js';

/** What the results route finds behind a signed link. */
export type BulkFileLookup =
  | { kind: 'file'; bytes: Buffer; id: number }
  | { kind: 'bad-signature' }
  | { kind: 'expired'; expiredAt: number }
  | { kind: 'missing' };

/**
 * Bulk query operations per shop: checks the query as Shopify does, runs it asynchronously on
 * the sandbox clock (CREATED → RUNNING → COMPLETED, or CANCELING → CANCELED, or FAILED half way
 * when `bulk.failHalfway` is on), writes the JSONL, hands out signed links that expire with
 * the results (`bulk.urlTtlMs`, Shopify's 7 days), and sends `bulk_operations/finish`. A run
 * keeps the faults it was created with (`ShopBulkFaults`).
 */
@Injectable()
export class BulkOperationService implements BulkOperations, OnApplicationShutdown {
  private readonly logger = new Logger('BulkOperations');
  private readonly schema = adminSchema();
  private readonly runs = new Map<Shop, BulkOperationRecord[]>();
  private readonly shopFaults = new Map<Shop, ShopBulkFaults>();
  private closed = false;

  constructor(
    private readonly clock: Clock,
    @Inject(SANDBOX_CONFIG) private readonly config: ShopifySandboxConfig,
    private readonly publicUrl: PublicUrl,
    private readonly deliveries: WebhookDeliveryService,
  ) {}

  onApplicationShutdown(): void {
    this.closed = true;
  }

  async runQuery(
    ctx: AdminContext,
    query: string,
    groupObjects: boolean,
  ): Promise<{ bulkOperation: GraphQLObject | null; userErrors: BulkUserError[] }> {
    const refuse = (userErrors: BulkUserError[]) => ({ bulkOperation: null, userErrors });
    const checked = checkBulkQuery(this.schema, query, ctx.leniency, (name) => name in queryRoot);
    if ('errors' in checked) return refuse(checked.errors);
    // The limit is per app and shop ("for this app and shop"): another app's runs do not count.
    const running = this.list(ctx.shop).filter(
      (r) => IN_PROGRESS.has(r.status) && r.clientId === ctx.clientId,
    );
    if (running.length >= this.config.bulk.maxConcurrentQueries) {
      const ids = running.map((r) => bulkOperationGid(r.id)).join(', ');
      return refuse([
        {
          field: null,
          message: `A bulk query operation for this app and shop is already in progress: ${ids}.`,
          code: 'OPERATION_IN_PROGRESS',
        },
      ]);
    }
    const result = await bulkPaging.run(true, () =>
      execute({
        schema: this.schema,
        document: checked.document,
        rootValue: queryRoot,
        contextValue: { ...ctx, searchWarnings: [] },
        fieldResolver,
      }),
    );
    const failure = result.errors?.[0];
    if (failure)
      return refuse([
        { field: ['query'], message: `Invalid bulk query: ${failure.message}`, code: 'INVALID' },
      ]);
    const record: BulkOperationRecord = {
      id: ctx.shop.ids.take(),
      type: 'QUERY',
      clientId: ctx.clientId,
      query,
      groupObjects,
      status: 'CREATED',
      errorCode: null,
      createdAt: this.clock.now(),
      finishedAt: null,
      objectCount: 0,
      rootObjectCount: 0,
      lines: jsonlLines(result.data ?? {}, checked.operation.selectionSet, checked.fragments, groupObjects),
      written: 0,
      file: null,
      faults: this.faultsOf(ctx.shop).take(),
    };
    this.list(ctx.shop).push(record);
    void this.progress(ctx.shop, record).catch((error: unknown) => {
      this.logger.error(`bulk operation ${record.id} crashed: ${String(error)}`);
    });
    return { bulkOperation: this.node(ctx.shop, record), userErrors: [] };
  }

  cancel(shop: Shop, id: string): { bulkOperation: GraphQLObject | null; userErrors: BulkUserError[] } {
    const record = this.record(shop, id);
    if (!record)
      return {
        bulkOperation: null,
        userErrors: [{ field: ['id'], message: 'Bulk operation does not exist' }],
      };
    const status = viewStatus(record, this.viewOf(shop));
    if (!IN_PROGRESS.has(status)) {
      return {
        bulkOperation: this.node(shop, record),
        userErrors: [
          { field: null, message: `A bulk operation cannot be canceled when it is ${status.toLowerCase()}` },
        ],
      };
    }
    record.status = 'CANCELING';
    return { bulkOperation: this.node(shop, record), userErrors: [] };
  }

  find(shop: Shop, id: string): GraphQLObject | null {
    const record = this.record(shop, id);
    return record ? this.node(shop, record) : null;
  }

  /** The app's most recent run of that type on the shop (`currentBulkOperation`); queries only. */
  current(shop: Shop, type: string, clientId?: string): GraphQLObject | null {
    const record = this.list(shop)
      .filter((r) => r.type === type && r.clientId === clientId)
      .at(-1);
    return record ? this.node(shop, record) : null;
  }

  /** The shop's bulk faults (the configuration's, overridden by the control API's) and those set for its next runs. */
  faults(shop: Shop): BulkFaultsState {
    return this.faultsOf(shop).state();
  }

  /**
   * Merges faults for one shop (a `null` goes back to the configuration's value), for good or,
   * with `runs`, for the shop's next `runs` operations only.
   */
  setFaults(shop: Shop, faults: BulkFaultsChange, runs?: number): BulkFaultsState {
    return this.faultsOf(shop).set(faults, runs);
  }

  /** The shop's runs, oldest first, as the control API lists them. */
  summaries(shop: Shop): BulkRunSummary[] {
    const view = this.viewOf(shop);
    return this.list(shop).map((r) => ({
      id: bulkOperationGid(r.id),
      type: r.type,
      status: viewStatus(r, view),
      query: r.query,
      groupObjects: r.groupObjects,
      objectCount: r.objectCount,
      rootObjectCount: r.rootObjectCount,
      errorCode: r.errorCode,
      createdAt: new Date(r.createdAt).toISOString(),
      finishedAt: r.finishedAt === null ? null : new Date(r.finishedAt).toISOString(),
    }));
  }

  /** The bytes behind a signed link, if the link is genuine and not expired. */
  file(shop: Shop, name: string, expires: string, signature: string): BulkFileLookup {
    if (!signatureMatches(this.config.appSecret, shop.domain, name, expires, signature)) {
      return { kind: 'bad-signature' };
    }
    const expiresAt = Number(expires) * 1000;
    if (this.clock.now() >= expiresAt) return { kind: 'expired', expiredAt: expiresAt };
    const id = linkRunId(name);
    const record = this.list(shop).find((r) => r.id === id);
    if (!record?.file || viewStatus(record, this.viewOf(shop)) === 'EXPIRED') return { kind: 'missing' };
    return { kind: 'file', bytes: record.file, id: record.id };
  }

  /** Moves a run on, one sandbox-clock step at a time, until it finishes. */
  private async progress(shop: Shop, record: BulkOperationRecord): Promise<void> {
    const { stepMs, objectsPerStep } = this.config.bulk;
    const { failHalfway } = record.faults;
    const failAt = failHalfway ? Math.floor(record.lines.length / 2) : Number.POSITIVE_INFINITY;
    await this.clock.sleep(stepMs);
    if (this.closed) return;
    if (canceling(record)) return this.finish(shop, record, 'CANCELED');
    record.status = 'RUNNING';
    for (;;) {
      if (record.written >= failAt) return this.finish(shop, record, 'FAILED', 'INTERNAL_SERVER_ERROR');
      if (record.written >= record.lines.length) return this.finish(shop, record, 'COMPLETED');
      await this.clock.sleep(stepMs);
      if (this.closed) return;
      if (canceling(record)) return this.finish(shop, record, 'CANCELED');
      const end = Math.min(record.written + objectsPerStep, record.lines.length, failAt);
      for (const line of record.lines.slice(record.written, end)) {
        record.objectCount += 1;
        if (line.root) record.rootObjectCount += 1;
      }
      record.written = end;
    }
  }

  private finish(
    shop: Shop,
    record: BulkOperationRecord,
    status: 'CANCELED' | 'COMPLETED' | 'FAILED',
    errorCode: BulkErrorCode | null = null,
  ): void {
    const written = record.lines.slice(0, record.written);
    record.file = Buffer.from(written.map((line) => `${line.text}\n`).join(''), 'utf8');
    record.lines = written;
    record.status = status;
    record.errorCode = errorCode;
    record.finishedAt = this.clock.now();
    // Only the app that ran the operation hears of it (its own subscriptions, its secret).
    this.deliveries.publishResource(
      shop,
      BULK_FINISH_TOPIC,
      record.finishedAt,
      () => bulkFinishPayload(record, this.config.timeZone),
      record.clientId,
    );
  }

  private node(shop: Shop, record: BulkOperationRecord): GraphQLObject {
    return bulkOperationNode(record, this.viewOf(shop));
  }

  private viewOf(shop: Shop): BulkView {
    return {
      now: this.clock.now(),
      fileUrl: (record) =>
        resultLink(
          this.publicUrl.value,
          this.config.appSecret,
          shop.domain,
          record,
          resultsExpireAt(record) ?? 0,
        ),
    };
  }

  private faultsOf(shop: Shop): ShopBulkFaults {
    let faults = this.shopFaults.get(shop);
    if (!faults) {
      const { failHalfway, urlTtlMs } = this.config.bulk;
      faults = new ShopBulkFaults({ failHalfway, urlTtlMs });
      this.shopFaults.set(shop, faults);
    }
    return faults;
  }

  private record(shop: Shop, gid: string): BulkOperationRecord | undefined {
    const parsed = parseAnyGid(gid);
    if (parsed?.type !== 'BulkOperation') return undefined;
    return this.list(shop).find((r) => r.id === parsed.id);
  }

  private list(shop: Shop): BulkOperationRecord[] {
    let list = this.runs.get(shop);
    if (!list) {
      list = [];
      this.runs.set(shop, list);
    }
    return list;
  }
}

/** Read through a function: `bulkOperationCancel` changes the status while the run sleeps. */
function canceling(record: BulkOperationRecord): boolean {
  return record.status === 'CANCELING';
}
