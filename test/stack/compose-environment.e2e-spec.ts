import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type ComposedService,
  composedService,
  materialize,
  rootedEnvironment,
} from './support/compose-service.js';
import { type ConnectorWorld, eventually, startConnectorWorld } from './support/connector-world.js';
import { freePort, type RunningProcess, repoRoot, startProcess } from './support/stack-process.js';

const PRODUCTION_ENV = 'deploy/production.env.example';

/**
 * The variables of the compose environment this test replaces, and why: the databases, ports and
 * addresses of this machine's test services instead of the containers and the real store. Every
 * other variable, every secret file and the mapping's path are the compose file's own.
 */
const REPLACED = [
  'DATABASE_URL', // the test PostgreSQL (a schema of its own below), not the postgres container
  'REDIS_URL', // the test Redis (dropped when the tests run the queues on PostgreSQL)
  'PORT', // free ports, not 3000 and 3001
  'CONNECTOR_ADMIN_PORT',
  'CONNECTOR_PUBLIC_URL', // where the Shopify sandbox reaches this process
  'CONNECTOR_CATALOG_URL', // the catalog sandbox
  'CONNECTOR_SHOPIFY_CLIENT_ID', // the Shopify sandbox's app
];
/** Variables this test adds: a schema and queue namespace of its own, and the Shopify sandbox. */
const ADDED = ['CONNECTOR_DATABASE_SCHEMA', 'CONNECTOR_QUEUE_NAMESPACE', 'CONNECTOR_SHOPIFY_ADMIN_ORIGIN'];

/** The example's shop (acme-eu.myshopify.com) made this test's shop: its domain, its variables' key, its mapping file. */
function forShop(service: ComposedService, domain: string): ComposedService {
  const example = service.environment.CONNECTOR_SHOPS?.split(',')[0] ?? '';
  const [from, to] = [example, domain].map((d) => d.replace('.myshopify.com', '')) as [string, string];
  const key = (name: string) => `CONNECTOR_SHOP_${name.toUpperCase().replaceAll('-', '_')}_`;
  const environment = Object.fromEntries(
    Object.entries(service.environment).map(([k, v]) => [
      k.replace(key(from), key(to)),
      v.replaceAll(from, to),
    ]),
  );
  return { ...service, environment };
}

/** The Dockerfile's HEALTHCHECK command (its exec form). */
function healthcheckCommand(): string[] {
  const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, '');
  const line = dockerfile.split('\n').find((l) => l.startsWith('HEALTHCHECK '));
  const exec = line?.slice(line.indexOf('CMD ') + 4);
  if (!exec) throw new Error('Dockerfile: no HEALTHCHECK ... CMD [...]');
  return JSON.parse(exec) as string[];
}

// The deployment as written (issue 43): the connector started with exactly what docker-compose.yml
// gives its container, for the real store of deploy/production.env.example: the command, the
// service's environment and the environment file, the secret files at their /run/secrets/ paths
// and the mapping at its /etc/catalog-connector/ path, all laid out under a temporary root (only
// the paths' prefix changes). Only REPLACED and ADDED differ: this machine's services and both
// sandboxes instead of the containers, the store and the catalog. Images cannot be built here; this
// is what proves the compose environment boots, obtains its token by client credentials, and syncs.
describe('the connector with the environment docker-compose.yml gives it (deploy/production.env.example)', () => {
  let world: ConnectorWorld;
  let connector: RunningProcess;
  let env: Record<string, string>;
  let url: string;
  let db: pg.Pool;
  const schema = `compose_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    world = await startConnectorWorld();
    db = new pg.Pool({ connectionString: inject('databaseUrl'), max: 1 });
    const service = forShop(
      composedService('connector', { CONNECTOR_ENV_FILE: PRODUCTION_ENV }),
      world.shop.domain,
    );
    // the files compose mounts: the four secrets (the operator's deploy/secrets/) and the mapping
    // (deploy/config/<shop>.yaml), here the reference mapping for this test's catalog account
    expect(service.secrets.map((s) => s.name).sort()).toEqual([
      'catalog_api_key',
      'connector_admin_token',
      'connector_encryption_keys',
      'shopify_client_secret',
    ]);
    const mappingPath = Object.entries(service.environment).find(([k]) => k.endsWith('_MAPPING_FILE'))?.[1];
    expect(mappingPath).toBe(
      `/etc/catalog-connector/${world.shop.domain.replace('.myshopify.com', '')}.yaml`,
    );
    const root = mkdtempSync(join(tmpdir(), 'compose-environment-'));
    materialize(service, root, {
      contents: {
        connector_admin_token: `${world.adminToken}\n`,
        connector_encryption_keys: `${randomBytes(32).toString('base64')}\n`,
        shopify_client_secret: `${world.shopify.appSecret}\n`,
        catalog_api_key: `${world.account.apiKey}\n`,
      },
      files: { [mappingPath as string]: readFileSync(world.mappingFile, 'utf8') },
    });
    const { environment, unmounted } = rootedEnvironment(service, root);
    expect(unmounted, 'paths the environment names that no secret or mount provides').toEqual([]);

    const port = await freePort();
    let adminPort = await freePort();
    while (adminPort === port) adminPort = await freePort();
    url = `http://127.0.0.1:${port}`;
    const backend = inject('queueBackend');
    const local: Record<string, string> = {
      DATABASE_URL: inject('databaseUrl'),
      REDIS_URL: backend.kind === 'redis' ? backend.url : '',
      PORT: String(port),
      CONNECTOR_ADMIN_PORT: String(adminPort),
      CONNECTOR_PUBLIC_URL: url,
      CONNECTOR_CATALOG_URL: world.catalog.url,
      CONNECTOR_SHOPIFY_CLIENT_ID: world.shopify.clientId,
      CONNECTOR_DATABASE_SCHEMA: schema,
      CONNECTOR_QUEUE_NAMESPACE: `${schema}_q`,
      CONNECTOR_SHOPIFY_ADMIN_ORIGIN: world.shopify.url,
    };
    expect(Object.keys(local).sort()).toEqual([...REPLACED, ...ADDED].sort());
    for (const name of REPLACED)
      expect(environment, `${name} is not in the compose environment`).toHaveProperty(name);
    for (const name of ADDED) expect(environment).not.toHaveProperty(name);
    env = Object.fromEntries(Object.entries({ ...environment, ...local }).filter(([, v]) => v !== ''));

    const [command, ...args] = service.command;
    connector = startProcess(command as string, args, env, { inherit: false });
    const exited = connector.exited.then(() => {
      throw new Error(`the connector exited at boot:\n${connector.output()}`);
    });
    const ready = eventually(
      async () => (await fetch(`${url}/health/ready`).catch(() => null))?.status === 200,
      90_000,
    );
    await Promise.race([ready, exited]);
  }, 120_000);

  afterAll(async () => {
    await connector?.killGroup();
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}_q" CASCADE`).catch(() => undefined);
    await db?.end();
    await world?.close();
  });

  it("boots and subscribes the shop's webhooks at its public URL, with a token it obtained by client credentials", async () => {
    // The shop has no access token in this environment: the subscriptions the connector made are
    // the proof that the client secret file gave it one.
    const topics = await eventually(async () => {
      const answer = await fetch(`${world.shopify.adminUrl}/graphql.json`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': world.shop.accessToken },
        body: JSON.stringify({ query: 'query { webhookSubscriptions(first: 50) { nodes { topic uri } } }' }),
      });
      const body = (await answer.json()) as {
        data: { webhookSubscriptions: { nodes: Array<{ topic: string; uri: string }> } };
      };
      const ours = body.data.webhookSubscriptions.nodes.filter((s) => s.uri === `${url}/webhooks/shopify`);
      return ours.length >= 4 && ours.map((s) => s.topic).sort();
    }, 60_000);
    expect(topics).toEqual(['APP_UNINSTALLED', 'PRODUCTS_CREATE', 'PRODUCTS_DELETE', 'PRODUCTS_UPDATE']);
    expect(connector.output()).not.toMatch(/configuration:/);
  });

  it("answers the image's HEALTHCHECK (the Dockerfile's command, with the container's environment)", () => {
    const [command, ...args] = healthcheckCommand();
    const check = spawnSync(command as string, args, {
      env: { PATH: process.env.PATH ?? '', ...env },
      timeout: 10_000,
    });
    expect(check.status, check.stderr.toString()).toBe(0);
  });

  it('syncs a product: the merchant creates it, the signed webhook arrives, the catalog holds it', async () => {
    const productId = await world.createProduct({
      title: 'Compose shirt',
      vendor: 'Acme',
      product_type: 'Shirts',
      variants: [{ price: '35.00', sku: `CS-${randomBytes(4).toString('hex')}` }],
    });
    const supplierSku = `${world.shop.domain.replace('.myshopify.com', '')}:product:${productId}`;
    const record = await eventually(async () => {
      const found = await world.account.api
        .post('/v1/products/search')
        .send({ filter: { supplierSku: { $eq: supplierSku } } });
      return (found.body?.data?.products?.[0] as { title?: string } | undefined) ?? false;
    }, 60_000);
    expect(record).toBeDefined();
    // Shopify's delivery (signed with the app's client secret) was accepted at the first attempt
    const deliveries = await world.shopify.control(
      'GET',
      `shops/${world.shop.domain}/deliveries?topic=products/create`,
    );
    const delivery = (
      deliveries.body.deliveries as Array<{
        productId: number;
        uri: string;
        attempts: Array<{ status: number }>;
      }>
    ).find((d) => String(d.productId) === productId);
    expect(delivery?.uri).toBe(`${url}/webhooks/shopify`);
    expect(delivery?.attempts.map((a) => a.status)).toEqual([200]);
  });
});
