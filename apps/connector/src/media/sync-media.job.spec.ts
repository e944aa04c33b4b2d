import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import type { CatalogGate } from '../clients/catalog/catalog-gate.service.js';
import { type ConnectorConfig, loadConnectorConfig } from '../platform/config/connector.config.js';
import type { FailureInput, FailuresService } from '../platform/failures/failures.service.js';
import type { JobGuard } from '../platform/failures/job-guard.service.js';
import type { SyncMediaPayload } from '../platform/queues/job-payloads.js';
import { MediaError, MediaErrorCode } from './model/media-error.js';
import type { ProductMediaRun, ProductMediaRunner } from './run/product-media-runner.service.js';
import type { MediaSyncResult } from './run/sync-product-media.js';
import type { MediaRunRecord, MediaStatusRepository } from './store/media-status.repository.js';
import { SyncMediaJob } from './sync-media.job.js';

const config: ConnectorConfig = loadConnectorConfig({
  CONNECTOR_SHOPS: 'demo.myshopify.com',
  CONNECTOR_SHOP_DEMO_ACCESS_TOKEN: 't',
  CONNECTOR_WEBHOOK_SECRETS: 's',
  CONNECTOR_CATALOG_URL: 'http://catalog',
  CONNECTOR_CATALOG_API_KEY: 'k',
  CONNECTOR_MEDIA_RETRY_LATER_MS: '1234',
  CONNECTOR_MEDIA_RETRY_LATER_MAX: '2',
});

class Delayed extends Error {}

const result = (overrides: Partial<MediaSyncResult>): MediaSyncResult => ({
  fetched: 0,
  reused: 0,
  uploads: [],
  writes: [],
  notes: [],
  imageFailures: [],
  recordFailures: [],
  retryLater: false,
  ...overrides,
});
const failure = (mediaId: string, code: MediaErrorCode) => ({
  mediaId,
  stage: 'fetch' as const,
  error: new MediaError({ code, message: `${mediaId}: ${code}` }),
});

/** The job with its collaborators replaced by recorders; the guard runs the work as is. */
function setup(run: ProductMediaRun, data: Partial<SyncMediaPayload> = {}) {
  const recorded: FailureInput[] = [];
  const resolved: Array<{ jobKind: string; subjects: readonly string[] }> = [];
  const statuses: MediaRunRecord[] = [];
  const delays: number[] = [];
  const job = {
    data: { shop: 'demo.myshopify.com', productId: '42', reason: 'synced', ...data } as SyncMediaPayload,
    async updateData(next: SyncMediaPayload) {
      this.data = next;
    },
  };
  const guard = {
    run: (_job: unknown, _token: unknown, _subject: unknown, work: () => Promise<unknown>) => work(),
    delay: async (_job: unknown, _token: unknown, ms: number) => {
      delays.push(ms);
      throw new Delayed();
    },
  } as unknown as JobGuard;
  const sync = new SyncMediaJob(
    guard,
    { waitFor: () => null } as unknown as CatalogGate,
    { run: async () => run } as unknown as ProductMediaRunner,
    {
      record: async (input: FailureInput) => void recorded.push(input),
      resolveSucceeded: async (_shop: string, jobKind: string, subjects: readonly string[]) => {
        resolved.push({ jobKind, subjects });
        return [];
      },
    } as unknown as FailuresService,
    {
      record: async (input: MediaRunRecord) => void statuses.push(input),
    } as unknown as MediaStatusRepository,
    config.media,
  );
  const process = () => sync.process(job as unknown as Job<SyncMediaPayload>, 'token');
  return { process, job, recorded, resolved, statuses, delays };
}

describe('SyncMediaJob', () => {
  it('records a permanent image failure at once, with its reason, and ends the run', async () => {
    const run: ProductMediaRun = {
      kind: 'done',
      images: 3,
      mediaIds: ['gid://shopify/MediaImage/1', 'gid://shopify/MediaImage/2', 'gid://shopify/MediaImage/3'],
      result: result({ imageFailures: [failure('gid://shopify/MediaImage/2', MediaErrorCode.NOT_AN_IMAGE)] }),
    };
    const { process, recorded, resolved, statuses, delays } = setup(run);
    await expect(process()).resolves.toBe('done');
    // The images that synced have their open failures (if any) resolved; the failed one does not.
    expect(resolved).toEqual([
      { jobKind: 'sync-media', subjects: ['42:gid://shopify/MediaImage/1', '42:gid://shopify/MediaImage/3'] },
    ]);
    expect(recorded).toEqual([
      expect.objectContaining({
        jobKind: 'sync-media',
        subjectKey: '42:gid://shopify/MediaImage/2',
        payload: expect.objectContaining({ shop: 'demo.myshopify.com', productId: '42' }),
        error: {
          code: 'not_an_image',
          message: 'gid://shopify/MediaImage/2: not_an_image',
          retryable: false,
        },
      }),
    ]);
    expect(statuses[0]).toMatchObject({
      images: 3,
      imageFailures: [expect.objectContaining({ code: 'not_an_image' })],
    });
    expect(delays).toEqual([]);
  });

  it('runs again later for retryable failures, and records them once the later runs are used up', async () => {
    const expired = failure('gid://shopify/MediaImage/3', MediaErrorCode.UPLOAD_URL_EXPIRED);
    const run: ProductMediaRun = {
      kind: 'done',
      images: 1,
      mediaIds: ['gid://shopify/MediaImage/3'],
      result: result({ imageFailures: [expired], retryLater: true }),
    };
    const first = setup(run);
    await expect(first.process()).rejects.toBeInstanceOf(Delayed);
    expect(first.delays).toEqual([1234]);
    expect(first.job.data.laterRuns).toBe(1);
    expect(first.recorded).toEqual([]);

    const last = setup(run, { laterRuns: 2 });
    await expect(last.process()).resolves.toBe('done');
    expect(last.delays).toEqual([]);
    expect(last.recorded.map((r) => [r.subjectKey, r.error.code, r.error.retryable])).toEqual([
      ['42:gid://shopify/MediaImage/3', 'upload_url_expired', true],
    ]);
  });

  it('does nothing for a product without catalog records yet, and stores no status', async () => {
    const { process, recorded, statuses } = setup({ kind: 'no-records' });
    await expect(process()).resolves.toBe('no-records');
    expect(recorded).toEqual([]);
    expect(statuses).toEqual([]);
  });
});
