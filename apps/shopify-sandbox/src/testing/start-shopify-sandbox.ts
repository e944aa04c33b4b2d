import type { Clock } from '#lib/clock';
import { DEFAULT_APP_CLIENT_ID } from '../apps/app-config.js';
import {
  DEFAULT_APP_SECRET,
  DEFAULT_CONTROL_TOKEN,
  DEFAULT_SHOP,
  loadShopifySandboxConfig,
  SANDBOX_API_VERSION,
  type ShopifySandboxConfig,
} from '../config/shopify-sandbox.config.js';
import { createShopifySandbox, type ShopifySandbox } from '../create-shopify-sandbox.js';
import type { AdminRequestRecord } from '../shops/admin-request-log.js';
import type { DeliveryRecord } from '../webhooks/delivery-log.js';

export interface SandboxOverrides
  extends Partial<Omit<ShopifySandboxConfig, 'webhooks' | 'cost' | 'oauth' | 'bulk'>> {
  webhooks?: Partial<ShopifySandboxConfig['webhooks']>;
  cost?: Partial<ShopifySandboxConfig['cost']>;
  oauth?: Partial<ShopifySandboxConfig['oauth']>;
  bulk?: Partial<ShopifySandboxConfig['bulk']>;
  clock?: Clock;
}

export interface ShopifySandboxHarness {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** `${url}/admin/api/2026-07` */
  adminUrl: string;
  shopDomain: string;
  accessToken: string;
  appSecret: string;
  /** The default app's client id (its secret is `appSecret`; `accessToken` is its static token). */
  clientId: string;
  controlToken: string;
  sandbox: ShopifySandbox;
  /** POSTs a GraphQL document to the Admin API as the first shop; resolves to the parsed body. */
  graphql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<GraphqlBody<T>>;
  /** Calls the merchant REST API as the first shop (`path` after `/admin/api/2026-07/`). */
  merchant(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Calls the control API (`path` after `/sandbox/`). */
  control(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** The first shop's Admin API request log (GraphQL and REST), oldest first. */
  adminRequests(filter?: {
    api?: 'graphql' | 'rest' | 'oauth';
    operationType?: string;
  }): Promise<AdminRequestRecord[]>;
  /** The first shop's webhook deliveries (duplicates included), oldest first. */
  deliveries(filter?: { topic?: string; state?: string }): Promise<DeliveryRecord[]>;
  close(): Promise<void>;
}

export interface GraphqlBody<T> {
  data?: T;
  errors?: Array<{ message: string; path?: unknown[]; extensions?: Record<string, unknown> }>;
  extensions: {
    cost: {
      requestedQueryCost: number;
      actualQueryCost: number | null;
      throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
    };
    [key: string]: unknown;
  };
}

/**
 * Starts a sandbox in-process on a free port, with fast webhook retries (10, 20, 40 ms) and a
 * quiet logger. Overrides replace any part of the configuration.
 */
export async function startShopifySandbox(overrides: SandboxOverrides = {}): Promise<ShopifySandboxHarness> {
  const defaults = loadShopifySandboxConfig({});
  const { clock, webhooks, cost, oauth, bulk, ...rest } = overrides;
  const config: ShopifySandboxConfig = {
    ...defaults,
    port: 0,
    ...rest,
    webhooks: { ...defaults.webhooks, retryDelaysMs: [10, 20, 40], ...webhooks },
    cost: { ...defaults.cost, ...cost },
    oauth: { ...defaults.oauth, ...oauth },
    bulk: { ...defaults.bulk, ...bulk },
  };
  const sandbox = await createShopifySandbox(config, { clock, logger: false });
  const url = await sandbox.listen();
  const shop = config.shops[0] ?? DEFAULT_SHOP;
  const adminUrl = `${url}/admin/api/${SANDBOX_API_VERSION}`;
  const controlToken = config.controlToken ?? DEFAULT_CONTROL_TOKEN;
  const call = async (target: string, method: string, headers: Record<string, string>, body?: unknown) => {
    const response = await fetch(target, {
      method,
      headers: { 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };
  const control = (method: string, path: string, body?: unknown) =>
    call(`${url}/sandbox/${path}`, method, { 'X-Sandbox-Control-Token': controlToken }, body);
  return {
    url,
    adminUrl,
    shopDomain: shop.domain,
    accessToken: shop.accessToken,
    appSecret: config.appSecret ?? DEFAULT_APP_SECRET,
    clientId: config.apps[0]?.clientId ?? DEFAULT_APP_CLIENT_ID,
    controlToken,
    sandbox,
    async graphql<T>(query: string, variables?: Record<string, unknown>) {
      const reply = await call(
        `${adminUrl}/graphql.json`,
        'POST',
        { 'X-Shopify-Access-Token': shop.accessToken },
        { query, variables },
      );
      return reply.body as unknown as GraphqlBody<T>;
    },
    merchant: (method, path, body) =>
      call(`${adminUrl}/${path}`, method, { 'X-Shopify-Access-Token': shop.accessToken }, body),
    control,
    async adminRequests(filter = {}) {
      const reply = await control('GET', `shops/${shop.domain}/admin-requests${query(filter)}`);
      return reply.body.requests as AdminRequestRecord[];
    },
    async deliveries(filter = {}) {
      const reply = await control('GET', `shops/${shop.domain}/deliveries${query(filter)}`);
      return reply.body.deliveries as DeliveryRecord[];
    },
    close: () => sandbox.close(),
  };
}

function query(filter: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filter)) if (value !== undefined) params.set(name, value);
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}
