import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogGate } from '../src/clients/catalog/catalog-gate.service.js';
import { Retention } from '../src/platform/database/retention.service.js';
import { FailuresService } from '../src/platform/failures/failures.service.js';
import { QueueName } from '../src/platform/queues/queue-names.js';
import { type Answer, call, sample } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { productReads, type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { tickAtTurn } from './support/scheduled-turn.js';
import { startSyncWorld } from './support/sync-world.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

interface FailureRow {
  id: string;
  job_kind: string;
  subject_key: string;
  error_code: string;
  retryable: boolean;
  attempts: number;
  state: string;
  payload: Record<string, unknown>;
}

// Failures: permanent ones and exhausted retries land in the failures table and can be
// replayed; a paused catalog key makes its shops' work wait, not fail.
describe('job failures', () => {
  let sandboxes: Sandboxes;
  let apiKey: string;
  const failuresOf = async (h: ConnectorHarness, shop: TestShop) =>
    (
      await h.db.query<FailureRow>(
        `SELECT id::text, job_kind, subject_key, error_code, retryable, attempts, state, payload
           FROM "${h.schema}".failures WHERE shop = $1 ORDER BY id`,
        [shop.domain],
      )
    ).rows;

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    apiKey = (await sandboxes.account()).apiKey;
  });
  afterAll(async () => {
    await sandboxes?.close();
  });

  it('records a permanent failure at once, and replays it after the operator fixes the cause', async () => {
    const shop = testShop();
    await sandboxes.addShop(shop);
    const created = await sandboxes.merchant(shop, 'POST', 'products.json', {
      product: { title: 'Replayed' },
    });
    const productId = String((created.body.product as { id: number }).id);
    const schema = `c_${randomBytes(6).toString('hex')}`;
    const common = {
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      schema,
      env: { CONNECTOR_SYNC_ATTEMPTS: '5' },
    };
    // A revoked token: Shopify answers 401, which no retry can fix.
    const broken = await startConnector({ ...common, shops: [{ ...shop, accessToken: 'shpat_revoked' }] });
    let fixed: ConnectorHarness | undefined;
    try {
      await broken.deliver({ shop, body: productUpdateBody(productId, new Date().toISOString()) });
      const [failure] = await eventually(async () => {
        const rows = await failuresOf(broken, shop);
        return rows.length > 0 && rows;
      });
      expect(failure).toMatchObject({
        job_kind: 'sync-product',
        subject_key: productId,
        error_code: 'shopify_unauthorized',
        retryable: false,
        attempts: 1,
        state: 'open',
        payload: { shop: shop.domain, productId, reason: 'webhook' },
      });
      const [row] = await broken.inbox(shop.domain, productId);
      expect(row?.state).toBe('received');
      await broken.connector.close();

      // The operator installs the right token and restarts, then replays the failure.
      fixed = await startConnector({ ...common, shops: [shop] });
      await fixed.connector.app.get(FailuresService).replay(failure?.id as string);
      const [done] = await eventually(async () => {
        const rows = await fixed?.inbox(shop.domain, productId);
        return rows?.[0]?.state === 'done' && rows;
      });
      expect(done?.outcome).toBe('synced');
      expect((await failuresOf(fixed, shop)).map((f) => f.state)).toEqual(['replayed']);
      expect(productReads(await sandboxes.adminRequests(shop), productId)).toBe(1);
      await expect(fixed.connector.app.get(FailuresService).replay(failure?.id as string)).rejects.toThrow(
        /not open/,
      );
    } finally {
      await fixed?.connector.close();
      await broken.db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await broken.db.query(`DROP SCHEMA IF EXISTS "${schema}_q" CASCADE`);
      await broken.db.end();
      await fixed?.db.end();
    }
  });

  it('records exhausted retries of a retryable error, with the attempts made', async () => {
    const shop = testShop();
    await sandboxes.addShop(shop);
    const unreachable: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    const harness = await startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: apiKey,
      shopifyFetch: unreachable,
      env: { CONNECTOR_SYNC_ATTEMPTS: '3', CONNECTOR_SHOPIFY_THROTTLE_RETRIES: '0' },
    });
    try {
      await harness.deliver({ shop, body: productUpdateBody('7390000777001', new Date().toISOString()) });
      const [failure] = await eventually(async () => {
        const rows = await failuresOf(harness, shop);
        return rows.length > 0 && rows;
      });
      expect(failure).toMatchObject({
        error_code: 'shopify_network_error',
        retryable: true,
        attempts: 3,
        state: 'open',
      });
    } finally {
      await harness.close();
    }
  });

  it('resolves an open failure when a later run syncs the product, counts it, and prunes it later', async () => {
    const shop = testShop();
    await sandboxes.addShop(shop);
    const created = await sandboxes.merchant(shop, 'POST', 'products.json', {
      product: { title: 'Fails, then syncs' },
    });
    const productId = String((created.body.product as { id: number }).id);
    let shopifyDown = true;
    const flaky: typeof fetch = async (input, init) => {
      if (shopifyDown) throw new TypeError('fetch failed');
      return sandboxes.shopifyFetch(input, init);
    };
    const harness = await startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: apiKey,
      shopifyFetch: flaky,
      env: { CONNECTOR_SYNC_ATTEMPTS: '1', CONNECTOR_SHOPIFY_THROTTLE_RETRIES: '0' },
    });
    try {
      await harness.deliver({ shop, body: productUpdateBody(productId, new Date().toISOString()) });
      const [failure] = await eventually(async () => {
        const rows = await failuresOf(harness, shop);
        return rows.length > 0 && rows;
      });
      expect(failure).toMatchObject({ job_kind: 'sync-product', subject_key: productId, state: 'open' });
      const resolvedBefore = sample(
        (await call(harness.url, 'GET', '/metrics')).text,
        'connector_failures_resolved_total',
        { job_kind: 'sync-product', action: 'resolved' },
      );

      // Shopify answers again; the merchant's next edit syncs the product.
      shopifyDown = false;
      await harness.deliver({ shop, body: productUpdateBody(productId, new Date().toISOString()) });
      const [resolved] = await eventually(async () => {
        const rows = await failuresOf(harness, shop);
        return rows[0]?.state === 'resolved' && rows;
      });
      expect(resolved?.id).toBe(failure?.id);
      const metrics = (await call(harness.url, 'GET', '/metrics')).text;
      expect(
        sample(metrics, 'connector_failures_resolved_total', {
          job_kind: 'sync-product',
          action: 'resolved',
        }) - resolvedBefore,
      ).toBe(1);

      // Retention prunes it like a replayed one once it was resolved long enough ago.
      await harness.db.query(
        `UPDATE "${harness.schema}".failures SET resolved_at = now() - interval '400 days' WHERE id = $1`,
        [failure?.id],
      );
      await harness.connector.app.get(Retention).run();
      expect(await failuresOf(harness, shop)).toEqual([]);
    } finally {
      await harness.close();
    }
  });

  it('holds back the work of a shop whose catalog key is refused, and resumes once the key works', async () => {
    const ok = testShop();
    const paused = testShop();
    await sandboxes.addShop(ok);
    await sandboxes.addShop(paused);
    const pendingKey = `pending-key-${randomBytes(8).toString('hex')}`;
    const harness = await startConnector({
      shops: [ok, paused],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: {
        [`CONNECTOR_SHOP_${paused.key}_CATALOG_API_KEY`]: pendingKey,
        CONNECTOR_CATALOG_BREAKER_AUTH_COOLDOWN_MS: '200',
        CONNECTOR_CATALOG_PAUSE_RECHECK_MS: '100',
      },
    });
    try {
      const now = new Date().toISOString();
      // The boot check finds the key refused: the breaker for that key opens.
      const gate = harness.connector.app.get(CatalogGate);
      await eventually(async () => gate.waitFor(paused.domain) !== null);
      expect(gate.waitFor(ok.domain)).toBeNull();
      await harness.deliver({ shop: paused, body: productUpdateBody('7390000777002', now) });
      await harness.deliver({ shop: ok, body: productUpdateBody('7390000777003', now) });
      await eventually(async () => (await harness.inbox(ok.domain))[0]?.state === 'done');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await harness.inbox(paused.domain))[0]?.state).toBe('received');
      expect(productReads(await sandboxes.adminRequests(paused), '7390000777002')).toBe(0);
      expect(await failuresOf(harness, paused)).toEqual([]);

      // The key becomes valid (say, the account is created): the probe closes the breaker.
      await sandboxes.catalog.createAccount({ apiKeys: [{ key: pendingKey, permissions: ['*'] }] });
      const [row] = await eventually(async () => {
        const rows = await harness.inbox(paused.domain);
        return rows[0]?.state === 'done' && rows;
      }, 30_000);
      expect(row?.outcome).toBe('not_found');
      expect(await failuresOf(harness, paused)).toEqual([]);
    } finally {
      await harness.close();
    }
  });

  it("keeps one failure per shop and cause for a failing enrichment poll (not one while its breaker is open: paused), resolved by the shop's next poll that succeeds", async () => {
    const token = `admin-${randomBytes(16).toString('hex')}`;
    const world = await startSyncWorld({
      env: {
        CONNECTOR_ADMIN_TOKEN: token,
        CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS: '3600000',
        // The 500s open the catalog breaker: it lets calls through again soon after they stop.
        CONNECTOR_CATALOG_BREAKER_COOLDOWN_MS: '300',
        CONNECTOR_CATALOG_PAUSE_RECHECK_MS: '200',
      },
    });
    const admin = <T>(method: string, path: string): Promise<Answer<T>> =>
      call<T>(world.harness.url, method, path, token);
    const shop = world.shop.domain;
    /** Asks for a poll and waits until it ended; resolves to its status (finished, paused, failed) and what it held. */
    const pollNow = async () => {
      const queued = await admin<{ id: string }>('POST', '/admin/enrichment/poll');
      return eventually(async () => {
        const { body } = await admin<{ status: string; counts: { held?: Record<string, string> } }>(
          'GET',
          `/admin/enrichment/poll/${queued.body.id}`,
        );
        return ['finished', 'paused', 'failed'].includes(body.status) && body;
      }, 60_000);
    };
    const poll = async () => (await pollNow()).status;
    const failuresOfPoll = async () =>
      (
        await admin<{
          items: Array<{
            id: string;
            subjectKey: string;
            state: string;
            occurrences: number;
            resolvedBy: string | null;
            error: { code: string };
          }>;
        }>('GET', `/admin/failures?shop=${shop}&jobKind=enrichment-poll`)
      ).body.items;
    try {
      // The shop's scheduled poll (its turn of the period, asked for now) is done first: it does
      // not meet the faults below.
      await tickAtTurn(world.harness.connector.app, QueueName.ENRICHMENT_POLL, shop);
      await eventually(async () => {
        const { rows } = await world.harness.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "${world.harness.schema}".enrichment_poll
            WHERE trigger = 'schedule' AND finished_at IS NOT NULL`,
        );
        return (rows[0]?.n ?? 0) > 0;
      }, 30_000);
      // The catalog answers 500 to every search (each call's four tries). Five failures in a row
      // open the shop's breaker: a poll then holds the shop and reads paused, adding no failure;
      // once the probe closed it, the next poll fails again.
      await world.account.controls.setFaults({
        error500: { method: 'POST', path: '/v1/products/search', count: 1_000 },
      });
      const ended: string[] = [];
      const paused: Array<Record<string, string> | undefined> = [];
      await eventually(async () => {
        const { status, counts } = await pollNow();
        ended.push(status);
        if (status === 'paused') paused.push(counts.held);
        return ended.filter((s) => s === 'failed').length === 2;
      }, 60_000);
      expect(ended[0]).toBe('failed');
      expect(ended).toContain('paused');
      expect(ended.filter((s) => s !== 'failed' && s !== 'paused')).toEqual([]);
      expect(paused[0]?.[shop]).toMatch(/breaker open/);
      await world.account.controls.clearFaults();
      const [open, ...others] = await failuresOfPoll();
      expect(others).toEqual([]);
      expect(open).toMatchObject({
        subjectKey: 'poll',
        state: 'open',
        occurrences: 2,
        error: { code: 'internal_error' },
      });
      const overview = async () =>
        (
          await admin<{ shops: Array<{ shop: string; openFailures: Record<string, number> }> }>(
            'GET',
            '/admin/overview',
          )
        ).body.shops.find((s) => s.shop === shop);
      expect((await overview())?.openFailures['enrichment-poll']).toBe(1);

      // The catalog answers again: the next poll succeeds and resolves it, no replay needed.
      // (A poll while the breaker is still open holds the shop, and reads as paused: the next one runs.)
      await eventually(async () => (await poll()) === 'finished', 60_000);
      // The poll's row says finished a moment before its job resolves what it polled.
      const resolved = await eventually(async () => {
        const [failure] = await failuresOfPoll();
        return failure?.state === 'resolved' && failure;
      });
      expect(resolved).toMatchObject({ id: open?.id, state: 'resolved' });
      expect(resolved?.resolvedBy).toMatch(/^enrichment-poll job poll-/);
      expect((await overview())?.openFailures['enrichment-poll'] ?? 0).toBe(0);
    } finally {
      await world.close();
    }
  });
});
