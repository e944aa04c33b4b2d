import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CollectionWalker } from '../src/index.js';
import { eventually } from './support/connector-harness.js';
import { type MapRow, type SyncWorld, startSyncWorld } from './support/sync-world.js';

const product = (title: string, tags: string) => ({
  title,
  vendor: 'Acme',
  product_type: 'Shirts',
  tags,
  variants: [{ price: '10.00' }],
});

const liveRow = (world: SyncWorld, productId: string) =>
  eventually(async () => {
    const [row] = await world.mapRows(productId);
    return row?.state === 'live' && row;
  }, 30_000);

/** Waits for a finished sync run of the product whose detail says it is out of scope. */
const outOfScope = (world: SyncWorld, productId: string) =>
  eventually(async () => {
    const runs = await world.syncRecords(productId);
    return runs.find((r) => r.detail?.includes('out of scope')) ?? false;
  }, 30_000);

/** Waits for the product's sync run of reason `scope` that synced it (the record follows the map row). */
const scopeRun = (world: SyncWorld, productId: string) =>
  eventually(async () => {
    const runs = await world.syncRecords(productId);
    return runs.find((r) => r.reason === 'scope' && r.outcome === 'synced') ?? false;
  }, 30_000);

const withScope = (scope: string) => (yaml: string) => `${yaml.trimEnd()}\nscope:\n${scope}`;

// A scope by tag (issue 30): exactly the tagged products sync; a product losing the tag, or left
// out by a scope changed across a restart, follows the leaving policy (here `delete`).
describe('a product scope by tag', () => {
  let world: SyncWorld;

  beforeAll(async () => {
    world = await startSyncWorld({
      env: { CONNECTOR_SYNC_LEAVING_STATUSES: 'delete' },
      mapping: withScope('  tags: [enrich]\n'),
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('syncs exactly the tagged products, and deletes the records of one whose tag is removed', async () => {
    const tagged = await world.createProduct(product('Tagged Tee', 'enrich, sale'));
    const plain = await world.createProduct(product('Plain Tee', 'sale'));
    const row = (await liveRow(world, tagged)) as MapRow;
    const run = await outOfScope(world, plain);
    expect(run.detail).toContain('no tag of the scope (enrich)');
    await world.settle(plain);
    expect(await world.mapRows(plain)).toEqual([]);

    await world.settle(tagged);
    await world.updateProduct(tagged, { tags: 'sale' });
    await eventually(async () => (await world.catalogRecord(row.sku_id as string)) === null, 30_000);
    await eventually(async () => (await world.mapRows(tagged)).length === 0);
  });

  it('at a restart with another scope, syncs the products entering it and applies the policy to those leaving', async () => {
    const staying = await world.createProduct(product('Staying Tee', 'enrich, keep'));
    const leaving = await world.createProduct(product('Leaving Tee', 'enrich'));
    const entering = await world.createProduct(product('Entering Tee', 'new'));
    const stayingRow = (await liveRow(world, staying)) as MapRow;
    const leavingRow = (await liveRow(world, leaving)) as MapRow;
    await outOfScope(world, entering);
    for (const id of [staying, leaving, entering]) await world.settle(id);

    // No product changes, only the scope: the entering one is found by a search, the leaving one
    // comes from the sku map.
    await world.restart((yaml) => yaml.replace(/^scope:\n[\s\S]*$/m, 'scope:\n  tags: [new, keep]\n'));
    const enteringRow = (await liveRow(world, entering)) as MapRow;
    await scopeRun(world, entering);
    await eventually(async () => (await world.catalogRecord(leavingRow.sku_id as string)) === null, 30_000);
    await eventually(async () => (await world.mapRows(leaving)).length === 0);
    expect((await world.mapRows(staying))[0]?.sku_id).toBe(stayingRow.sku_id);
    expect(await world.catalogRecord(stayingRow.sku_id as string)).not.toBeNull();
    expect(await world.catalogRecord(enteringRow.sku_id as string)).not.toBeNull();
  });
});

// A scope by collection: putting a product in or out of a collection changes no product (no
// products/update); the collection's deliveries ask for a walk, and the scheduled walk catches
// what no delivery said.
describe('a product scope by collection', () => {
  let world: SyncWorld;

  beforeAll(async () => {
    world = await startSyncWorld({
      env: { CONNECTOR_SYNC_LEAVING_STATUSES: 'delete' },
      mapping: withScope('  collections: [summer]\n'),
      subscriptions: 7,
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  const collect = async (collectionId: number, productId: string) => {
    const added = await world.sandboxes.merchant(world.shop, 'POST', 'collects.json', {
      collect: { product_id: Number(productId), collection_id: collectionId },
    });
    expect(added.status).toBe(201);
    return (added.body.collect as { id: number }).id;
  };

  it('follows membership changes the collection webhooks report', async () => {
    const created = await world.sandboxes.merchant(world.shop, 'POST', 'custom_collections.json', {
      custom_collection: { title: 'Summer' },
    });
    const summer = (created.body.custom_collection as { id: number }).id;
    const productId = await world.createProduct(product('Beach Towel', ''));
    await outOfScope(world, productId);
    await world.settle(productId);
    const updatedAt = (await world.updateProduct(productId, {})).updated_at;

    const collectId = await collect(summer, productId);
    const row = (await liveRow(world, productId)) as MapRow;
    await scopeRun(world, productId);

    const removed = await world.sandboxes.merchant(world.shop, 'DELETE', `collects/${collectId}.json`);
    expect(removed.status).toBe(200);
    await eventually(async () => (await world.catalogRecord(row.sku_id as string)) === null, 30_000);
    await eventually(async () => (await world.mapRows(productId)).length === 0);
    // The product itself never changed.
    const read = await world.sandboxes.merchant(world.shop, 'GET', `products/${productId}.json`);
    expect((read.body.product as { updated_at: string }).updated_at).toBe(updatedAt);
  });

  it('catches, by the walk the schedule runs, a membership change no delivery reported', async () => {
    const found = await world.sandboxes.merchant(world.shop, 'GET', 'custom_collections.json');
    const summer = (found.body.custom_collections as Array<{ id: number; handle: string }>).find(
      (c) => c.handle === 'summer',
    )?.id as number;
    const productId = await world.createProduct(product('Sun Hat', ''));
    await outOfScope(world, productId);
    await world.settle(productId);
    // The collection deliveries stop reaching the connector.
    for (const topic of ['COLLECTIONS_CREATE', 'COLLECTIONS_UPDATE', 'COLLECTIONS_DELETE']) {
      const listed = await graphql(
        world,
        `query($t: [WebhookSubscriptionTopic!]) { webhookSubscriptions(first: 5, topics: $t) { nodes { id } } }`,
        { t: [topic] },
      );
      for (const { id } of (listed as WebhookList).data.webhookSubscriptions.nodes)
        await graphql(
          world,
          'mutation($id: ID!) { webhookSubscriptionDelete(id: $id) { deletedWebhookSubscriptionId } }',
          { id },
        );
    }
    expect(await world.sandboxes.subscriptions(world.shop)).toHaveLength(4);
    await collect(summer, productId);
    await world.sandboxes.shopify.sandbox.idle();
    expect(await world.mapRows(productId)).toEqual([]);

    const walks = await world.harness.connector.app.get(CollectionWalker).walkAll();
    expect(walks).toEqual([{ shop: world.shop.domain, collections: 1, enqueued: [productId] }]);
    await liveRow(world, productId);
  });
});

/** Admin GraphQL as the test's shop. */
async function graphql(
  world: SyncWorld,
  query: string,
  variables: Record<string, unknown>,
): Promise<unknown> {
  const response = await fetch(`${world.sandboxes.shopify.adminUrl}/graphql.json`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': world.shop.accessToken },
    body: JSON.stringify({ query, variables }),
  });
  return response.json();
}

interface WebhookList {
  data: { webhookSubscriptions: { nodes: Array<{ id: string }> } };
}

// A scope by a metafield flag: the product's metafield is read (one small query) only for the
// scope, and only products whose flag holds the value sync.
describe('a product scope by metafield', () => {
  let world: SyncWorld;

  beforeAll(async () => {
    world = await startSyncWorld({
      mapping: withScope('  metafield: { namespace: custom, key: enrich, value: true }\n'),
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('syncs the products whose metafield holds the value, and no other', async () => {
    const flagged = await world.createProduct(product('Flagged Mug', ''));
    const other = await world.createProduct(product('Other Mug', ''));
    await outOfScope(world, flagged);
    const set = (await graphql(
      world,
      `mutation($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { userErrors { message } } }`,
      {
        m: [
          {
            ownerId: `gid://shopify/Product/${flagged}`,
            namespace: 'custom',
            key: 'enrich',
            type: 'boolean',
            value: 'true',
          },
        ],
      },
    )) as { data: { metafieldsSet: { userErrors: unknown[] } } };
    expect(set.data.metafieldsSet.userErrors).toEqual([]);
    await world.updateProduct(flagged, { title: 'Flagged Mug 2' });
    await liveRow(world, flagged);
    const run = await outOfScope(world, other);
    expect(run.detail).toContain('metafield custom.enrich is not "true"');
    expect(await world.mapRows(other)).toEqual([]);
  });
});
