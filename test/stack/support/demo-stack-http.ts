import { randomBytes } from 'node:crypto';
import { eventually } from './connector-world.js';
import type { LocalStack } from './stack-process.js';

const ADMIN = { authorization: 'Bearer connector-admin-token' };
const CONTROL = { 'x-sandbox-control-token': 'sandbox-control-token', 'content-type': 'application/json' };
const PORTAL = { 'x-portal-token': 'sandbox-portal-token', 'content-type': 'application/json' };
const API = '2026-07';

/** A shop's row of `GET /admin/overview`. */
export interface ShopState {
  shop: string;
  state: string;
  reasons: string[];
  /** The worst rule's cause (the causes table's code) and its next step; null when healthy. */
  cause: { code: string; text: string } | null;
  next: { text: string; href: string | null; command: string | null } | null;
  authState: string;
}

/** HTML text as read (the pages escape &, <, >, " and '). */
export function textOf(text: string): string {
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');
}

/** The overview page's row of a shop: its state, its reasons and its next step (HTML), as shown. */
export function overviewRow(
  html: string,
  domain: string,
): { state?: string; reasons?: string; next?: string } {
  const found = new RegExp(
    `<tr data-shop="${domain.replaceAll('.', '\\.')}">[\\s\\S]*?<td class="state-(\\w+)">\\w+</td><td class="reasons">([^<]*)</td><td class="next">(.*?)</td>`,
  ).exec(html);
  return {
    state: found?.[1],
    reasons: found?.[2] === undefined ? undefined : textOf(found[2]),
    next: found?.[3] === undefined ? undefined : textOf(found[3]),
  };
}

/**
 * Why: a test of the local stack acts as its operator, its merchants and the sandboxes' own
 * operators do, over HTTP only, with the stack's public development credentials: the connector's
 * admin API and pages, the Shopify sandbox's Admin API, token endpoint and control API, the
 * catalog sandbox's portal.
 */
export class DemoStackHttp {
  constructor(private readonly stack: LocalStack) {}

  /** An admin API call with the stack's admin token. */
  async admin(method: string, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const answer = await fetch(`${this.stack.url('connector')}${path}`, { method, headers: ADMIN });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  }

  /** Every shop's state on `GET /admin/overview`, by domain. */
  async states(): Promise<Map<string, ShopState>> {
    const { body } = await this.admin('GET', '/admin/overview');
    return new Map((body.shops as ShopState[]).map((s) => [s.shop, s]));
  }

  /** A session cookie of the admin pages (signed in with the stack's admin token). */
  async signIn(): Promise<string> {
    const login = await fetch(`${this.stack.url('connector')}/admin/ui/login`, {
      method: 'POST',
      body: new URLSearchParams({ token: 'connector-admin-token' }),
      redirect: 'manual',
    });
    if (login.status !== 303) throw new Error(`sign-in: ${login.status}`);
    return (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
  }

  /** An admin page's HTML (200 expected). */
  async page(cookie: string, path = '/admin/ui'): Promise<string> {
    const answer = await fetch(`${this.stack.url('connector')}${path}`, { headers: { cookie } });
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status}`);
    return answer.text();
  }

  /** A call to the Shopify sandbox's control API (`/sandbox/...`). */
  control(method: string, path: string, body?: unknown): Promise<Response> {
    return fetch(`${this.stack.shopifyUrl}/sandbox/${path}`, {
      method,
      headers: CONTROL,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  /** A call to the catalog sandbox's portal API: its `data`, or an error. */
  async portal(method: string, path: string, body?: unknown): Promise<unknown> {
    const answer = await fetch(`${this.stack.catalogUrl}/portal/v1/${path}`, {
      method,
      headers: PORTAL,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await answer.json()) as { data: unknown };
    if (!answer.ok) throw new Error(`portal ${method} ${path}: ${answer.status} ${JSON.stringify(json)}`);
    return json.data;
  }

  /** An Admin GraphQL call to the Shopify sandbox with `token`: its `data`, or an error. */
  async graphql(token: string, query: string, variables: Record<string, unknown> = {}) {
    const answer = await fetch(`${this.stack.shopifyUrl}/admin/api/${API}/graphql.json`, {
      method: 'POST',
      headers: { 'x-shopify-access-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await answer.json()) as { data?: Record<string, unknown>; errors?: unknown };
    if (!answer.ok || body.errors) throw new Error(`graphql: ${answer.status} ${JSON.stringify(body)}`);
    return body.data as Record<string, unknown>;
  }

  /** The app's app/uninstalled subscriptions on the token's shop, once the connector made them (at boot). */
  uninstallSubscriptions(token: string): Promise<Array<{ id: string }>> {
    return eventually(async () => {
      const found = await this.graphql(
        token,
        'query { webhookSubscriptions(first: 50, topics: [APP_UNINSTALLED]) { nodes { id } } }',
      );
      const nodes = (found.webhookSubscriptions as { nodes: Array<{ id: string }> }).nodes;
      return nodes.length > 0 && nodes;
    }, 30_000);
  }

  /**
   * Shopify revokes the app's tokens on `domain` and the connector never hears of it: the app's
   * app/uninstalled subscription is deleted first (through the Admin API, with a token of the
   * app), then the merchant uninstalls.
   */
  async uninstallUnheard(domain: string, token: string): Promise<void> {
    await this.subscriptionsSettled(domain);
    for (const { id } of await this.uninstallSubscriptions(token)) {
      await this.graphql(
        token,
        'mutation($id: ID!) { webhookSubscriptionDelete(id: $id) { deletedWebhookSubscriptionId } }',
        { id },
      );
    }
    const uninstalled = await this.control('POST', `shops/${domain}/uninstall`, {});
    if (uninstalled.status !== 200) throw new Error(`uninstall ${domain}: ${uninstalled.status}`);
  }

  /**
   * Waits until the connector's two boot-time subscription passes for `domain` are over: its boot
   * check ("webhooks go to" in its output) and the subscription repair's first run, which a job
   * scheduler starts at boot (`subscriptionsCheckedAt` on `GET /admin/shops`). Either one, still
   * running, creates again a subscription deleted meanwhile, and the uninstall is then heard.
   */
  async subscriptionsSettled(domain: string): Promise<void> {
    await eventually(async () => {
      if (!this.stack.process.output().includes(`${domain}: webhooks go to`)) return false;
      const { body } = await this.admin('GET', '/admin/shops');
      const entries = body.shops as Array<{ shop: string; subscriptionsCheckedAt: string | null }>;
      return entries.some((e) => e.shop === domain && e.subscriptionsCheckedAt !== null);
    }, 60_000);
  }

  /** A client-credentials token of the stack's app on `domain` (Shopify's token endpoint). */
  async clientCredentialsToken(domain: string): Promise<string> {
    const answer = await fetch(`${this.stack.shopifyUrl}/admin/oauth/access_token?shop=${domain}`, {
      method: 'POST',
      body: new URLSearchParams({
        client_id: 'sandbox-app-client-id',
        client_secret: 'sandbox-app-secret',
        grant_type: 'client_credentials',
      }),
    });
    if (answer.status !== 200) throw new Error(`client credentials ${domain}: ${answer.status}`);
    return ((await answer.json()) as { access_token: string }).access_token;
  }

  /** A product the merchant creates (REST, with the shop's token): Shopify sends its webhooks. */
  async merchantProduct(token: string, title: string): Promise<void> {
    const answer = await fetch(`${this.stack.shopifyUrl}/admin/api/${API}/products.json`, {
      method: 'POST',
      headers: { 'x-shopify-access-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({
        product: {
          title,
          vendor: 'Acme',
          product_type: 'Shirts',
          variants: [{ price: '35.00', sku: `ST-${randomBytes(4).toString('hex')}` }],
        },
      }),
    });
    if (answer.status !== 201) throw new Error(`product create: ${answer.status}`);
  }
}
