import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type ConnectorProcess,
  type ConnectorWorld,
  eventually,
  runCli,
  startConnectorProcess,
  startConnectorWorld,
} from './support/connector-world.js';
import { type StackDriftReport, type StackProduct, StackShop } from './support/stack-shop.js';

// Issue 32's "done when" in real processes: the built connector (dist/) over both sandboxes, every
// kind of drift seeded behind its back through the sandboxes' APIs only (the catalog's /v1 and
// portal, the Shopify sandbox's Admin API and webhook faults): a catalog value a person changed, a
// dropped update webhook, a deleted record, orphans (records with the shop's supplierSku naming a
// product it never synced: a simple one and one with options, taken whole; the connector's own
// leftover of a product Shopify does not have, deleted; a stranger's; one as linking leaves it,
// a SKU as supplierSku; a variant record keyed by a variant SKU under a claimed parent: those
// three to review, never deleted), a duplicate supplierSku, a written-back value the merchant edited with its webhook
// dropped, and one the catalog rejected after approval with no poll to see it. One report finds
// each with its repair; the operator's chosen repairs (refused in shadow mode, then by kind, one
// by id, a selection; one through the command line) run, and a later report finds nothing.
describe('a connector process: drift of every kind, found and repaired', () => {
  let world: ConnectorWorld;
  let connector: ConnectorProcess;
  let cliEnv: Record<string, string>;
  let shop: StackShop;
  const schema = `drift_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  /** Products the merchant made before the connector subscribed: nothing synced them. */
  let unsyncedSimple: StackProduct;
  let unsyncedOptions: StackProduct;

  beforeAll(async () => {
    world = await startConnectorWorld();
    shop = new StackShop(world);
    unsyncedSimple = await shop.simple('Before the connector');
    unsyncedOptions = await shop.merchant('POST', 'products.json', {
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
    shop.connector = connector;
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
      ['edited', 'gone', 'missed', 'merchant', 'rejected'].map((t) => shop.simple(`Tee ${t}`)),
    );
    const [edited, gone, missed, merchantEdit, rejected] = made as [
      StackProduct,
      StackProduct,
      StackProduct,
      StackProduct,
      StackProduct,
    ];
    const sku = new Map<StackProduct, string>();
    for (const p of made) sku.set(p, await shop.synced(p));
    const skuOf = (p: StackProduct) => sku.get(p) as string;
    const supplierSkuOf = (p: StackProduct) => `${shop.prefix}:product:${p.id}`;

    // Two products get an approved SEO title (enriched in the portal), written back by a poll.
    await shop.enrichAndApprove([skuOf(merchantEdit), skuOf(rejected)], ['seoTitle']);
    await shop.poll();
    for (const p of [merchantEdit, rejected]) {
      const approved = await shop.value(skuOf(p), 'seoTitle');
      expect(typeof approved).toBe('string');
      await eventually(async () => (await shop.seoTitle(p.gid)) === approved);
    }
    // Once the write-back's own update webhooks are synced, nothing disagrees.
    await eventually(async () => (await shop.report()).findings.length === 0);

    // Behind the connector's back: a person renames a record in the catalog;
    const renamed = await world.account.api.patch(`/v1/products/${skuOf(edited)}`, {
      product: { supplierSku: supplierSkuOf(edited), attributes: [{ key: 'name', value: 'Renamed' }] },
    });
    expect(renamed.status).toBe(200);
    // a record is deleted;
    expect((await world.account.api.delete(`/v1/products/${skuOf(gone)}`)).status).toBe(200);
    // records with the shop's supplierSku name products nothing synced (a restored backup): a
    // simple one, and a product with options with its variant records;
    const adoptable = await shop.record(supplierSkuOf(unsyncedSimple));
    const optionsParent = await shop.record(supplierSkuOf(unsyncedOptions));
    const optionsVariants: string[] = [];
    for (const variantId of unsyncedOptions.variantIds) {
      optionsVariants.push(
        await shop.variantRecord(supplierSkuOf(unsyncedOptions), `${shop.prefix}:variant:${variantId}`),
      );
    }
    // the connector's own leftover: its derived supplierSku of a product Shopify does not have;
    const tag = `${Date.now()}`;
    const leftover = await shop.record(`${shop.prefix}:product:9${tag}`);
    // records nobody claims whose owner cannot be proven: a stranger's, one as linking leaves it
    // (a SKU as supplierSku), and a variant record keyed by a variant SKU under a claimed parent;
    const stranger = await shop.record(`stranger-${tag}`);
    const linked = await shop.record(`LNK-${tag}`);
    const variantSku = await shop.variantRecord(supplierSkuOf(missed), `LNK-${tag}-S`);
    // a second record with a claimed supplierSku;
    const twin = await shop.record(supplierSkuOf(edited));
    // an update whose webhook is dropped; a merchant's edit of a written-back value, its webhook dropped;
    await shop.unseenEdit(missed, { title: 'Plain tee, renamed' });
    await shop.unseenEdit(merchantEdit, { metafields_global_title_tag: 'The merchant title' });
    // an approved value rejected in the portal, and no poll to see it.
    await shop.portal('post', `/products/${skuOf(rejected)}/review`, { reject: ['seoTitle'] });

    const found = await shop.report();
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
        ['orphan', leftover, 'delete-record'],
        ['orphan', stranger, 'review'],
        ['orphan', linked, 'review'],
        ['orphan', variantSku, 'review'],
        ['duplicate', twin, 'delete-record'],
        ['written-back-differs', merchantEdit.id, 'accept-merchant'],
        ['no-longer-approved', rejected.id, 'retract'],
      ]),
    );
    expect(found.findings).toHaveLength(15);
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
      expected: await shop.value(skuOf(merchantEdit), 'seoTitle'),
    });
    expect(byKind('no-longer-approved')[0]).toMatchObject({
      ownerId: rejected.gid,
      field: 'seoTitle',
      target: 'seo.title',
      found: await shop.seoTitle(rejected.gid),
      expected: null,
    });

    // The operator chooses. In shadow mode the written-back repairs are refused, saying why.
    const repair = async (body: unknown) => {
      const answer = await shop.admin<{ repairs: Array<{ kind: string; outcome: string; reason?: string }> }>(
        'POST',
        `/admin/drift/${found.id}/repairs`,
        body,
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.repairs.map((r) => [r.kind, r.outcome, r.reason ?? '']);
    };
    const mode = (to: string) => shop.admin('PUT', `/admin/shops/${world.shop.domain}/mode`, { mode: to });
    expect((await mode('shadow')).status).toBe(200);
    const shadow = 'the shop is in shadow mode: nothing is written to Shopify';
    expect(await repair({ kind: 'written-back-differs' })).toEqual([
      ['written-back-differs', 'refused', shadow],
    ]);
    expect(await repair({ kind: 'no-longer-approved' })).toEqual([['no-longer-approved', 'refused', shadow]]);
    // and so is every catalog delete.
    expect(await repair({ kind: 'duplicate' })).toEqual([
      ['duplicate', 'refused', 'the shop is in shadow mode: nothing is deleted from the catalog'],
    ]);
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
    const changed = byKind('catalog-changed')[0] as StackDriftReport['findings'][number];
    expect(await repair({ ids: [changed.id] })).toEqual([['catalog-changed', 'enqueued', '']]);
    // and a selection: the rest.
    const rest = found.findings.filter(
      (f) => !['catalog-changed', 'written-back-differs', 'no-longer-approved'].includes(f.kind),
    );
    const unproven = (reason: string) =>
      reason.replace(/^the connector cannot prove it owns record (\S+) .*$/, 'cannot prove $1');
    const restDone = await repair({ ids: rest.map((f) => f.id) });
    expect(
      restDone.map(([kind, outcome, reason]) => [kind, outcome, unproven(reason as string)]).sort(),
    ).toEqual(
      [
        ['record-gone', 'enqueued', ''],
        ['missed-webhook', 'enqueued', ''],
        ['missed-webhook', 'enqueued', ''],
        ...Array(4).fill(['orphan', 'adopted', '']),
        ['orphan', 'deleted', ''],
        ...[stranger, linked, variantSku].map((skuId) => ['orphan', 'refused', `cannot prove ${skuId}`]),
        ['duplicate', 'deleted', ''],
      ].sort(),
    );
    // A finding repaired once is not repaired again.
    expect(await repair({ ids: [changed.id] })).toEqual([['catalog-changed', 'already-repaired', '']]);

    // The retracted value is out of Shopify (nothing was there before); the merchant's stays,
    // recorded as the merchant's (a conflict kept).
    expect(await shop.seoTitle(rejected.gid)).toBeNull();
    expect(await shop.seoTitle(merchantEdit.gid)).toBe('The merchant title');
    expect(await shop.writeBacks(merchantEdit)).toContainEqual(
      expect.objectContaining({ field: 'seo.title', conflict: true }),
    );
    const rejectedPurposes = (await shop.writeBacks(rejected))
      .filter((w) => w.field === 'seo.title')
      .map((w) => w.details.purpose);
    expect(rejectedPurposes).toContain('retract');
    // Each repair is in its product's timeline (the operator's product page).
    expect(await shop.timelineRepairs(merchantEdit)).toEqual([
      'drift missed-webhook: resync enqueued',
      'drift written-back-differs (seoTitle): accept-merchant accepted',
    ]);
    expect(await shop.timelineRepairs(rejected)).toEqual([
      'drift no-longer-approved (seoTitle): retract retracted',
    ]);
    expect(await shop.timelineRepairs(edited)).toEqual(['drift catalog-changed (name): resync enqueued']);
    expect(await shop.timelineRepairs(unsyncedSimple)).toEqual(['drift orphan: adopt adopted']);
    expect(await shop.timelineRepairs(unsyncedOptions)).toEqual(Array(3).fill('drift orphan: adopt adopted'));
    // The deleted records are gone from the catalog; the ones to review are still there.
    for (const skuId of [leftover, twin]) {
      expect((await world.account.api.get(`/v1/products/${skuId}`)).status).toBe(404);
    }
    for (const skuId of [stranger, linked]) {
      expect((await world.account.api.get(`/v1/products/${skuId}`)).status).toBe(200);
    }
    expect((await world.account.api.get(`/v1/variants/${variantSku}`)).status).toBe(200);
    const toReview = [stranger, linked, variantSku].map((skuId) => `orphan:${skuId}`).sort();

    // Once the enqueued syncs (and the retraction's own update webhook) ran, a later report finds
    // nothing but the records to review; each report compared with the previous one says which
    // findings were resolved.
    const resolved = new Set<string>();
    const cleared = await eventually(async () => {
      const next = await shop.report();
      for (const key of next.resolved) resolved.add(key);
      const keys = next.findings.map((f) => f.key).sort();
      return JSON.stringify(keys) === JSON.stringify(toReview) && next;
    }, 60_000);
    expect(cleared.previousId).not.toBeNull();
    expect(
      found.findings
        .map((f) => f.key)
        .filter((key) => !resolved.has(key))
        .sort(),
    ).toEqual(toReview);
    // The catalog has the connector's values back; the adopted products are claimed whole with
    // the records that were there (nothing created twice); the gone record was made again.
    expect(await shop.value(skuOf(edited), 'name')).toBe('Tee edited');
    expect(await shop.synced(unsyncedSimple)).toBe(adoptable);
    expect(await shop.synced(unsyncedOptions)).toBe(optionsParent);
    expect((await shop.mapRows(unsyncedOptions)).map((r) => r.skuId).sort()).toEqual(
      [optionsParent, ...optionsVariants].sort(),
    );
    expect(await shop.synced(gone)).not.toBe(skuOf(gone));
    // The merchant's value stays theirs: no later sync or push wrote over it.
    expect(await shop.seoTitle(merchantEdit.gid)).toBe('The merchant title');
  }, 120_000);
});
