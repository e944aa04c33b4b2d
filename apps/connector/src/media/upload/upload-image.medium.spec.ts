import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CatalogClient } from '#lib/catalog-client';
import { ManualClock } from '#lib/clock';
import { type CatalogSandboxHarness, sampleImage, startCatalogSandbox } from '#testing/catalog-sandbox';
import { drive } from '../../../test/support/media-unit.js';
import type { FetchedImage } from '../fetch/safe-image-fetcher.js';
import { MediaError } from '../model/media-error.js';
import { MEDIA_UPLOAD_OPTIONS, uploadFetchedImage } from './upload-image.js';

function fetched(seed: number): FetchedImage {
  const bytes = Buffer.concat([sampleImage('image/jpeg', 512), Buffer.from([seed])]);
  return {
    url: `https://cdn.shopify.com/s/files/1/products/front%20view-${seed}.jpg?v=1`,
    finalUrl: '',
    bytes,
    format: 'image/jpeg',
    extension: 'jpg',
    contentHash: createHash('sha256').update(bytes).digest('hex'),
    size: bytes.length,
  };
}

async function failure(work: Promise<unknown>): Promise<MediaError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof MediaError)) throw new Error(`expected a MediaError, got ${String(error)}`);
  return error;
}

/** The upload step against the catalog sandbox's upload flow, on a shared manual clock. */
describe('uploadFetchedImage against the catalog sandbox', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  let sandbox: CatalogSandboxHarness;
  let client: CatalogClient | undefined;

  beforeAll(async () => {
    sandbox = await startCatalogSandbox({ clock, env: { CATALOG_SANDBOX_UPLOAD_PROCESSING_MS: '45000' } });
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });
  afterAll(() => sandbox.close());

  /** A client whose upload URLs expire right after the first `expiries` prepares (the clock jumps 901 s). */
  async function setup(expiries = 0) {
    const account = await sandbox.createAccount();
    let left = expiries;
    client = new CatalogClient({
      baseUrl: sandbox.url,
      apiKey: account.apiKey,
      clock,
      uploads: MEDIA_UPLOAD_OPTIONS,
      metrics: {
        call: ({ endpoint }) => {
          if (endpoint === 'POST /v1/upload/prepare' && left > 0) {
            left -= 1;
            void clock.advance(901_000);
          }
        },
      },
    });
    return { account, client };
  }

  it('uploads with no gallery side effects and a URL-safe name in the real format', async () => {
    const { account, client } = await setup();
    const outcome = await drive(clock, uploadFetchedImage(client, fetched(1)));
    expect(outcome).toMatchObject({ fileId: expect.stringMatching(/^IM\d{8}$/), prepares: 1 });
    expect(outcome.fileName).toMatch(/^front-view-1-[0-9a-f]{12}\.jpg$/);
    expect(outcome.polls).toBeLessThanOrEqual(2); // 45 s of processing: polls at 40 and 50 s
    const log = await account.controls.requests();
    expect(log.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /v1/upload/prepare 200',
      ...Array.from({ length: outcome.polls - 1 }, () => 'GET /v1/upload/status 404'),
      'GET /v1/upload/status 200',
    ]);
  });

  it('prepares again when the upload URL has expired, and sends the same bytes', async () => {
    const { account, client } = await setup(1);
    const image = fetched(2);
    const outcome = await drive(clock, uploadFetchedImage(client, image));
    expect(outcome.prepares).toBe(2);
    expect(await account.controls.requests({ path: '/v1/upload/prepare' })).toHaveLength(2);
    expect(outcome.fileId).toMatch(/^IM\d{8}$/);
  });

  it('fails with a retryable upload_url_expired when every prepared URL expires', async () => {
    const { client } = await setup(3);
    const error = await failure(drive(clock, uploadFetchedImage(client, fetched(3))));
    expect(error).toMatchObject({ code: 'upload_url_expired', retryable: true });
  });
});

describe('uploadFetchedImage when processing never finishes', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  let sandbox: CatalogSandboxHarness;

  beforeAll(async () => {
    // Ten hours of processing: longer than the media step's 10-minute bound.
    sandbox = await startCatalogSandbox({ clock, env: { CATALOG_SANDBOX_UPLOAD_PROCESSING_MS: '36000000' } });
  });
  afterAll(() => sandbox.close());

  it('gives up after the bound with a typed, retryable failure, having polled sparingly', async () => {
    const account = await sandbox.createAccount();
    const client = new CatalogClient({
      baseUrl: sandbox.url,
      apiKey: account.apiKey,
      clock,
      uploads: MEDIA_UPLOAD_OPTIONS,
    });
    try {
      const started = clock.now();
      const error = await failure(drive(clock, uploadFetchedImage(client, fetched(4)), 1_000));
      expect(error).toMatchObject({ code: 'upload_processing_timeout', retryable: true });
      expect(error.details.uploadId).toMatch(/^UP\d{8}$/);
      expect(clock.now() - started).toBeGreaterThanOrEqual(600_000);
      const polls = await account.controls.requests({ path: '/v1/upload/status' });
      expect(polls.length).toBe(error.details.polls);
      expect(polls.length).toBeLessThanOrEqual(14); // 40 s, then 10 s doubling to 60 s, over 10 minutes
    } finally {
      await client.close();
    }
  });
});
