import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { productBody } from '#testing/catalog-sandbox';
import {
  type ConnectorProcess,
  type ConnectorWorld,
  eventually,
  runCli,
  startConnectorProcess,
  startConnectorWorld,
} from './support/connector-world.js';

interface Finding {
  id: string;
  kind: string;
  key: string;
  productId: string | null;
  skuId: string | null;
  parentSkuId?: string;
  field: string | null;
  expected: unknown;
  found: unknown;
  repair: string;
  ownerId?: string;
  target?: string;
}
interface Report {
  id: string;
  previousId: string | null;
  resolved: string[];
  findings: Finding[];
}
interface Repair {
  kind: string;
  outcome: string;
  reason?: string;
}
interface Product {
  id: string;
  gid: string;
  variantIds: string[];
}

// Issue 32's "done when" in real processes: the built connector (dist/) over both sandboxes, every
// kind of drift seeded behind its back through the sandboxes' APIs only (the catalog's /v1 and
// portal, the Shopify sandbox's Admin API and webhook faults): a catalog value a person changed, a
// dropped update webhook, a deleted record, orphans (records with the shop's supplierSku naming a
// product it never synced: a simple one and one with options, taken whole; a stranger's; one as
// linking leaves it, a SKU as supplierSku; a variant record keyed by a variant SKU under a claimed
// parent), a duplicate supplierSku, a written-back value the merchant edited with its webhook
// dropped, and one the catalog rejected after approval with no poll to see it. One report finds
// each with its repair; the operator's chosen repairs (refused in shadow mode, then by kind, one
// by id, a selection; one through the command line) run, and a later report finds nothing.
describe('a connector process: drift of every kind, found and repaired', () => {
  let world: ConnectorWorld;
  let connector: ConnectorProcess;
  let cliEnv: Record<string, string>;
  let prefix: string;
  const schema = `drift_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  /** Products the merchant made before the connector subscribed: nothing synced them. */
  let unsyncedSimple: Product;
  let unsyncedOptions: Product;

  const admin = async <T>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> => {
    const answer = await fetch(`${connector.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${world.adminToken}`,
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: answer.status, body: (await answer.json()) as T };
  };
  const merchant = async (method: string, path: string, body: unknown) => {
    const answer = await fetch(`${world.shopify.adminUrl}/${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': world.shop.accessToken },
      body: JSON.stringify(body),
    });
    const parsed = (await answer.json()) as { product?: { id: number; variants: Array<{ id: number }> } };
    if (!answer.ok || !parsed.product) throw new Error(`${method} ${path}: ${answer.status}`);
    const id = String(parsed.product.id);
    return {
      id,
      gid: `gid://shopify/Product/${id}`,
      variantIds: parsed.product.variants.map((v) => String(v.id)),
    };
  };
  const simple = (title: string) =>
    merchant('POST', 'products.json', {
      product: {
        title,
        vendor: 'Acme',
        product_type: 'Tees',
        variants: [{ price: '10.00', barcode: '4006381333931' }],
      },
    });
  const seoTitle = async (gid: string) => {
    const answer = await fetch(`${world.shopify.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': world.shop.accessToken },
      body: JSON.stringify({
        query: 'query DriftSeo($id: ID!) { product(id: $id) { seo { title } } }',
        variables: { id: gid },
      }),
    });
    return ((await answer.json()) as { data: { product: { seo: { title: string | null } } } }).data.product
      .seo.title;
  };
  const portal = async (method: 'post' | 'get', path: string, body?: unknown) => {
    const answer = await world.catalog.portal[method](`/portal/v1/accounts/${world.account.id}${path}`, body);
    if (answer.status !== 200) throw new Error(`portal ${path}: ${JSON.stringify(answer.body)}`);
    return answer.body.data;
  };
  const value = async (skuId: string, key: string) => {
    const record = await world.account.api.get(`/v1/products/${skuId}`);
    return (record.body.data.attributes as Array<{ key: string; value: unknown }>).find((a) => a.key === key)
      ?.value;
  };
  const created = (answer: { status: number; body: { data: { skuId: string } } }) => {
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
    return answer.body.data.skuId;
  };
  /** The product's own record once its sync made it (skuId), every map row live. */
  const synced = (product: Product) =>
    eventually(async () => {
      const status = await admin<{
        mapRows: Array<{ shopifyVariantId: string | null; skuId: string | null; state: string }>;
      }>('GET', `/admin/products/${product.id}`);
      const rows = status.body.mapRows ?? [];
      const own = rows.find((r) => r.shopifyVariantId === null);
      return status.status === 200 && rows.length > 0 && rows.every((r) => r.state === 'live') && own?.skuId
        ? own.skuId
        : false;
    });
  const report = async () => {
    const answer = await admin<Report>('POST', `/admin/shops/${world.shop.domain}/drift`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  };
  /** Shopify's updatedAt counts whole seconds: a dropped update must land a second after its sync. */
  const nextSecond = async () => {
    const at = Date.now();
    await eventually(async () => Math.floor(Date.now() / 1000) > Math.floor(at / 1000));
  };
  const dropped = async (product: Product, change: Record<string, unknown>) => {
    await nextSecond();
    const faults = `shops/${world.shop.domain}/delivery-faults`;
    expect((await world.shopify.control('PUT', faults, { drop: 1 })).status).toBe(200);
    await merchant('PUT', `products/${product.id}.json`, { product: { id: Number(product.id), ...change } });
    await world.shopify.sandbox.idle();
    expect((await world.shopify.control('PUT', faults, { drop: 0 })).status).toBe(200);
  };

  beforeAll(async () => {
    world = await startConnectorWorld();
    prefix = world.shop.domain.replace('.myshopify.com', '');
    unsyncedSimple = await simple('Before the connector');
    unsyncedOptions = await merchant('POST', 'products.json', {
      product: {
        title: 'Linen shirt, before the connector',
        vendor: 'Acme',
        product_type: 'Shirts',
        options: [{ name: 'Size' }],
        variants: [
          { option1: 'Small', price: '35.00', barcode: '4006381333931' },
          { option1: 'Medium', price: '36.00', barcode: '4006381333948' },
        ],
      },
    });
    connector = await startConnectorProcess(
      world.env({
        CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS: '3600000',
        CONNECTOR_ENRICHMENT_WATCHLIST_INTERVAL_MS: '0',
        CONNECTOR_ENRICHMENT_PUSH_BACKOFF_MS: '50',
        CONNECTOR_ENRICHMENT_LOCK_RETRY_MS: '50',
        CONNECTOR_MEDIA_ENABLED: 'false',
      }),
      schema,
    );
    cliEnv = world.env({ CONNECTOR_PUBLIC_URL: connector.url });
    const registered = await runCli(['--url', connector.url, 'register-webhooks'], cliEnv);
    expect(registered.code, registered.stderr).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await connector?.stop();
    // Only the clean-up touches the database: the scenario is HTTP only.
    const db = new pg.Pool({ connectionString: inject('databaseUrl'), max: 1 });
    for (const name of [schema, `${schema}_q`]) {
      await db.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`).catch(() => undefined);
    }
    await db.end();
    await world?.close();
  });

  it('finds each kind with its repair; the chosen repairs run; a later report finds none', async () => {
    const made = await Promise.all(
      ['edited', 'gone', 'missed', 'merchant', 'rejected'].map((t) => simple(`Tee ${t}`)),
    );
    const [edited, gone, missed, merchantEdit, rejected] = made as [
      Product,
      Product,
      Product,
      Product,
      Product,
    ];
    const sku = new Map<Product, string>();
    for (const p of made) sku.set(p, await synced(p));
    const skuOf = (p: Product) => sku.get(p) as string;
    const supplierSkuOf = (p: Product) => `${prefix}:product:${p.id}`;

    // Two products get an approved SEO title (enriched in the portal), written back by a poll.
    const written = [merchantEdit, rejected];
    const run = await portal('post', '/enrichment/runs', {
      skuIds: written.map(skuOf),
      mode: 'manual',
      batchSize: written.length,
    });
    for (let step = 0, state = run; step < 5 && state.status !== 'DONE'; step += 1) {
      state = await portal('post', `/enrichment/runs/${run.runId}/step`);
    }
    for (const p of written) await portal('post', `/products/${skuOf(p)}/review`, { approve: ['seoTitle'] });
    const poll = await admin<{ id: string }>('POST', '/admin/enrichment/poll');
    expect(poll.status).toBe(200);
    await eventually(async () => {
      const status = await admin<{ status: string; pushes: { pending: number } }>(
        'GET',
        `/admin/enrichment/poll/${poll.body.id}`,
      );
      if (status.body.status === 'failed') throw new Error(`poll failed: ${JSON.stringify(status.body)}`);
      return status.body.status === 'finished' && status.body.pushes.pending === 0;
    });
    for (const p of written) {
      const approved = await value(skuOf(p), 'seoTitle');
      expect(typeof approved).toBe('string');
      await eventually(async () => (await seoTitle(p.gid)) === approved);
    }
    // Once the write-back's own update webhooks are synced, nothing disagrees.
    await eventually(async () => (await report()).findings.length === 0);

    // Behind the connector's back: a person renames a record in the catalog;
    expect(
      (
        await world.account.api.patch(`/v1/products/${skuOf(edited)}`, {
          product: { supplierSku: supplierSkuOf(edited), attributes: [{ key: 'name', value: 'Renamed' }] },
        })
      ).status,
    ).toBe(200);
    // a record is deleted;
    expect((await world.account.api.delete(`/v1/products/${skuOf(gone)}`)).status).toBe(200);
    // records with the shop's supplierSku name products nothing synced (a restored backup): a
    // simple one, and a product with options with its variant records;
    const adoptable = created(
      await world.account.api.post('/v1/products', productBody(supplierSkuOf(unsyncedSimple))),
    );
    const optionsParent = created(
      await world.account.api.post('/v1/products', productBody(supplierSkuOf(unsyncedOptions))),
    );
    const optionsVariants: string[] = [];
    for (const variantId of unsyncedOptions.variantIds) {
      optionsVariants.push(
        created(
          await world.account.api.post('/v1/variants', {
            parentSupplierSku: supplierSkuOf(unsyncedOptions),
            supplierSku: `${prefix}:variant:${variantId}`,
            attributes: [],
          }),
        ),
      );
    }
    // records nobody claims: a stranger's, one as linking leaves it (a SKU as supplierSku), and a
    // variant record keyed by a variant SKU under a claimed parent;
    const tag = `${Date.now()}`;
    const stranger = created(await world.account.api.post('/v1/products', productBody(`stranger-${tag}`)));
    const linked = created(await world.account.api.post('/v1/products', productBody(`LNK-${tag}`)));
    const variantSku = created(
      await world.account.api.post('/v1/variants', {
        parentSupplierSku: supplierSkuOf(missed),
        supplierSku: `LNK-${tag}-S`,
        attributes: [],
      }),
    );
    // a second record with a claimed supplierSku;
    const twin = created(await world.account.api.post('/v1/products', productBody(supplierSkuOf(edited))));
    // an update whose webhook is dropped; a merchant's edit of a written-back value, its webhook dropped;
    await dropped(missed, { title: 'Plain tee, renamed' });
    await dropped(merchantEdit, { metafields_global_title_tag: 'The merchant title' });
    // an approved value rejected in the portal, and no poll to see it.
    await portal('post', `/products/${skuOf(rejected)}/review`, { reject: ['seoTitle'] });

    const found = await report();
    expect(found.findings.map((f) => [f.kind, f.productId ?? f.skuId, f.repair])).toEqual(
      expect.arrayContaining([
        ['catalog-changed', edited.id, 'resync'],
        ['record-gone', gone.id, 'resync'],
        ['missed-webhook', missed.id, 'resync'],
        ['missed-webhook', merchantEdit.id, 'resync'],
        ['orphan', unsyncedSimple.id, 'adopt'],
        ['orphan', unsyncedOptions.id, 'adopt'],
        ['orphan', unsyncedOptions.id, 'adopt'],
        ['orphan', unsyncedOptions.id, 'adopt'],
        ['orphan', stranger, 'delete-record'],
        ['orphan', linked, 'delete-record'],
        ['orphan', variantSku, 'delete-record'],
        ['duplicate', twin, 'delete-record'],
        ['written-back-differs', merchantEdit.id, 'accept-merchant'],
        ['no-longer-approved', rejected.id, 'retract'],
      ]),
    );
    expect(found.findings).toHaveLength(14);
    const byKind = (kind: string) => found.findings.filter((f) => f.kind === kind);
    const orphans = byKind('orphan');
    expect(orphans.find((f) => f.productId === unsyncedSimple.id)?.skuId).toBe(adoptable);
    expect(
      orphans
        .filter((f) => f.productId === unsyncedOptions.id)
        .map((f) => [f.skuId, f.parentSkuId ?? null])
        .sort(),
    ).toEqual([[optionsParent, null], ...optionsVariants.map((v) => [v, optionsParent])].sort());
    expect(orphans.find((f) => f.skuId === variantSku)?.parentSkuId).toBe(skuOf(missed));
    expect(byKind('catalog-changed')[0]).toMatchObject({
      field: 'name',
      expected: 'Tee edited',
      found: 'Renamed',
    });
    expect(byKind('written-back-differs')[0]).toMatchObject({
      ownerId: merchantEdit.gid,
      field: 'seoTitle',
      target: 'seo.title',
      found: 'The merchant title',
      expected: await value(skuOf(merchantEdit), 'seoTitle'),
    });
    const rejectedTitle = await seoTitle(rejected.gid);
    expect(byKind('no-longer-approved')[0]).toMatchObject({
      ownerId: rejected.gid,
      field: 'seoTitle',
      target: 'seo.title',
      found: rejectedTitle,
      expected: null,
    });

    // The operator chooses. In shadow mode the written-back repairs are refused, saying why.
    const repair = async (body: unknown) => {
      const answer = await admin<{ repairs: Repair[] }>('POST', `/admin/drift/${found.id}/repairs`, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.repairs.map((r) => [r.kind, r.outcome, r.reason ?? '']);
    };
    const mode = (to: string) => admin('PUT', `/admin/shops/${world.shop.domain}/mode`, { mode: to });
    expect((await mode('shadow')).status).toBe(200);
    const shadow = 'the shop is in shadow mode: nothing is written to Shopify';
    expect(await repair({ kind: 'written-back-differs' })).toEqual([
      ['written-back-differs', 'refused', shadow],
    ]);
    expect(await repair({ kind: 'no-longer-approved' })).toEqual([['no-longer-approved', 'refused', shadow]]);
    expect((await mode('live')).status).toBe(200);
    // All of a kind, through the admin API and through the command line;
    expect(await repair({ kind: 'written-back-differs' })).toEqual([
      ['written-back-differs', 'accepted', ''],
    ]);
    const retract = await runCli(
      ['--url', connector.url, 'drift', 'repair', found.id, '--kind', 'no-longer-approved'],
      cliEnv,
    );
    expect(retract.code, retract.stderr).toBe(0);
    expect(retract.stdout).toMatch(/^#\d+ {2}no-longer-approved {2}retract {2}retracted$/m);
    expect(retract.stdout).toContain('1 finding chosen.');
    // one by id;
    const changed = byKind('catalog-changed')[0] as Finding;
    expect(await repair({ ids: [changed.id] })).toEqual([['catalog-changed', 'enqueued', '']]);
    // and a selection: the rest.
    const rest = found.findings.filter(
      (f) => !['catalog-changed', 'written-back-differs', 'no-longer-approved'].includes(f.kind),
    );
    expect((await repair({ ids: rest.map((f) => f.id) })).sort()).toEqual(
      [
        ['record-gone', 'enqueued', ''],
        ['missed-webhook', 'enqueued', ''],
        ['missed-webhook', 'enqueued', ''],
        ['orphan', 'adopted', ''],
        ['orphan', 'adopted', ''],
        ['orphan', 'adopted', ''],
        ['orphan', 'adopted', ''],
        ['orphan', 'deleted', ''],
        ['orphan', 'deleted', ''],
        ['orphan', 'deleted', ''],
        ['duplicate', 'deleted', ''],
      ].sort(),
    );
    // A finding repaired once is not repaired again.
    expect(await repair({ ids: [changed.id] })).toEqual([['catalog-changed', 'already-repaired', '']]);

    // The retracted value is out of Shopify (nothing was there before); the merchant's stays.
    expect(await seoTitle(rejected.gid)).toBeNull();
    expect(await seoTitle(merchantEdit.gid)).toBe('The merchant title');
    // The product status tells the write-back's side: the merchant's edit recorded as the
    // merchant's (a conflict kept), the rejected value retracted.
    const writeBacks = async (p: Product) =>
      (
        await admin<{
          writeBacks: Array<{ field: string; conflict: boolean; details: { purpose: string } }>;
        }>('GET', `/admin/products/${p.id}`)
      ).body.writeBacks ?? [];
    expect(await writeBacks(merchantEdit)).toContainEqual(
      expect.objectContaining({ field: 'seo.title', conflict: true }),
    );
    expect(
      (await writeBacks(rejected)).filter((w) => w.field === 'seo.title').map((w) => w.details.purpose),
    ).toContain('retract');
    // Each repair is in its product's timeline (the operator's product page).
    const login = await fetch(`${connector.url}/admin/ui/login`, {
      method: 'POST',
      body: new URLSearchParams({ token: world.adminToken }),
      redirect: 'manual',
    });
    expect(login.status).toBe(303);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const repairsOf = async (p: Product) => {
      const page = await fetch(`${connector.url}/admin/ui/products/${p.id}?shop=${world.shop.domain}`, {
        headers: { cookie },
      });
      expect(page.status).toBe(200);
      return [...(await page.text()).matchAll(/drift [\w-]+(?: \(\w+\))?: [\w-]+ [\w-]+/g)]
        .map((m) => m[0])
        .sort();
    };
    expect(await repairsOf(merchantEdit)).toEqual([
      'drift missed-webhook: resync enqueued',
      'drift written-back-differs (seoTitle): accept-merchant accepted',
    ]);
    expect(await repairsOf(rejected)).toEqual(['drift no-longer-approved (seoTitle): retract retracted']);
    expect(await repairsOf(edited)).toEqual(['drift catalog-changed (name): resync enqueued']);
    expect(await repairsOf(unsyncedSimple)).toEqual(['drift orphan: adopt adopted']);
    expect(await repairsOf(unsyncedOptions)).toEqual(Array(3).fill('drift orphan: adopt adopted'));
    // The deleted records are gone from the catalog.
    for (const skuId of [stranger, linked, twin]) {
      expect((await world.account.api.get(`/v1/products/${skuId}`)).status).toBe(404);
    }

    // Once the enqueued syncs (and the retraction's own update webhook) ran, a later report finds
    // nothing; each report compared with the previous one says which findings were resolved.
    const resolved = new Set<string>();
    const cleared = await eventually(async () => {
      const next = await report();
      for (const key of next.resolved) resolved.add(key);
      return next.findings.length === 0 && next;
    }, 60_000);
    expect(cleared.previousId).not.toBeNull();
    expect(found.findings.map((f) => f.key).filter((key) => !resolved.has(key))).toEqual([]);
    // The catalog has the connector's values back; the adopted products are claimed whole with
    // the records that were there (nothing created twice); the gone record was made again.
    expect(await value(skuOf(edited), 'name')).toBe('Tee edited');
    expect(await synced(unsyncedSimple)).toBe(adoptable);
    expect(await synced(unsyncedOptions)).toBe(optionsParent);
    const claimed = await admin<{ mapRows: Array<{ skuId: string }> }>(
      'GET',
      `/admin/products/${unsyncedOptions.id}`,
    );
    expect(claimed.body.mapRows.map((r) => r.skuId).sort()).toEqual(
      [optionsParent, ...optionsVariants].sort(),
    );
    expect(await synced(gone)).not.toBe(skuOf(gone));
    // The merchant's value stays theirs: no later sync or push wrote over it.
    expect(await seoTitle(merchantEdit.gid)).toBe('The merchant title');
  }, 120_000);
});
