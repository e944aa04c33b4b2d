import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { appConfig, DEFAULT_APP_CLIENT_ID } from '../src/apps/app-config.js';
import { tokenRequest } from './oauth-client.js';
import { WebhookReceiver } from './webhook-receiver.js';

const SECOND_APP = 'second-app';
const SECOND_SECRET = 'second-secret';

/** Apps, bulk operations and collections together: whose subscriptions, whose secret, which removal. */
describe('non-product webhook topics and the apps that subscribe to them', () => {
  let h: ShopifySandboxHarness;
  const receivers: WebhookReceiver[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    await h.close();
  });

  const receiver = async (secret: string, status = 200) => {
    const started = await WebhookReceiver.start(secret, () => ({ status }));
    receivers.push(started);
    return started;
  };
  /** Admin GraphQL with an app's token. */
  const graphql = async (token: string, query: string) => {
    const response = await fetch(`${h.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': token },
      body: JSON.stringify({ query }),
    });
    return (await response.json()) as { data?: Record<string, Record<string, unknown>> };
  };
  const subscribe = (token: string, topic: string, uri: string) =>
    graphql(
      token,
      `mutation { webhookSubscriptionCreate(topic: ${topic}, webhookSubscription: { uri: "${uri}" }) { userErrors { message } } }`,
    );
  const secondAppToken = async () => {
    const issued = await tokenRequest(h, {
      grant_type: 'client_credentials',
      client_id: SECOND_APP,
      client_secret: SECOND_SECRET,
    });
    return issued.body.access_token as string;
  };

  it("signs collections/* and bulk_operations/finish with the subscribing app's secret; bulk goes to the app that ran it", async () => {
    h = await startShopifySandbox({
      apps: [appConfig(DEFAULT_APP_CLIENT_ID, 'first-secret'), appConfig(SECOND_APP, SECOND_SECRET)],
      bulk: { stepMs: 1 },
    });
    const first = await receiver('first-secret');
    const second = await receiver(SECOND_SECRET);
    const token = await secondAppToken();
    await subscribe(h.accessToken, 'BULK_OPERATIONS_FINISH', `${first.url}/bulk`);
    await subscribe(token, 'BULK_OPERATIONS_FINISH', `${second.url}/bulk`);
    await subscribe(token, 'COLLECTIONS_CREATE', `${second.url}/collections`);

    await h.merchant('POST', 'custom_collections.json', { custom_collection: { title: 'Summer' } });
    const [collection] = await second.waitFor(1);
    expect(collection?.headers['x-shopify-topic']).toBe('collections/create');
    expect(collection?.validation.valid).toBe(true);

    const run = await graphql(
      token,
      'mutation { bulkOperationRunQuery(query: "{ products { edges { node { id } } } }") { bulkOperation { id } userErrors { message } } }',
    );
    const bulkId = (run.data?.bulkOperationRunQuery?.bulkOperation as { id: string } | undefined)?.id;
    expect(bulkId).toEqual(expect.any(String));
    const [, finish] = await second.waitFor(2);
    expect(finish?.headers['x-shopify-topic']).toBe('bulk_operations/finish');
    expect(finish?.validation.valid).toBe(true);
    expect(finish?.body).toMatchObject({ admin_graphql_api_id: bulkId, status: 'completed' });
    await h.sandbox.idle();
    expect(first.received).toEqual([]);
  });

  it('counts bulk runs per app and shop: the limit and currentBulkOperation ignore another app', async () => {
    h = await startShopifySandbox({
      clock: new ManualClock(),
      apps: [appConfig(DEFAULT_APP_CLIENT_ID, 'first-secret'), appConfig(SECOND_APP, SECOND_SECRET)],
      bulk: { maxConcurrentQueries: 1 },
    });
    const token = await secondAppToken();
    const run = async (as: string) => {
      const reply = await graphql(
        as,
        'mutation { bulkOperationRunQuery(query: "{ products { edges { node { id } } } }") { bulkOperation { id } userErrors { code } } }',
      );
      return reply.data?.bulkOperationRunQuery as {
        bulkOperation: { id: string } | null;
        userErrors: unknown[];
      };
    };
    const first = await run(h.accessToken);
    const second = await run(token);
    expect(second).toMatchObject({ bulkOperation: { id: expect.any(String) }, userErrors: [] });
    expect(await run(h.accessToken)).toMatchObject({
      bulkOperation: null,
      userErrors: [{ code: 'OPERATION_IN_PROGRESS' }],
    });
    const current = async (as: string) =>
      (await graphql(as, '{ currentBulkOperation { id } }')).data?.currentBulkOperation;
    expect(await current(h.accessToken)).toEqual({ id: first.bulkOperation?.id });
    expect(await current(token)).toEqual({ id: second.bulkOperation?.id });
  });

  it("uninstall deletes the app's bulk_operations/finish and collections/* subscriptions too", async () => {
    h = await startShopifySandbox();
    const target = await receiver(h.appSecret);
    await subscribe(h.accessToken, 'BULK_OPERATIONS_FINISH', `${target.url}/bulk`);
    await subscribe(h.accessToken, 'COLLECTIONS_UPDATE', `${target.url}/collections`);
    const uninstalled = await h.control('POST', `shops/${h.shopDomain}/uninstall`, {});
    expect(uninstalled.body.deletedWebhookSubscriptions).toBe(2);
    const shops = await h.control('GET', 'shops');
    expect(shops.body.shops).toEqual([expect.objectContaining({ webhookSubscriptions: 0 })]);
  });

  it('removes a failing collections/* subscription once a delivery failed every retry, as for products/*', async () => {
    h = await startShopifySandbox({ webhooks: { retryDelaysMs: [5, 5, 5] } });
    const failing = await receiver(h.appSecret, 500);
    await subscribe(h.accessToken, 'COLLECTIONS_CREATE', failing.url);
    for (const title of ['First', 'Second']) {
      await h.merchant('POST', 'custom_collections.json', { custom_collection: { title } });
      await h.sandbox.idle();
    }
    expect(failing.received).toHaveLength(4);
    const listed = await graphql(h.accessToken, '{ webhookSubscriptions(first: 5) { nodes { id } } }');
    expect(listed.data?.webhookSubscriptions?.nodes).toEqual([]);
    const [last] = (await h.deliveries({ topic: 'collections/create' })) as unknown as Array<{
      attempts: Array<{ error: string | null }>;
    }>;
    expect(last?.attempts.at(-1)?.error).toBe(
      'answered HTTP 500; subscription removed after a delivery failed every retry',
    );
  });
});
