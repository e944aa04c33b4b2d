import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_ID_PATTERN } from '#lib/catalog-contract';
import { ManualClock } from '#lib/clock';
import {
  apiFor,
  attr,
  type CatalogSandboxHarness,
  productBody,
  sampleImage,
  startCatalogSandbox,
  type TestAccount,
} from '#testing/catalog-sandbox';

const PROCESSING_MS = 3000;

function put(uploadUrl: string, bytes: Uint8Array, contentType: string): Promise<Response> {
  return fetch(uploadUrl, { method: 'PUT', headers: { 'Content-Type': contentType }, body: bytes });
}

describe('catalog sandbox: media upload', () => {
  const clock = new ManualClock(Date.UTC(2026, 2, 1));
  let sandbox: CatalogSandboxHarness;
  let account: TestAccount;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox({ clock, env: { CATALOG_SANDBOX_UPLOAD_MAX_BYTES: '4096' } });
    account = await sandbox.createAccount();
  });
  afterAll(() => sandbox.close());

  async function createProduct(supplierSku: string, extra: Array<{ key: string; value: unknown }> = []) {
    const res = await account.api.post('/v1/products', productBody(supplierSku, extra));
    expect(res.status).toBe(200);
    return res.body.data.skuId as string;
  }

  async function prepare(body: unknown) {
    const res = await account.api.post('/v1/upload/prepare', body);
    expect(res.status).toBe(200);
    return res.body.data as {
      uploadUrl: string;
      expiresIn: number;
      fileName: string;
      finalUrl: string;
      uploadId: string;
    };
  }

  it('goes prepare, PUT, 404 while processing, complete, then shows in media', async () => {
    const skuId = await createProduct('up-1');
    const prepared = await prepare({ fileName: 'Front View.PNG', skuIds: [skuId], addToMediaGallery: true });
    expect(prepared).toEqual({
      uploadUrl: expect.stringMatching(
        /^http:\/\/127\.0\.0\.1:\d+\/object-store\/uploads\/.+\?expires=\d+&signature=[0-9a-f]{64}$/,
      ),
      expiresIn: 900,
      fileName: expect.stringMatching(/^front-view-up\d{8}\.png$/),
      finalUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/cdn\//),
      uploadId: expect.stringMatching(PLATFORM_ID_PATTERN),
    });
    expect(prepared.finalUrl.endsWith(`/${account.id}/${prepared.fileName}`)).toBe(true);

    const bytes = sampleImage('image/png', 300);
    const stored = await put(prepared.uploadUrl, bytes, 'image/png');
    expect(stored.status).toBe(200);
    expect(stored.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);

    for (const query of [`uploadId=${prepared.uploadId}`, `fileName=${prepared.fileName}`]) {
      const pending = await account.api.get(`/v1/upload/status?${query}`);
      expect(pending.status).toBe(404);
      expect(pending.body).toMatchObject({ errorCode: 404, error: { code: 'upload_not_found' } });
    }
    expect((await fetch(prepared.finalUrl)).status).toBe(404);
    expect(attr((await account.api.get(`/v1/products/${skuId}`)).body.data, 'media')?.value).toBeNull();

    await clock.advance(PROCESSING_MS);
    const done = await account.api.get(`/v1/upload/status?uploadId=${prepared.uploadId}`);
    expect(done.status).toBe(200);
    expect(done.body.data).toEqual({
      fileId: expect.stringMatching(/^IM\d{8}$/),
      key: `${account.id}/${prepared.fileName}`,
      originalName: 'Front View.PNG',
      size: 300,
      format: 'image/png',
      createdAt: clock.now(),
    });
    const byName = await account.api.get(`/v1/upload/status?fileName=${prepared.fileName}`);
    expect(byName.body.data).toEqual(done.body.data);

    const product = (await account.api.get(`/v1/products/${skuId}`)).body.data;
    expect(attr(product, 'media')).toEqual({ key: 'media', value: [done.body.data.fileId] });
    expect(product.updatedAt).toBe(clock.now());

    const served = await fetch(prepared.finalUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('appends to the gallery in order, and only when addToMediaGallery is true', async () => {
    const skuId = await createProduct('up-order', [{ key: 'media', value: ['IM00000001'] }]);
    const other = await createProduct('up-not-added');
    const a = await prepare({ fileName: 'a.jpg', skuIds: [skuId, other], addToMediaGallery: true });
    const b = await prepare({ fileName: 'b.gif', skuIds: [skuId, other] });
    expect((await put(a.uploadUrl, sampleImage('image/jpeg'), 'image/jpeg')).status).toBe(200);
    expect((await put(b.uploadUrl, sampleImage('image/gif'), 'image/gif')).status).toBe(200);
    await clock.advance(PROCESSING_MS);
    const fileA = (await account.api.get(`/v1/upload/status?uploadId=${a.uploadId}`)).body.data.fileId;
    const fileB = (await account.api.get(`/v1/upload/status?uploadId=${b.uploadId}`)).body.data.fileId;
    expect(fileB).toMatch(/^IM\d{8}$/);
    const media = (sku: string) =>
      account.api.get(`/v1/products/${sku}`).then((r) => attr(r.body.data, 'media')?.value);
    expect(await media(skuId)).toEqual(['IM00000001', fileA]);
    expect(await media(other)).toEqual([fileA]);
  });

  it('never grows a gallery beyond 100 images', async () => {
    const full = Array.from({ length: 100 }, (_, i) => `IM${String(i).padStart(8, '0')}`);
    const skuId = await createProduct('up-full', [{ key: 'media', value: full }]);
    const prepared = await prepare({ fileName: 'extra.webp', skuIds: [skuId], addToMediaGallery: true });
    expect((await put(prepared.uploadUrl, sampleImage('image/webp'), 'image/webp')).status).toBe(200);
    await clock.advance(PROCESSING_MS);
    expect((await account.api.get(`/v1/upload/status?uploadId=${prepared.uploadId}`)).status).toBe(200);
    const product = (await account.api.get(`/v1/products/${skuId}`)).body.data;
    expect(attr(product, 'media')?.value).toEqual(full);
  });

  it('gives a variant its own gallery when an image is added to it', async () => {
    const parent = await createProduct('up-parent', [{ key: 'media', value: ['IM00000007'] }]);
    const variant = await account.api.post('/v1/variants', {
      parentSupplierSku: 'up-parent',
      supplierSku: 'up-parent-s',
      attributes: [{ key: 'size', value: 'S' }],
    });
    const variantSku = variant.body.data.skuId as string;
    const prepared = await prepare({ fileName: 'v.bmp', skuIds: [variantSku], addToMediaGallery: true });
    expect((await put(prepared.uploadUrl, sampleImage('image/bmp'), 'image/bmp')).status).toBe(200);
    await clock.advance(PROCESSING_MS);
    const { fileId } = (await account.api.get(`/v1/upload/status?uploadId=${prepared.uploadId}`)).body.data;
    const read = (await account.api.get(`/v1/variants/${variantSku}`)).body.data;
    expect(attr(read, 'media')).toEqual({ key: 'media', value: [fileId] });
    expect(attr((await account.api.get(`/v1/products/${parent}`)).body.data, 'media')?.value).toEqual([
      'IM00000007',
    ]);
  });

  it('validates prepare: extension, skuIds (at most 100, unique, existing) and types', async () => {
    const skuId = await createProduct('up-validate');
    const bad = async (body: unknown, status = 400) => {
      const res = await account.api.post('/v1/upload/prepare', body);
      expect(res.status).toBe(status);
      return res.body.error;
    };
    expect((await bad({ fileName: 'notes.txt' })).code).toBe('validation_error');
    expect((await bad({ fileName: 'scan.tif' })).code).toBe('validation_error');
    expect((await bad({ fileName: '' })).code).toBe('validation_error');
    expect((await bad({ fileName: 'a.png', addToMediaGallery: 'yes' })).code).toBe('validation_error');
    expect((await bad({ fileName: 'a.png', skuIds: [skuId, skuId] })).details.repeated).toEqual([skuId]);
    const many = Array.from({ length: 101 }, (_, i) => `SK${String(i).padStart(8, '0')}`);
    expect((await bad({ fileName: 'a.png', skuIds: many })).details).toMatchObject({ max: 100 });
    const missing = await bad({ fileName: 'a.png', skuIds: [skuId, 'SK99999999'] }, 404);
    expect(missing).toMatchObject({ code: 'product_not_found', details: { skuIds: ['SK99999999'] } });
    const plain = await prepare({ fileName: 'photo.jpeg' });
    expect(plain.fileName).toMatch(/^photo-up\d{8}\.jpeg$/);
  });

  it('needs an API key with uploads:write for prepare and status', async () => {
    expect(
      (await apiFor(sandbox.url, 'nope-key-123').post('/v1/upload/prepare', { fileName: 'a.png' })).status,
    ).toBe(401);
    const readOnly = await sandbox.portal.post(`/portal/v1/accounts/${account.id}/api-keys`, {
      permissions: ['products:read'],
    });
    const api = apiFor(sandbox.url, readOnly.body.data.key);
    expect((await api.post('/v1/upload/prepare', { fileName: 'a.png' })).status).toBe(403);
    expect((await api.get('/v1/upload/status?uploadId=UP00000000')).status).toBe(403);
  });

  it('answers status with exactly one of uploadId and fileName, and only for the own account', async () => {
    expect((await account.api.get('/v1/upload/status')).status).toBe(400);
    expect((await account.api.get('/v1/upload/status?uploadId=UP1&fileName=x.png')).status).toBe(400);
    expect((await account.api.get('/v1/upload/status?uploadId=UP00000000')).status).toBe(404);
    const prepared = await prepare({ fileName: 'mine.png' });
    await put(prepared.uploadUrl, sampleImage('image/png'), 'image/png');
    await clock.advance(PROCESSING_MS);
    const other = await sandbox.createAccount();
    expect((await other.api.get(`/v1/upload/status?uploadId=${prepared.uploadId}`)).status).toBe(404);
    expect((await other.api.get(`/v1/upload/status?fileName=${prepared.fileName}`)).status).toBe(404);
  });
});

describe('catalog sandbox: object store behind the upload URLs', () => {
  const clock = new ManualClock(Date.UTC(2026, 2, 1, 12, 0, 0, 250));
  let sandbox: CatalogSandboxHarness;
  let account: TestAccount;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox({
      clock,
      env: { CATALOG_SANDBOX_UPLOAD_MAX_BYTES: '4096', CATALOG_SANDBOX_UPLOAD_PROCESSING_MS: '10000' },
    });
    account = await sandbox.createAccount();
  });
  afterAll(() => sandbox.close());

  const prepare = async (fileName: string) =>
    (await account.api.post('/v1/upload/prepare', { fileName })).body.data as {
      uploadUrl: string;
      uploadId: string;
      fileName: string;
    };

  async function expectXmlError(res: Response, status: number, code: string) {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(await res.text()).toContain(`<Code>${code}</Code>`);
  }

  it('refuses a tampered URL with 403 SignatureDoesNotMatch', async () => {
    const { uploadUrl } = await prepare('t.png');
    const url = new URL(uploadUrl);
    const bytes = sampleImage('image/png');
    const signature = url.searchParams.get('signature') as string;
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    const variants = [
      uploadUrl.replace(signature, flipped),
      uploadUrl.replace(/expires=(\d+)/, (_, e: string) => `expires=${Number(e) + 3600}`),
      uploadUrl.replace('/t-', '/u-'),
      `${url.origin}${url.pathname}`,
    ];
    for (const tampered of variants)
      await expectXmlError(await put(tampered, bytes, 'image/png'), 403, 'SignatureDoesNotMatch');
    expect((await put(uploadUrl, bytes, 'image/png')).status).toBe(200);
  });

  it('accepts a URL until 900 s have passed, then answers 403 AccessDenied', async () => {
    const early = await prepare('early.png');
    const late = await prepare('late.png');
    await clock.advance(899_000);
    expect((await put(early.uploadUrl, sampleImage('image/png'), 'image/png')).status).toBe(200);
    await clock.advance(2_000);
    await expectXmlError(
      await put(late.uploadUrl, sampleImage('image/png'), 'image/png'),
      403,
      'AccessDenied',
    );
    expect((await account.api.get(`/v1/upload/status?uploadId=${late.uploadId}`)).status).toBe(404);
  });

  it('accepts one PUT per URL: a second one is refused with 403', async () => {
    const { uploadUrl } = await prepare('once.gif');
    expect((await put(uploadUrl, sampleImage('image/gif'), 'image/gif')).status).toBe(200);
    await expectXmlError(await put(uploadUrl, sampleImage('image/gif'), 'image/gif'), 403, 'AccessDenied');
  });

  it('checks Content-Type, the real format and the size, leaving the URL usable after a refusal', async () => {
    const { uploadUrl, uploadId } = await prepare('checked.jpg');
    await expectXmlError(
      await put(uploadUrl, sampleImage('image/jpeg'), 'image/png'),
      400,
      'InvalidContentType',
    );
    await expectXmlError(
      await put(uploadUrl, Buffer.from('not an image at all'), 'image/jpeg'),
      400,
      'InvalidImage',
    );
    await expectXmlError(await put(uploadUrl, sampleImage('image/png'), 'image/jpeg'), 400, 'InvalidImage');
    await expectXmlError(
      await put(uploadUrl, sampleImage('image/jpeg', 4097), 'image/jpeg'),
      413,
      'EntityTooLarge',
    );
    expect((await put(uploadUrl, sampleImage('image/jpeg', 4096), 'image/jpeg')).status).toBe(200);
    await clock.advance(9_999);
    expect((await account.api.get(`/v1/upload/status?uploadId=${uploadId}`)).status).toBe(404);
    await clock.advance(1);
    const done = await account.api.get(`/v1/upload/status?uploadId=${uploadId}`);
    expect(done.body.data).toMatchObject({ size: 4096, format: 'image/jpeg' });
  });

  it('answers 404 NoSuchKey on the CDN for unknown or unprocessed files', async () => {
    const { fileName } = await prepare('cdn.png');
    await expectXmlError(await fetch(`${sandbox.url}/cdn/${account.id}/${fileName}`), 404, 'NoSuchKey');
    await expectXmlError(await fetch(`${sandbox.url}/cdn/other/${fileName}`), 404, 'NoSuchKey');
  });

  it('hands out URLs on CATALOG_SANDBOX_PUBLIC_URL when set', async () => {
    const behindProxy = await startCatalogSandbox({
      env: { CATALOG_SANDBOX_PUBLIC_URL: 'https://catalog.example.test/' },
    });
    try {
      const other = await behindProxy.createAccount();
      const res = await other.api.post('/v1/upload/prepare', { fileName: 'p.png' });
      expect(res.body.data.uploadUrl).toMatch(/^https:\/\/catalog\.example\.test\/object-store\/uploads\//);
      expect(res.body.data.finalUrl).toMatch(/^https:\/\/catalog\.example\.test\/cdn\//);
    } finally {
      await behindProxy.close();
    }
  });
});
