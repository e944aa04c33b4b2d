import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueueName } from '../src/platform/queues/queue-names.js';
import type { ResyncRunDto } from '../src/resync/resync-run.dto.js';
import { call } from './support/admin-client.js';
import { eventually } from './support/connector-harness.js';
import { tickAtTurn } from './support/scheduled-turn.js';
import { type SyncWorld, startSyncWorld } from './support/sync-world.js';

const ADMIN_TOKEN = `resync-dry-${randomBytes(8).toString('hex')}`;

// Issue 31, dry runs of resync and reconciliation: with the shop's deliveries dropped, a dry-run
// resync and a dry-run reconciliation read and plan the products the connector missed (an edit,
// a new product, a deletion), send no catalog write, change no sku map row, sync state, planned
// write or checkpoint, and list their plan in `GET /admin/resync/{id}`; the real runs afterwards
// send exactly the planned calls.
describe('dry-run resync and reconciliation', () => {
  let world: SyncWorld;

  beforeAll(async () => {
    world = await startSyncWorld({
      env: { CONNECTOR_ADMIN_TOKEN: ADMIN_TOKEN, CONNECTOR_MEDIA_ENABLED: 'false' },
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  const admin = <T>(method: string, path: string, body?: unknown) =>
    call<T>(world.harness.url, method, path, ADMIN_TOKEN, body);
  const q = () => `"${world.harness.schema}"`;
  const catalogWrites = async (since: number) =>
    (await world.catalogCalls(since)).filter(
      (r) => r.method !== 'GET' && /^\/v1\/(products|variants)/.test(r.path) && !r.path.endsWith('/search'),
    );
  const dropDeliveries = async (drop: number) => {
    const answer = await world.sandboxes.shopify.control(
      'PUT',
      `shops/${world.shop.domain}/delivery-faults`,
      {
        drop,
      },
    );
    expect(answer.status).toBeLessThan(300);
  };
  /** What a dry run must leave alone: the shop's sku map, sync states, planned writes and checkpoint. */
  const untouched = async () => {
    const shop = world.shop.domain;
    const rows = async (sql: string) => (await world.harness.db.query(sql, [shop])).rows;
    return JSON.stringify([
      await rows(`SELECT * FROM ${q()}.sku_map WHERE shop = $1 ORDER BY supplier_sku`),
      await rows(`SELECT * FROM ${q()}.product_sync_state WHERE shop = $1 ORDER BY product_id`),
      await rows(`SELECT * FROM ${q()}.planned_writes WHERE shop = $1`),
      await rows(`SELECT * FROM ${q()}.reconcile_checkpoints WHERE shop = $1`),
    ]);
  };
  const ended = (id: string) =>
    eventually(async () => {
      const run = await admin<ResyncRunDto>('GET', `/admin/resync/${id}`);
      return run.body.state !== 'running' && run.body;
    }, 30_000);
  const callsOf = (run: ResyncRunDto) =>
    (run.plan?.products ?? []).flatMap((p) => p.calls.map((c) => `${c.method} ${c.path}`)).sort();
  const simple = (title: string) => ({
    title,
    vendor: 'Acme',
    product_type: 'Mugs',
    variants: [{ price: '12.00', sku: `${title.replaceAll(' ', '-')}-${randomBytes(3).toString('hex')}` }],
  });

  it('plans what was missed and sends nothing; the real runs then send exactly the planned calls', async () => {
    const shop = world.shop.domain;
    // The shop's first scheduled reconciliation (at its turn of the interval) records the
    // checkpoint the dry run reads from.
    await tickAtTurn(world.harness.connector.app, QueueName.RECONCILE, shop);
    await eventually(
      async () =>
        (await world.harness.db.query(`SELECT 1 FROM ${q()}.reconcile_checkpoints WHERE shop = $1`, [shop]))
          .rows.length === 1,
      30_000,
    );
    const [edited, kept, deleted] = [
      await world.createProduct(simple('Dry Edited')),
      await world.createProduct(simple('Dry Kept')),
      await world.createProduct(simple('Dry Deleted')),
    ];
    for (const id of [edited, kept, deleted]) await world.settle(id);
    const editedSku = (await world.mapRows(edited))[0]?.sku_id;
    const deletedSku = (await world.mapRows(deleted))[0]?.sku_id;

    // The connector misses an edit, a new product and a deletion (their webhooks are dropped).
    await dropDeliveries(1);
    await world.updateProduct(edited, { title: 'Dry Edited Renamed' });
    const created = await world.createProduct(simple('Dry Created'));
    await world.deleteProduct(deleted);
    await world.sandboxes.shopify.sandbox.idle();
    await dropDeliveries(0);

    const before = await untouched();
    const since = Date.now();
    // A dry-run resync of the whole shop (parameters in a JSON body): the edit and the new product.
    const started = await admin<ResyncRunDto>('POST', '/admin/resync', { shop, dryRun: true });
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({ scope: 'shop', dryRun: true, state: 'running' });
    const resync = await ended(started.body.id);
    expect(resync).toMatchObject({
      state: 'done',
      readMode: 'pages',
      listed: 3,
      done: 3,
      plan: { counts: { products: 3, changed: 2, creates: 1, patches: 1, deletes: 0, total: 2 } },
    });
    expect(resync.plan?.products.map((p) => p.productId)).toEqual([edited, created].sort(byId));
    expect(callsOf(resync)).toEqual([`PATCH /v1/products/${editedSku}`, 'POST /v1/products'].sort());
    const patch = resync.plan?.products.find((p) => p.productId === edited)?.calls[0];
    expect(patch?.before?.name).toBe('Dry Edited');
    expect(patch?.after?.name).toBe('Dry Edited Renamed');

    // A dry-run reconciliation (query parameters): the same two, and the deletion.
    const reconcileStarted = await admin<ResyncRunDto>('POST', `/admin/reconcile?shop=${shop}&dryRun=true`);
    expect(reconcileStarted.status, reconcileStarted.text).toBe(200);
    const reconcile = await ended(reconcileStarted.body.id);
    expect(reconcile).toMatchObject({
      scope: 'reconcile',
      dryRun: true,
      state: 'done',
      plan: { counts: { creates: 1, patches: 1, deletes: 1, total: 3 } },
    });
    expect(callsOf(reconcile)).toEqual(
      [`PATCH /v1/products/${editedSku}`, 'POST /v1/products', `DELETE /v1/products/${deletedSku}`].sort(),
    );
    expect(reconcile.plan?.products.find((p) => p.productId === deleted)).toMatchObject({ found: false });

    // Nothing sent, nothing changed but the runs.
    expect(await catalogWrites(since)).toEqual([]);
    expect(await untouched()).toBe(before);

    // The real resync sends exactly the resync's plan, and leaves the records at its `after`.
    const realSince = Date.now();
    const real = await ended((await admin<ResyncRunDto>('POST', `/admin/resync?shop=${shop}`)).body.id);
    expect(real).toMatchObject({ state: 'done', dryRun: false, plan: null });
    const sent = await eventually(async () => {
      const writes = await catalogWrites(realSince);
      return writes.length >= 2 && writes;
    });
    expect(sent.map((r) => `${r.method} ${r.path}`).sort()).toEqual(callsOf(resync));
    for (const product of resync.plan?.products ?? []) {
      const rows = await world.mapRows(product.productId);
      expect(rows.map((row) => row.snapshot)).toEqual(product.calls.map((c) => c.after));
    }

    // The real reconciliation then has only the deletion left to send: the planned DELETE.
    const reconcileSince = Date.now();
    const realReconcile = await admin<ResyncRunDto>('POST', '/admin/reconcile', { shop });
    expect(realReconcile.body).toMatchObject({ scope: 'reconcile', dryRun: false });
    const done = await ended(realReconcile.body.id);
    const deletes = await catalogWrites(reconcileSince);
    expect(deletes.map((r) => `${r.method} ${r.path}`)).toEqual([`DELETE /v1/products/${deletedSku}`]);
    // It lists the deleted product (and the two the resync synced, when that sync ran within the
    // second of their edit: seen only after a later run); their syncs found nothing to send.
    expect(done).toMatchObject({ state: 'done', failed: 0, remaining: 0 });
    expect(done.listed).toBeGreaterThanOrEqual(1);
  });

  it('refuses a bad dryRun, an unknown parameter and an unknown shop', async () => {
    const shop = world.shop.domain;
    expect((await admin('POST', `/admin/resync?shop=${shop}&dryRun=yes`)).status).toBe(400);
    expect((await admin('POST', `/admin/reconcile?shop=${shop}&dry=true`)).status).toBe(400);
    expect((await admin('POST', '/admin/reconcile', { dryRun: true })).status).toBe(400);
    expect((await admin('POST', '/admin/reconcile?shop=nobody.myshopify.com&dryRun=true')).status).toBe(404);
    expect((await admin('GET', '/admin/resync/1?planAfter=x')).status).toBe(400);
  });
});

function byId(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
