import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { type CatalogSandboxHarness, sampleImage, startCatalogSandbox } from '#testing/catalog-sandbox';
import { CatalogClient } from '../src/index.js';
import { drive, portalFor, product, recorder } from './sandbox-support.js';

// Processing takes 45 s of the shared manual clock, inside the spec's 30 s to 2 min.
const PROCESSING_MS = 45_000;

describe('CatalogClient: upload helper', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  let sandbox: CatalogSandboxHarness;
  const run = <T>(work: Promise<T>) => drive(clock, work, 250);

  beforeAll(async () => {
    sandbox = await startCatalogSandbox({
      clock,
      env: { CATALOG_SANDBOX_UPLOAD_PROCESSING_MS: String(PROCESSING_MS) },
    });
  });
  afterAll(() => sandbox.close());

  async function setup() {
    const account = await sandbox.createAccount();
    const rec = recorder();
    const client = new CatalogClient({
      baseUrl: sandbox.url,
      apiKey: account.apiKey,
      clock,
      metrics: rec.metrics,
    });
    return { account, portal: portalFor(sandbox, account.id), rec, client };
  }

  it('prepares, PUTs outside the budget, polls sparingly after a first delay, and returns the fileId', async () => {
    const { portal, rec, client } = await setup();
    const record = await run(client.createProduct(product('WITH-IMAGE')));
    await portal.clearRequests();
    const started = clock.now();
    const result = await run(
      client.uploadImage({
        fileName: 'front.png',
        data: sampleImage('image/png', 2_048),
        skuIds: [record.skuId],
        addToMediaGallery: true,
      }),
    );
    expect(result.fileId).toMatch(/^IM\d{8}$/);
    expect(result.status).toMatchObject({ fileId: result.fileId, format: 'image/png', size: 2_048 });
    expect(result.prepares).toBe(1);

    const log = (await portal.requests()).sort((a, b) => a.seq - b.seq);
    expect(log[0]).toMatchObject({ method: 'POST', path: '/v1/upload/prepare', status: 200 });
    const polls = log.filter((r) => r.path === '/v1/upload/status');
    expect(log).toHaveLength(1 + polls.length); // the object-store PUT is not a /v1 call
    expect(polls.every((r) => r.query.uploadId === result.prepared.uploadId)).toBe(true);
    // First poll only after 30 s; few polls for a 45 s processing time; the last one succeeds.
    expect((polls[0]?.time ?? 0) - started).toBeGreaterThanOrEqual(30_000);
    expect(polls.length).toBeLessThanOrEqual(4);
    expect(polls.map((r) => r.status).slice(-1)).toEqual([200]);
    expect(polls.slice(0, -1).every((r) => r.status === 404)).toBe(true);
    expect(result.polls).toBe(polls.length);
    // The PUT went through no limiter: one limiter wait per /v1 call only.
    expect(
      rec
        .of('limiterWait')
        .slice(1)
        .map((e) => e.endpoint),
    ).toEqual(log.map((r) => `${r.method} ${r.path}`));
    expect(rec.of('upload').filter((e) => e.step === 'put')).toHaveLength(1);

    const withMedia = await run(client.getProduct(record.skuId));
    expect(withMedia.attributes.find((a) => a.key === 'media')?.value).toEqual([result.fileId]);
  });

  it('prepares again when the object store says the URL has expired', async () => {
    const { portal, rec, client } = await setup();
    let reads = 0;
    const result = await run(
      client.uploadImage({
        fileName: 'late.jpg',
        // Read just before each PUT: the first time, the 900 s of the URL pass while reading.
        data: async () => {
          reads += 1;
          if (reads === 1) await clock.advance(901_000);
          return Readable.from([sampleImage('image/jpeg', 512)]);
        },
        contentLength: 512,
      }),
    );
    expect(result.fileId).toMatch(/^IM\d{8}$/);
    expect(result.prepares).toBe(2);
    expect(reads).toBe(2);
    expect(await portal.requests({ path: '/v1/upload/prepare' })).toHaveLength(2);
    expect(rec.of('upload').filter((e) => e.step === 'reprepare')).toHaveLength(1);
  });

  it('uploads a one-shot stream', async () => {
    const { client } = await setup();
    const result = await run(
      client.uploadImage({ fileName: 'side.webp', data: Readable.from([sampleImage('image/webp', 300)]) }),
    );
    expect(result.status).toMatchObject({ format: 'image/webp', size: 300 });
  });

  it('fails with upload_failed when the object store refuses the bytes', async () => {
    const { client } = await setup();
    const error = await run(
      client
        .uploadImage({ fileName: 'fake.png', data: Buffer.from('not an image') })
        .catch((e: unknown) => e),
    );
    expect(error).toMatchObject({ code: 'upload_failed', status: 400, retryable: false, method: 'PUT' });
  });
});
