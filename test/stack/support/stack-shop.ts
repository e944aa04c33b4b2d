import { productBody } from '#testing/catalog-sandbox';
import type { ConnectorProcess, ConnectorWorld } from './connector-world.js';
import { eventually } from './connector-world.js';

/** A merchant's product in the Shopify sandbox: its id, gid and variant ids. */
export interface StackProduct {
  id: string;
  gid: string;
  variantIds: string[];
}

/** A drift report as the admin API answers it (the fields the stack tests read). */
export interface StackDriftReport {
  id: string;
  previousId: string | null;
  resolved: string[];
  findings: Array<{
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
  }>;
}

type MapRows = Array<{ shopifyVariantId: string | null; skuId: string | null; state: string }>;

/**
 * Why: a stack test drives a connector process and both sandboxes through HTTP only (the admin API
 * and its product page, the merchant's Admin API, the catalog's /v1 and portal, the sandbox's
 * webhook faults); these are the calls the drift scenario makes, kept out of its file.
 */
export class StackShop {
  /** The connector process the admin calls go to (set once it is up: the merchant's calls need none). */
  connector: ConnectorProcess | null = null;

  constructor(private readonly world: ConnectorWorld) {}

  private get url(): string {
    if (this.connector === null) throw new Error('no connector process yet');
    return this.connector.url;
  }

  /** The shop's derived supplierSku prefix (`<prefix>:product:<id>`). */
  get prefix(): string {
    return this.world.shop.domain.replace('.myshopify.com', '');
  }

  /** A call of the connector's admin API with the admin token. */
  async admin<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const answer = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${this.world.adminToken}`,
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: answer.status, body: (await answer.json()) as T };
  }

  /** A merchant's product create or update (REST Admin API): the product it answers. */
  async merchant(method: 'POST' | 'PUT', path: string, body: unknown): Promise<StackProduct> {
    const answer = await fetch(`${this.world.shopify.adminUrl}/${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': this.world.shop.accessToken },
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
  }

  /** A product with one variant, made by the merchant. */
  simple(title: string): Promise<StackProduct> {
    return this.merchant('POST', 'products.json', {
      product: {
        title,
        vendor: 'Acme',
        product_type: 'Tees',
        variants: [{ price: '10.00', barcode: '4006381333931' }],
      },
    });
  }

  /** A merchant's edit whose update webhook is dropped: the connector never hears of it. */
  async unseenEdit(product: StackProduct, change: Record<string, unknown>): Promise<void> {
    // Shopify's updatedAt counts whole seconds: the edit must land a second after the last sync.
    const at = Date.now();
    await eventually(async () => Math.floor(Date.now() / 1000) > Math.floor(at / 1000));
    const faults = `shops/${this.world.shop.domain}/delivery-faults`;
    if ((await this.world.shopify.control('PUT', faults, { drop: 1 })).status !== 200)
      throw new Error('faults refused');
    await this.merchant('PUT', `products/${product.id}.json`, {
      product: { id: Number(product.id), ...change },
    });
    await this.world.shopify.sandbox.idle();
    if ((await this.world.shopify.control('PUT', faults, { drop: 0 })).status !== 200)
      throw new Error('faults refused');
  }

  /** The product's SEO title in Shopify (Admin GraphQL). */
  async seoTitle(gid: string): Promise<string | null> {
    const answer = await fetch(`${this.world.shopify.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': this.world.shop.accessToken },
      body: JSON.stringify({
        query: 'query StackSeo($id: ID!) { product(id: $id) { seo { title } } }',
        variables: { id: gid },
      }),
    });
    return ((await answer.json()) as { data: { product: { seo: { title: string | null } } } }).data.product
      .seo.title;
  }

  /** A call of the catalog's portal API for the world's account: its `data`. */
  async portal(method: 'post' | 'get', path: string, body?: unknown) {
    const base = `/portal/v1/accounts/${this.world.account.id}`;
    const answer = await this.world.catalog.portal[method](`${base}${path}`, body);
    if (answer.status !== 200) throw new Error(`portal ${path}: ${JSON.stringify(answer.body)}`);
    return answer.body.data;
  }

  /** Enriches the records in one portal run, stepped to its end, and approves `approve` of each. */
  async enrichAndApprove(skuIds: string[], approve: string[]): Promise<void> {
    const run = await this.portal('post', '/enrichment/runs', {
      skuIds,
      mode: 'manual',
      batchSize: skuIds.length,
    });
    for (let step = 0, state = run; step < 5 && state.status !== 'DONE'; step += 1) {
      state = await this.portal('post', `/enrichment/runs/${run.runId}/step`);
    }
    for (const skuId of skuIds) await this.portal('post', `/products/${skuId}/review`, { approve });
  }

  /** `POST /admin/enrichment/poll`, then waits until it finished with no push pending. */
  async poll(): Promise<void> {
    const poll = await this.admin<{ id: string }>('POST', '/admin/enrichment/poll');
    if (poll.status !== 200) throw new Error(`poll: ${poll.status}`);
    await eventually(async () => {
      const status = await this.admin<{ status: string; pushes: { pending: number } }>(
        'GET',
        `/admin/enrichment/poll/${poll.body.id}`,
      );
      if (status.body.status === 'failed') throw new Error(`poll failed: ${JSON.stringify(status.body)}`);
      return status.body.status === 'finished' && status.body.pushes.pending === 0;
    });
  }

  /** A product record made in the catalog (/v1) behind the connector's back: its skuId. */
  async record(supplierSku: string): Promise<string> {
    return skuIdOf(await this.world.account.api.post('/v1/products', productBody(supplierSku)));
  }

  /** A variant record made in the catalog (/v1) under the record of `parentSupplierSku`: its skuId. */
  async variantRecord(parentSupplierSku: string, supplierSku: string): Promise<string> {
    return skuIdOf(
      await this.world.account.api.post('/v1/variants', { parentSupplierSku, supplierSku, attributes: [] }),
    );
  }

  /** A record's attribute value in the catalog (/v1). */
  async value(skuId: string, key: string): Promise<unknown> {
    const record = await this.world.account.api.get(`/v1/products/${skuId}`);
    return (record.body.data.attributes as Array<{ key: string; value: unknown }>).find((a) => a.key === key)
      ?.value;
  }

  /** The product's map rows (admin product status). */
  async mapRows(product: StackProduct): Promise<MapRows> {
    return (
      (await this.admin<{ mapRows?: MapRows }>('GET', `/admin/products/${product.id}`)).body.mapRows ?? []
    );
  }

  /** Waits until the product's map rows are all live: its own record's skuId. */
  synced(product: StackProduct): Promise<string> {
    return eventually(async () => {
      const rows = await this.mapRows(product);
      const own = rows.find((r) => r.shopifyVariantId === null);
      return rows.length > 0 && rows.every((r) => r.state === 'live') && own?.skuId ? own.skuId : false;
    });
  }

  /** Runs and stores a drift report of the shop now (admin API). */
  async report(): Promise<StackDriftReport> {
    const answer = await this.admin<StackDriftReport>('POST', `/admin/shops/${this.world.shop.domain}/drift`);
    if (answer.status !== 200) throw new Error(`drift: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  /** The product's write-back history (admin product status). */
  async writeBacks(
    product: StackProduct,
  ): Promise<Array<{ field: string; conflict: boolean; details: { purpose: string } }>> {
    const status = await this.admin<{
      writeBacks: Array<{ field: string; conflict: boolean; details: { purpose: string } }> | null;
    }>('GET', `/admin/products/${product.id}`);
    return status.body.writeBacks ?? [];
  }

  /** The drift repairs of the product's timeline, as its page in `/admin/ui` shows them, sorted. */
  async timelineRepairs(product: StackProduct): Promise<string[]> {
    const login = await fetch(`${this.url}/admin/ui/login`, {
      method: 'POST',
      body: new URLSearchParams({ token: this.world.adminToken }),
      redirect: 'manual',
    });
    if (login.status !== 303) throw new Error(`sign-in refused: ${login.status}`);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const page = await fetch(`${this.url}/admin/ui/products/${product.id}?shop=${this.world.shop.domain}`, {
      headers: { cookie },
    });
    if (page.status !== 200) throw new Error(`product page: ${page.status}`);
    const html = await page.text();
    return [...html.matchAll(/drift [\w-]+(?: \(\w+\))?: [\w-]+ [\w-]+/g)].map((m) => m[0]).sort();
  }
}

function skuIdOf(answer: { status: number; body: { data?: { skuId?: string } } }): string {
  const skuId = answer.body.data?.skuId;
  if (answer.status >= 300 || skuId === undefined)
    throw new Error(`create refused: ${JSON.stringify(answer.body)}`);
  return skuId;
}
