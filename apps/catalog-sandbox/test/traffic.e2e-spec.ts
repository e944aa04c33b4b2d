import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import {
  type CatalogSandboxHarness,
  productBody,
  startCatalogSandbox,
  type TestAccount,
} from '#testing/catalog-sandbox';
import { AccountRegistry } from '../src/accounts/account.registry.js';

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!condition()) throw new Error('condition never held');
}

describe('catalog sandbox: rate limit', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  let sandbox: CatalogSandboxHarness;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox({
      clock,
      env: {
        CATALOG_SANDBOX_RATE_LIMIT: 'true',
        CATALOG_SANDBOX_RATE_PER_SECOND: '4',
        CATALOG_SANDBOX_RATE_BURST: '3',
      },
    });
  });
  afterAll(() => sandbox.close());

  it('answers 429 with Retry-After and the envelope past the burst, and refills with time', async () => {
    const account = await sandbox.createAccount();
    for (let i = 0; i < 3; i++) expect((await account.api.get('/v1/taxonomies')).status).toBe(200);
    const limited = await account.api.get('/v1/taxonomies');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.body).toMatchObject({ errorCode: 429, error: { code: 'rate_limit_exceeded' } });
    await clock.advance(249);
    expect((await account.api.get('/v1/taxonomies')).status).toBe(429);
    await clock.advance(1);
    expect((await account.api.get('/v1/taxonomies')).status).toBe(200);
    expect((await account.api.get('/v1/taxonomies')).status).toBe(429);
    const log = await sandbox.portal.get(`/portal/v1/accounts/${account.id}/requests?status=429`);
    expect(log.body.data.total).toBe(3);
  });

  it('keeps one bucket per account, and never limits portal calls', async () => {
    const first = await sandbox.createAccount();
    const second = await sandbox.createAccount();
    for (let i = 0; i < 3; i++) await first.api.get('/v1/taxonomies');
    expect((await first.api.get('/v1/taxonomies')).status).toBe(429);
    expect((await second.api.get('/v1/taxonomies')).status).toBe(200);
    const portal = await Promise.all(
      Array.from({ length: 20 }, () => sandbox.portal.get(`/portal/v1/accounts/${first.id}`)),
    );
    expect(portal.every((r) => r.status === 200)).toBe(true);
  });

  it('takes per-account settings from the portal', async () => {
    const account = await sandbox.createAccount();
    const set = await sandbox.portal.patch(`/portal/v1/accounts/${account.id}/rate-limit`, {
      burst: 1,
      ratePerSecond: 0.5,
    });
    expect(set.body.data).toEqual({ enabled: true, burst: 1, ratePerSecond: 0.5 });
    expect((await account.api.get('/v1/taxonomies')).status).toBe(200);
    const limited = await account.api.get('/v1/taxonomies');
    expect(limited.headers['retry-after']).toBe('2');
    const bad = await sandbox.portal.patch(`/portal/v1/accounts/${account.id}/rate-limit`, { burst: 0 });
    expect(bad.status).toBe(400);
  });
});

describe('catalog sandbox: fault injection', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  let sandbox: CatalogSandboxHarness;
  let account: TestAccount;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox({ clock });
    account = await sandbox.createAccount();
  });
  afterAll(() => sandbox.close());
  const setFaults = (body: unknown) =>
    request(sandbox.url)
      .put(`/portal/v1/accounts/${account.id}/faults`)
      .set('X-Portal-Token', sandbox.portalToken)
      .send(body as object);

  it('is off by default', async () => {
    const report = await sandbox.portal.get(`/portal/v1/accounts/${account.id}/faults`);
    expect(report.body.data).toEqual({
      plan: {},
      remaining: {},
      injected: { error500: 0, burst429: 0, latency: 0, commitThenDrop: 0 },
    });
  });

  it('injects 500s for the next N requests, counted', async () => {
    await setFaults({ error500: { count: 2 } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await account.api.get('/v1/taxonomies')).status);
    expect(statuses).toEqual([500, 500, 200]);
    const res = await sandbox.portal.get(`/portal/v1/accounts/${account.id}/faults`);
    expect(res.body.data.injected.error500).toBe(2);
    expect(res.body.data.remaining.error500).toBe(0);
  });

  it('injects a share of 500s, repeatably for a given seed', async () => {
    const run = async () => {
      await setFaults({ error500: { probability: 0.3 }, seed: 42 });
      const answers: Array<{ status: number; body: { error?: unknown } }> = [];
      for (let i = 0; i < 60; i++) answers.push(await account.api.get('/v1/taxonomies'));
      return answers;
    };
    const first = await run();
    const second = await run();
    const statuses = first.map((a) => a.status);
    expect(second.map((a) => a.status)).toEqual(statuses);
    const errors = first.filter((a) => a.status === 500);
    expect(errors.length).toBeGreaterThan(5);
    expect(errors.length).toBeLessThan(35);
    expect(statuses.filter((s) => s !== 500).every((s) => s === 200)).toBe(true);
    for (const { body } of errors) {
      expect(body.error).toMatchObject({ code: 'internal_error', details: { injected: true } });
    }
    const report = await sandbox.portal.get(`/portal/v1/accounts/${account.id}/faults`);
    expect(report.body.data.injected.error500).toBeGreaterThanOrEqual(errors.length * 2);
  });

  it('injects 429 bursts with Retry-After', async () => {
    await setFaults({ burst429: { count: 3, retryAfterSeconds: 5 } });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await account.api.get('/v1/taxonomies'));
    expect(answers.map((a) => a.status)).toEqual([429, 429, 429, 200]);
    expect(answers[0]?.headers['retry-after']).toBe('5');
    expect(answers[0]?.body.error.code).toBe('rate_limit_exceeded');
  });

  it('adds latency, measured on the sandbox clock', async () => {
    await setFaults({ latency: { ms: 1_000, count: 1 } });
    let answered = false;
    const pending = account.api
      .get('/v1/taxonomies')
      .then((r) => r)
      .finally(() => {
        answered = true;
      });
    await until(() => clock.pendingSleepers === 1);
    await clock.advance(999);
    expect(answered).toBe(false);
    await clock.advance(1);
    expect((await pending).status).toBe(200);
  });

  it('commits then drops: the write happens, the answer never comes', async () => {
    await setFaults({ commitThenDrop: { count: 1, method: 'POST', path: '/v1/products' } });
    await expect(account.api.post('/v1/products', productBody('dropped-1'))).rejects.toThrow(
      /socket hang up|ECONNRESET/,
    );
    const store = sandbox.app.get(AccountRegistry).require(account.id).products;
    expect(store.bySupplierSku('dropped-1')).toHaveLength(1);
    // Only POST /v1/products was targeted, and only once.
    expect((await account.api.post('/v1/products', productBody('answered'))).status).toBe(200);
    const report = await sandbox.portal.get(`/portal/v1/accounts/${account.id}/faults`);
    expect(report.body.data.injected.commitThenDrop).toBe(1);
  });

  it('does not drop a write that fails: the error is answered', async () => {
    await setFaults({ commitThenDrop: { count: 1 } });
    const res = await account.api.post('/v1/products', { product: { supplierSku: 'x', attributes: [] } });
    expect(res.status).toBe(400);
    const report = await sandbox.portal.get(`/portal/v1/accounts/${account.id}/faults`);
    expect(report.body.data.remaining.commitThenDrop).toBe(0);
  });

  it('clears every fault and zeroes the counters', async () => {
    await setFaults({ error500: {} });
    expect((await account.api.get('/v1/taxonomies')).status).toBe(500);
    const cleared = await sandbox.portal.delete(`/portal/v1/accounts/${account.id}/faults`);
    expect(cleared.body.data.injected).toEqual({ error500: 0, burst429: 0, latency: 0, commitThenDrop: 0 });
    expect((await account.api.get('/v1/taxonomies')).status).toBe(200);
  });

  it('refuses a malformed fault plan', async () => {
    for (const body of [
      { error500: { probability: 2 } },
      { latency: {} },
      { meltdown: {} },
      { burst429: { count: -1 } },
    ]) {
      const res = await setFaults(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
    }
  });
});
