import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '#lib/clock';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import type { ResolvedWriteBackEntry } from '../../src/mapping/index.js';
import { planWriteBack } from '../../src/write-back/decide/plan-write-back.js';
import {
  type PushState,
  stateKey,
  type WriteBackSubject,
} from '../../src/write-back/decide/write-back-state.js';
import type { AdminGraphql, GraphqlResponse } from '../../src/write-back/shopify/admin-graphql.js';
import { buildMutations } from '../../src/write-back/shopify/build-mutations.js';
import { executeWriteBack } from '../../src/write-back/shopify/execute-write-back.js';
import { fetchWriteBackState } from '../../src/write-back/shopify/fetch-write-back-state.js';
import { approved, catalogRecord, demoWriteBack } from './write-back-mapping.js';

type Attributes = Parameters<typeof catalogRecord>[1];

/**
 * Test support: a Shopify sandbox (ManualClock; its merge window on), a webhook receiver
 * subscribed to `products/update` with the app's metafield namespace, and the push job's
 * steps as one call (read, plan, write, store what landed). Admin GraphQL by plain fetch.
 */
export class WriteBackSandbox {
  readonly entries = demoWriteBack();
  readonly sleeps: number[] = [];
  /** The app's resolved namespace: `$app:catalog` as Shopify answers it (`app--<id>--catalog`). */
  appNamespace = '';
  #receiver?: Server;

  private constructor(
    readonly h: ShopifySandboxHarness,
    readonly clock: ManualClock,
  ) {}

  static async start(): Promise<WriteBackSandbox> {
    const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
    const sandbox = new WriteBackSandbox(await startShopifySandbox({ clock }), clock);
    await sandbox.#subscribe();
    return sandbox;
  }

  readonly graphql: AdminGraphql = async (query, variables) => {
    const response = await fetch(`${this.h.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': this.h.accessToken },
      body: JSON.stringify({ query, variables }),
    });
    if (response.status !== 200) throw new Error(`Admin GraphQL answered ${response.status}`);
    return (await response.json()) as GraphqlResponse;
  };

  readonly sleep = async (ms: number) => {
    this.sleeps.push(ms);
    await this.clock.advance(ms);
  };

  async #subscribe() {
    this.#receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    const receiver = this.#receiver;
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const probe = await this.createProduct({ title: 'Probe' });
    const set = await this.graphql(
      'mutation($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { metafields { namespace } } }',
      {
        m: [
          {
            ownerId: probe.id,
            namespace: '$app:catalog',
            key: 'probe',
            type: 'single_line_text_field',
            value: 'x',
          },
        ],
      },
    );
    const data = set.data as { metafieldsSet: { metafields: Array<{ namespace: string }> } };
    this.appNamespace = data.metafieldsSet.metafields[0]?.namespace ?? '';
    const subscribed = await this.graphql(
      `mutation($uri: String!, $ns: [String!]) { webhookSubscriptionCreate(topic: PRODUCTS_UPDATE,
        webhookSubscription: { uri: $uri, metafieldNamespaces: $ns }) { userErrors { message } } }`,
      {
        uri: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`,
        ns: [this.appNamespace],
      },
    );
    if (subscribed.errors) throw new Error(JSON.stringify(subscribed.errors));
  }

  async close() {
    const receiver = this.#receiver;
    if (receiver) await new Promise((resolve) => receiver.close(resolve));
    await this.h.close();
  }

  /** A merchant product (merchant REST API): its gid and its variants' gids. */
  async createProduct(body: Record<string, unknown>) {
    const created = await this.h.merchant('POST', 'products.json', { product: body });
    if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
    const product = created.body.product as {
      admin_graphql_api_id: string;
      variants: Array<{ admin_graphql_api_id: string }>;
    };
    return {
      id: product.admin_graphql_api_id,
      variants: product.variants.map((v) => v.admin_graphql_api_id),
    };
  }

  /** A merchant's shirt with two sizes, a tag and an SEO title of their own. */
  shirt() {
    return this.createProduct({
      title: 'Linen shirt',
      body_html: '<p>Linen.</p>',
      tags: 'linen',
      metafields_global_title_tag: 'Merchant SEO',
      options: [{ name: 'Size' }],
      variants: [
        { option1: 'S', sku: 'LS-S', price: '49.00' },
        { option1: 'M', sku: 'LS-M', price: '49.00' },
      ],
    });
  }

  /** The catalog side: a parent record with `attributes`, a variant record per Shopify variant. */
  subject(
    product: { id: string; variants: string[] },
    attributes: Attributes,
    titles: string[] = [],
  ): WriteBackSubject {
    return {
      productId: product.id,
      record: catalogRecord('SK00000001', attributes),
      variants: product.variants.map((variantId, i) => ({
        variantId,
        record: catalogRecord(
          `SK0000001${i}`,
          titles[i] ? [approved('variantTitle', titles[i] as string)] : [],
          'SK00000001',
        ),
      })),
    };
  }

  read(productId: string, entries: readonly ResolvedWriteBackEntry[] = this.entries) {
    return fetchWriteBackState(this.graphql, productId, entries, { sleep: this.sleep });
  }

  /** One run of the push job: read, plan, write, store what landed. */
  async push(states: PushState[], s: WriteBackSubject, entries: ResolvedWriteBackEntry[] = this.entries) {
    const shopify = await this.read(s.productId, entries);
    if (!shopify) throw new Error('product not found');
    const plan = planWriteBack({ subject: s, entries, states, shopify });
    const mutations = buildMutations(s.productId, plan.writes);
    const { outcomes } = await executeWriteBack(plan.writes, mutations, this.graphql, { sleep: this.sleep });
    const byKey = new Map(states.map((st) => [stateKey(st.ownerId, st.attribute, st.target), st]));
    const put = (next: PushState) => byKey.set(stateKey(next.ownerId, next.attribute, next.target), next);
    for (const { next } of [...plan.settled, ...plan.conflicts]) put(next);
    for (const outcome of outcomes) if (outcome.ok) put({ ...outcome.write.next, intent: null });
    return { plan, mutations, outcomes, states: [...byKey.values()] };
  }

  /** Mutations in the sandbox's Admin request log so far. */
  async mutationsLogged() {
    return (await this.h.adminRequests({ api: 'graphql', operationType: 'mutation' })).length;
  }

  /** The `products/update` deliveries of a product, after flushing the merge window. */
  async updatesFor(productId: string) {
    await this.h.control('POST', `shops/${this.h.shopDomain}/deliveries/flush`);
    const deliveries = await this.h.deliveries({ topic: 'products/update' });
    return deliveries.filter(
      (d) => (d.payload as { admin_graphql_api_id?: string } | null)?.admin_graphql_api_id === productId,
    );
  }
}
