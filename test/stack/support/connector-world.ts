import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { type CatalogSandboxHarness, startCatalogSandbox, type TestAccount } from '#testing/catalog-sandbox';
import {
  type SandboxOverrides,
  type ShopifySandboxHarness,
  startShopifySandbox,
} from '#testing/shopify-sandbox';
import { freePort, type RunningProcess, repoRoot, startProcess } from './stack-process.js';

/** The built connector and its command line, as `npm start` and `npm run connector` run them. */
export const CONNECTOR_MAIN = 'dist/apps/connector/src/main.js';
export const CONNECTOR_CLI = 'dist/apps/connector/src/operations/cli/main.js';
const DEMO_MAPPING = join(repoRoot, 'apps/connector/mappings/demo.yaml');

/** A shop of the test's own in the Shopify sandbox, with a catalog account of its own. */
export interface WorldShop {
  domain: string;
  key: string;
  accessToken: string;
}

/**
 * Both sandboxes in-process (their request logs and controls at hand), a test shop and a catalog
 * account of its own, and the connector's environment for them: what a connector process and the
 * command line are started with.
 */
export interface ConnectorWorld {
  catalog: CatalogSandboxHarness;
  shopify: ShopifySandboxHarness;
  shop: WorldShop;
  account: TestAccount;
  /** The shop's mapping file: the reference mapping, for this shop. */
  mappingFile: string;
  /** A fresh directory for the test's own files. */
  dir: string;
  /** The admin token of this world's connectors (`CONNECTOR_ADMIN_TOKEN`). */
  adminToken: string;
  /** The connector's environment for this shop (no PORT, schema or queue namespace). */
  env(overrides?: Record<string, string | undefined>): Record<string, string>;
  /** A product created by the merchant (REST), its id. */
  createProduct(product: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** What a test changes of its world: the Shopify sandbox's settings (e.g. `oauth.tokenTtlS`). */
export interface ConnectorWorldOptions {
  shopify?: SandboxOverrides;
  /** The catalog sandbox's environment (e.g. `CATALOG_SANDBOX_UPLOAD_PROCESSING_MS`). */
  catalogEnv?: Record<string, string>;
}

export async function startConnectorWorld(options: ConnectorWorldOptions = {}): Promise<ConnectorWorld> {
  const [catalog, shopify] = await Promise.all([
    startCatalogSandbox(options.catalogEnv ? { env: options.catalogEnv } : {}),
    startShopifySandbox(options.shopify),
  ]);
  const name = `cli${randomBytes(5).toString('hex')}`;
  const shop: WorldShop = {
    domain: `${name}.myshopify.com`,
    key: name.toUpperCase(),
    accessToken: `shpat_${randomBytes(12).toString('hex')}`,
  };
  const added = await shopify.control('POST', 'shops', {
    domain: shop.domain,
    accessToken: shop.accessToken,
  });
  if (added.status >= 300) throw new Error(`could not add shop: ${added.status}`);
  const account = await catalog.createAccount();
  const dir = await mkdtemp(join(tmpdir(), 'connector-world-'));
  const mappingFile = join(dir, 'mapping.yaml');
  await writeFile(mappingFile, (await readFile(DEMO_MAPPING, 'utf8')).replace(/^shop: .*$/m, ''));
  const backend = inject('queueBackend');
  const adminToken = `admin-${randomBytes(12).toString('hex')}`;
  return {
    adminToken,
    catalog,
    shopify,
    shop,
    account,
    mappingFile,
    dir,
    env(overrides = {}) {
      const env: Record<string, string | undefined> = {
        DATABASE_URL: inject('databaseUrl'),
        REDIS_URL: backend.kind === 'redis' ? backend.url : undefined,
        CONNECTOR_SHOPS: shop.domain,
        [`CONNECTOR_SHOP_${shop.key}_ACCESS_TOKEN`]: shop.accessToken,
        [`CONNECTOR_SHOP_${shop.key}_MAPPING_FILE`]: mappingFile,
        CONNECTOR_WEBHOOK_SECRETS: shopify.appSecret,
        CONNECTOR_CATALOG_URL: catalog.url,
        CONNECTOR_CATALOG_API_KEY: account.apiKey,
        CONNECTOR_SHOPIFY_ADMIN_ORIGIN: shopify.url,
        CONNECTOR_ADMIN_TOKEN: adminToken,
        CONNECTOR_SYNC_DEBOUNCE_MS: '0',
        CONNECTOR_SYNC_BACKOFF_MS: '50',
        CONNECTOR_SYNC_LOCK_RETRY_MS: '50',
        CONNECTOR_CATALOG_RATE_PER_SECOND: '50',
        ...overrides,
      };
      return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
    },
    async createProduct(product) {
      const created = await fetch(`${shopify.adminUrl}/products.json`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': shop.accessToken },
        body: JSON.stringify({ product }),
      });
      const body = (await created.json()) as { product?: { id: number } };
      if (!created.ok || !body.product) throw new Error(`create refused: ${JSON.stringify(body)}`);
      return String(body.product.id);
    },
    async close() {
      await Promise.allSettled([catalog.close(), shopify.close()]);
    },
  };
}

/** A connector process (the build in dist/) on a port, ready (`/health/ready` answers 200). */
export interface ConnectorProcess {
  url: string;
  process: RunningProcess;
  stop(): Promise<void>;
}

/**
 * Starts `node dist/apps/connector/src/main.js` with `env` on `port` (a free one when not given:
 * a test that must know the URL beforehand, e.g. for `CONNECTOR_PUBLIC_URL`, picks it with
 * `freePort`); `schema` names its tables' schema (and `<schema>_q` its queues): replicas share them.
 */
export async function startConnectorProcess(
  env: Record<string, string>,
  schema: string = `cli_${randomBytes(5).toString('hex')}`,
  port?: number,
): Promise<ConnectorProcess> {
  port ??= await freePort();
  const url = `http://127.0.0.1:${port}`;
  const process = startProcess('node', [CONNECTOR_MAIN], {
    CONNECTOR_DATABASE_SCHEMA: schema,
    CONNECTOR_QUEUE_NAMESPACE: `${schema}_q`,
    ...env,
    PORT: String(port),
  });
  try {
    await process.waitForOutput(/Connector listening on/, 90_000);
    for (let i = 0; i < 300; i += 1) {
      const ready = await fetch(`${url}/health/ready`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await process.killGroup();
    throw error;
  }
  return { url, process, stop: () => process.killGroup() };
}

/** What one run of the command line printed, and its exit code. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built command line (`node dist/apps/connector/src/operations/cli/main.js <args>`) with exactly
 * `env` (plus PATH and HOME: nothing else of this machine's environment), to its end.
 */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 90_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('node', [CONNECTOR_CLI, ...args], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`connector ${args.join(' ')} did not end within ${timeoutMs} ms:\n${stdout}\n${stderr}`),
      );
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Polls `probe` until it returns something other than undefined/false (or fails after `ms`). */
export async function eventually<T>(probe: () => Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
