import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productBody } from '#testing/catalog-sandbox';
import { DriftService } from '../src/drift/drift.service.js';
import type { DriftReportDto } from '../src/drift/drift-report.dto.js';
import type { DriftReportListDto } from '../src/drift/drift-report-list.dto.js';
import { DriftReportsRepository } from '../src/drift/store/drift-reports.repository.js';
import { ProductTimeline } from '../src/operations/admin/product-timeline.service.js';
import { runCli } from '../src/operations/cli/connector-cli.js';
import { call } from './support/admin-client.js';
import { eventually } from './support/connector-harness.js';
import { attribute as attributeOf, type SyncWorld, startSyncWorld } from './support/sync-world.js';

// The drift report end to end over both sandboxes: products synced through webhooks, then the
// three sides made to disagree behind the connector's back (a person's catalog edit, a deleted
// record, a record nobody claims, a second record with a mapped supplierSku, a dropped update
// webhook); one report finds each, with its
// repair, in one catalog search (a small account), and a second report compares with it.
describe('drift report', () => {
  let world: SyncWorld;
  const token = `admin-${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    world = await startSyncWorld({ env: { CONNECTOR_ADMIN_TOKEN: token } });
  });
  afterAll(async () => {
    await world?.close();
  });

  const liveSku = async (productId: string) =>
    eventually(async () => {
      const row = (await world.mapRows(productId)).find((r) => r.shopify_variant_id === null);
      return row?.state === 'live' && row.sku_id !== null && (row.sku_id as string);
    }, 30_000);

  it('finds catalog edits, gone records, orphans, duplicates and missed webhooks; the chosen repairs clear them', async () => {
    const edited = await world.createProduct({ title: 'Linen Apron', vendor: 'Acme' });
    const gone = await world.createProduct({ title: 'Oak Board', vendor: 'Acme' });
    const missed = await world.createProduct({ title: 'Wool Throw', vendor: 'Acme' });
    for (const id of [edited, gone, missed]) await world.settle(id);
    const [editedSku, goneSku] = [await liveSku(edited), await liveSku(gone)];
    await liveSku(missed);

    const service = world.harness.connector.app.get(DriftService);
    const clean = await service.report(world.shop.domain);
    expect(Object.values(clean.report.counts).reduce((a, b) => a + b, 0)).toBe(0);

    // A person renames a record in the catalog; another record is deleted there; a record
    // nobody's map claims is created; an update's webhook is dropped.
    expect(
      (
        await world.account.api.patch(`/v1/products/${editedSku}`, {
          product: {
            supplierSku: (await world.catalogRecord(editedSku))?.supplierSku,
            attributes: [{ key: 'name', value: 'Apron (edited)' }],
          },
        })
      ).status,
    ).toBe(200);
    expect((await world.account.api.delete(`/v1/products/${goneSku}`)).status).toBe(200);
    // The connector's own leftover (its derived supplierSku for a product Shopify does not have),
    // and a record of someone else's (a foreign supplierSku): only the first may be deleted.
    const handle = world.shop.domain.replace(/\.myshopify\.com$/, '');
    const stray = await world.account.api.post(
      '/v1/products',
      productBody(`${handle}:product:9${Date.now()}`),
    );
    expect(stray.status).toBeLessThan(300);
    const straySku = (stray.body as { data: { skuId: string } }).data.skuId;
    const foreign = await world.account.api.post('/v1/products', productBody(`stray-${Date.now()}`));
    expect(foreign.status).toBeLessThan(300);
    const foreignSku = (foreign.body as { data: { skuId: string } }).data.skuId;
    const editedSupplierSku = (await world.catalogRecord(editedSku))?.supplierSku as string;
    const twin = await world.account.api.post('/v1/products', productBody(editedSupplierSku));
    expect(twin.status).toBeLessThan(300);
    const twinSku = (twin.body as { data: { skuId: string } }).data.skuId;
    // Shopify's updatedAt counts whole seconds: the dropped update comes a second after the sync.
    const syncedAt = Date.now();
    await eventually(async () => Math.floor(Date.now() / 1000) > Math.floor(syncedAt / 1000));
    await world.sandboxes.shopify.control('PUT', `shops/${world.shop.domain}/delivery-faults`, { drop: 1 });
    await world.updateProduct(missed, { title: 'Wool Throw XL' });
    await world.sandboxes.shopify.sandbox.idle();

    const since = Date.now();
    const drift = await service.report(world.shop.domain);
    const searches = (await world.catalogCalls(since)).filter((c) => c.path.includes('/search'));
    expect(drift.report.catalogSearches).toBe(1);
    expect(searches.length).toBe(1);

    const findings = await world.harness.connector.app
      .get(DriftReportsRepository)
      .findingsOf(drift.report.id);
    const seen = findings.map((f) => [f.kind, f.finding.productId ?? f.finding.skuId, f.finding.repair]);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['catalog-changed', edited, 'resync'],
        ['record-gone', gone, 'resync'],
        ['missed-webhook', missed, 'resync'],
        ['orphan', straySku, 'delete-record'],
        ['orphan', foreignSku, 'review'],
        ['duplicate', twinSku, 'delete-record'],
      ]),
    );
    expect(findings.find((f) => f.kind === 'catalog-changed')?.finding).toMatchObject({
      field: 'name',
      expected: 'Linen Apron',
      found: 'Apron (edited)',
    });
    expect([drift.new, drift.stillOpen, drift.resolved]).toEqual([findings.length, 0, 0]);

    // The admin API: a report run now, compared with the last; and a report read back.
    const again = await call<DriftReportDto>(
      world.harness.url,
      'POST',
      `/admin/shops/${world.shop.domain}/drift`,
      token,
    );
    expect(again.status).toBe(200);
    expect([again.body.new, again.body.stillOpen, again.body.resolved]).toEqual([0, findings.length, []]);
    expect(again.body.previousId).toBe(drift.report.id);
    const shown = await call<DriftReportDto>(
      world.harness.url,
      'GET',
      `/admin/drift/${again.body.id}`,
      token,
    );
    expect(shown.body.findings.map((f) => f.key).sort()).toEqual(findings.map((f) => f.key).sort());
    // The stored reports, newest first: over HTTP and from the command line (`drift list`).
    const listed = await call<DriftReportListDto>(
      world.harness.url,
      'GET',
      `/admin/drift?shop=${world.shop.domain}&limit=1`,
      token,
    );
    expect(listed.body.items.map((r) => r.id)).toEqual([again.body.id]);
    expect(listed.body.items[0]).toMatchObject({ shop: world.shop.domain, findings: findings.length });
    expect((await call(world.harness.url, 'GET', '/admin/drift?limit=0', token)).status).toBe(400);
    const printed: string[] = [];
    const out = {
      line: (t = '') => printed.push(t),
      warn: (t: string) => printed.push(t),
      progress: process.stderr,
    };
    const code = await runCli(
      ['--url', world.harness.url, 'drift', 'list', world.shop.domain],
      { CONNECTOR_ADMIN_TOKEN: token },
      out,
    );
    expect(code, printed.join('\n')).toBe(0);
    expect(printed[0]).toMatch(
      new RegExp(
        `^${again.body.id}  \\S+  ${world.shop.domain.replaceAll('.', '\\.')}  ${findings.length} findings? \\(`,
      ),
    );
    expect(printed[1]).toMatch(new RegExp(`^${drift.report.id}  `));
    expect(
      (await call(world.harness.url, 'POST', '/admin/shops/nowhere.myshopify.com/drift', token)).status,
    ).toBe(404);
    expect((await call(world.harness.url, 'GET', '/admin/drift/999999999', token)).status).toBe(404);
    expect((await call(world.harness.url, 'GET', `/admin/drift/${again.body.id}`)).status).toBe(401);

    // The operator repairs every finding (by id); a later report finds none of them.
    const chosen = { ids: shown.body.findings.map((f) => f.id) };
    const repaired = await call<{ repairs: Array<{ kind: string; outcome: string }> }>(
      world.harness.url,
      'POST',
      `/admin/drift/${again.body.id}/repairs`,
      token,
      chosen,
    );
    expect(repaired.status).toBe(200);
    expect(repaired.body.repairs.map((r) => [r.kind, r.outcome]).sort()).toEqual(
      [
        ['catalog-changed', 'enqueued'],
        ['missed-webhook', 'enqueued'],
        ['orphan', 'deleted'],
        ['orphan', 'refused'],
        ['duplicate', 'deleted'],
        ['record-gone', 'enqueued'],
      ].sort(),
    );
    expect(
      repaired.body.repairs.find((r) => r.outcome === 'refused') as unknown as { reason: string },
    ).toMatchObject({ reason: expect.stringContaining('cannot prove it owns record') });
    expect(await world.catalogRecord(foreignSku)).not.toBeNull();
    // Each repair is in its product's timeline.
    const timeline = world.harness.connector.app.get(ProductTimeline);
    const repairsOf = async (productId: string) =>
      (await timeline.events(world.shop.domain, productId))
        .filter((e) => e.kind === 'drift-repair')
        .map((e) => e.summary);
    expect(await repairsOf(edited)).toEqual(['drift catalog-changed (name): resync enqueued']);
    expect(await repairsOf(gone)).toEqual(['drift record-gone: resync enqueued']);
    expect(await repairsOf(missed)).toEqual(['drift missed-webhook: resync enqueued']);
    // The catalog edit undone, the missed change synced, the gone record recreated, the orphan
    // deleted: none of them in a later report (the foreign record stays, to look at).
    const fixed = findings.map((f) => f.key).filter((key) => key !== `orphan:${foreignSku}`);
    const cleared = await eventually(async () => {
      const next = await service.report(world.shop.domain);
      const keys = (
        await world.harness.connector.app.get(DriftReportsRepository).findingsOf(next.report.id)
      ).map((f) => f.key);
      return fixed.every((key) => !keys.includes(key)) && { ...next, keys };
    }, 30_000);
    expect(cleared.keys).toEqual([`orphan:${foreignSku}`]);
    expect(attributeOf(await world.catalogRecord(editedSku), 'name')).toBe('Linen Apron');
    expect(cleared.report.counts['catalog-changed']).toBe(0);
    expect(cleared.report.counts.orphan).toBe(1);
    expect(await world.catalogRecord(straySku)).toBeNull();
    expect(cleared.report.counts.duplicate).toBe(0);
    expect(await world.catalogRecord(twinSku)).toBeNull();
    expect(cleared.report.counts['record-gone']).toBe(0);
    expect(cleared.report.counts['missed-webhook']).toBe(0);
  });
});
