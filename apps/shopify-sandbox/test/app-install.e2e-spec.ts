import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { appConfig } from '../src/apps/app-config.js';
import { adminStatus, tokenRequest } from './oauth-client.js';
import { WebhookReceiver } from './webhook-receiver.js';

const CLIENT_ID = 'sandbox-app-client-id';

interface LoggedDelivery {
  topic: string;
  uri: string;
  state: string;
  subscriptionId: string;
  productId: number | null;
  payload: Record<string, unknown>;
}

describe('installing and uninstalling an app', () => {
  let h: ShopifySandboxHarness;
  let receiver: WebhookReceiver;
  afterEach(async () => {
    await receiver.close();
    await h.close();
  });

  const subscribe = (topic: string, path: string) =>
    h.graphql<{ webhookSubscriptionCreate: { webhookSubscription: { id: string } | null } }>(
      `mutation { webhookSubscriptionCreate(topic: ${topic}, webhookSubscription: { uri: "${receiver.url}${path}" }) { webhookSubscription { id } userErrors { message } } }`,
    );
  const logged = async (topic: string) => {
    await h.sandbox.idle();
    return (await h.deliveries({ topic })) as unknown as LoggedDelivery[];
  };

  it('uninstall revokes every token at once, sends app/uninstalled, deletes the subscriptions, and shop/redact 48 hours later', async () => {
    const clock = new ManualClock(Date.now());
    h = await startShopifySandbox({ clock });
    receiver = await WebhookReceiver.start(h.appSecret);
    await h.control('PUT', `apps/${CLIENT_ID}`, {
      complianceUrls: { shopRedact: `${receiver.url}/shop-redact` },
    });
    await subscribe('APP_UNINSTALLED', '/uninstalled');
    await subscribe('PRODUCTS_UPDATE', '/products');
    const issued = await tokenRequest(h, {
      grant_type: 'client_credentials',
      client_id: CLIENT_ID,
      client_secret: h.appSecret,
    });
    const token = issued.body.access_token as string;

    const uninstalled = await h.control('POST', `shops/${h.shopDomain}/uninstall`, { clientId: CLIENT_ID });
    expect(uninstalled.body).toEqual({
      clientId: CLIENT_ID,
      installed: false,
      deletedWebhookSubscriptions: 2,
    });
    expect(await adminStatus(h, token)).toBe(401);
    expect(await adminStatus(h, h.accessToken)).toBe(401);

    const [notice] = await receiver.waitFor(1);
    expect(notice?.headers['x-shopify-topic']).toBe('app/uninstalled');
    expect(notice?.validation.valid).toBe(true);
    expect(notice?.body).toMatchObject({ myshopify_domain: h.shopDomain, domain: h.shopDomain });
    const [delivery] = await logged('app/uninstalled');
    expect(delivery).toMatchObject({
      state: 'delivered',
      productId: null,
      uri: `${receiver.url}/uninstalled`,
    });
    const shops = await h.control('GET', 'shops');
    expect(shops.body.shops).toEqual([
      expect.objectContaining({ domain: h.shopDomain, webhookSubscriptions: 0 }),
    ]);

    await clock.advance(47 * 3_600_000);
    expect(await logged('shop/redact')).toEqual([]);
    await clock.advance(3_600_000);
    const [redact] = await receiver.waitFor(2).then((all) => all.slice(1));
    expect(redact?.headers['x-shopify-topic']).toBe('shop/redact');
    expect(redact?.validation.valid).toBe(true);
    expect(redact?.body).toEqual({ shop_id: expect.any(Number), shop_domain: h.shopDomain });
  });

  it('install gives new credentials; the old ones stay dead', async () => {
    h = await startShopifySandbox();
    receiver = await WebhookReceiver.start(h.appSecret);
    expect((await h.control('POST', `shops/${h.shopDomain}/install`, {})).status).toBe(409);
    await h.control('POST', `shops/${h.shopDomain}/uninstall`, {});
    expect((await h.control('POST', `shops/${h.shopDomain}/uninstall`, {})).status).toBe(409);
    const installed = await h.control('POST', `shops/${h.shopDomain}/install`, {});
    expect(installed.body).toMatchObject({
      clientId: CLIENT_ID,
      installed: true,
      accessToken: expect.any(String),
    });
    expect(await adminStatus(h, installed.body.accessToken as string)).toBe(200);
    expect(await adminStatus(h, h.accessToken)).toBe(401);
    const credentials = {
      grant_type: 'client_credentials',
      client_id: CLIENT_ID,
      client_secret: h.appSecret,
    };
    expect((await tokenRequest(h, credentials)).status).toBe(200);
  });

  it("sends the customer compliance requests to the app's compliance URLs, signed with its secret", async () => {
    h = await startShopifySandbox();
    receiver = await WebhookReceiver.start(h.appSecret);
    const noUrl = await h.control('POST', `shops/${h.shopDomain}/compliance/customers-redact`, {});
    expect(noUrl.body).toEqual({ delivery: null });
    await h.control('PUT', `apps/${CLIENT_ID}`, {
      complianceUrls: {
        customersDataRequest: `${receiver.url}/data-request`,
        customersRedact: `${receiver.url}/redact`,
      },
    });
    const customer = { id: 191167, email: 'john@example.com', phone: '555-625-1199' };
    await h.control('POST', `shops/${h.shopDomain}/compliance/customers-data-request`, {
      customer,
      orders: [299938],
    });
    await h.control('POST', `shops/${h.shopDomain}/compliance/customers-redact`, {
      customer,
      orders: [299938],
    });
    const received = await receiver.waitFor(2);
    const byTopic = Object.fromEntries(received.map((w) => [w.headers['x-shopify-topic'], w]));
    expect(byTopic['customers/data_request']?.body).toEqual({
      shop_id: expect.any(Number),
      shop_domain: h.shopDomain,
      orders_requested: [299938],
      customer,
      data_request: { id: expect.any(Number) },
    });
    expect(byTopic['customers/redact']?.body).toEqual({
      shop_id: expect.any(Number),
      shop_domain: h.shopDomain,
      customer,
      orders_to_redact: [299938],
    });
    expect(received.every((w) => w.validation.valid)).toBe(true);
  });

  it("keeps each app's subscriptions its own: signed with its secret, kept when another app is uninstalled", async () => {
    h = await startShopifySandbox({
      apps: [appConfig(CLIENT_ID, 'unused'), appConfig('second-app', 'second-secret', 'organization')],
    });
    receiver = await WebhookReceiver.start('second-secret');
    const issued = await tokenRequest(h, {
      grant_type: 'client_credentials',
      client_id: 'second-app',
      client_secret: 'second-secret',
    });
    const created = await fetch(`${h.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Shopify-Access-Token': issued.body.access_token as string,
      },
      body: JSON.stringify({
        query: `mutation { webhookSubscriptionCreate(topic: PRODUCTS_CREATE, webhookSubscription: { uri: "${receiver.url}" }) { userErrors { message } } }`,
      }),
    });
    expect(created.status).toBe(200);
    await created.arrayBuffer();
    const uninstalled = await h.control('POST', `shops/${h.shopDomain}/uninstall`, {});
    expect(uninstalled.body.deletedWebhookSubscriptions).toBe(0);
    const installed = await h.control('POST', `shops/${h.shopDomain}/install`, {});
    const token = installed.body.accessToken as string;
    const product = await fetch(`${h.adminUrl}/products.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': token },
      body: JSON.stringify({ product: { title: 'Signed by the second app' } }),
    });
    expect(product.status).toBe(201);
    const [webhook] = await receiver.waitFor(1);
    expect(webhook?.headers['x-shopify-topic']).toBe('products/create');
    expect(webhook?.validation.valid).toBe(true);
  });

  it('refuses a compliance topic in webhookSubscriptionCreate, as Shopify does', async () => {
    h = await startShopifySandbox();
    receiver = await WebhookReceiver.start(h.appSecret);
    const answer = await subscribe('CUSTOMERS_REDACT', '/redact');
    expect(answer.errors?.[0]).toMatchObject({
      message:
        "Argument 'topic' on Field 'webhookSubscriptionCreate' has an invalid value (CUSTOMERS_REDACT). Expected type 'WebhookSubscriptionTopic!'.",
      extensions: { code: 'argumentLiteralsIncompatible' },
    });
  });
});
