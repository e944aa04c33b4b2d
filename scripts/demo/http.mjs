// The demo's HTTP helpers: each service of the running stack, with its development credentials
// (the public defaults `npm start` prints). Every call checks its status and names what failed.
import { readFileSync } from 'node:fs';

const env = process.env;
const given = (name) => env[name] !== undefined && env[name] !== '';
/** A service's URL: its own variable (CATALOG, SHOPIFY, CONNECTOR), else the port `npm start` gave it. */
const local = (name, portVariable, port) =>
  given(name) ? env[name] : `http://127.0.0.1:${given(portVariable) ? env[portVariable] : port}`;
export const urls = {
  catalog: local('CATALOG', 'CATALOG_SANDBOX_PORT', 4010),
  shopify: local('SHOPIFY', 'SHOPIFY_SANDBOX_PORT', 4020),
  connector: local('CONNECTOR', 'PORT', 3000),
};
const SHOP_TOKEN = 'shpat_sandbox_demo_token';
const CATALOG_KEY = 'demo-api-key-0001';
const PORTAL_TOKEN = 'sandbox-portal-token';
/** The stack's admin token: the one `npm start` was given (variable or file), else its public default. */
const ADMIN_TOKEN = given('CONNECTOR_ADMIN_TOKEN')
  ? env.CONNECTOR_ADMIN_TOKEN
  : given('CONNECTOR_ADMIN_TOKEN_FILE')
    ? readFileSync(env.CONNECTOR_ADMIN_TOKEN_FILE, 'utf8').trim()
    : 'connector-admin-token';
export const API_VERSION = '2026-07';

async function call(what, url, { method = 'GET', headers = {}, body } = {}) {
  let response;
  try {
    response = await fetch(url, {
      method,
      headers: { 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new Error(
      `${what}: ${url} cannot be reached (${error.cause?.code ?? error.message}). Is \`npm start\` running?`,
    );
  }
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : {};
  if (response.status >= 300)
    throw new Error(`${what}: ${method} ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return parsed;
}

/** The Shopify sandbox as the demo shop's merchant (REST) and its app (GraphQL). */
export const shop = {
  rest: (method, path, body) =>
    call(`Shopify ${method} ${path}`, `${urls.shopify}/admin/api/${API_VERSION}/${path}`, {
      method,
      body,
      headers: { 'X-Shopify-Access-Token': SHOP_TOKEN },
    }),
  async graphql(query, variables = {}) {
    const answer = await call('Shopify GraphQL', `${urls.shopify}/admin/api/${API_VERSION}/graphql.json`, {
      method: 'POST',
      body: { query, variables },
      headers: { 'X-Shopify-Access-Token': SHOP_TOKEN },
    });
    if (answer.errors) throw new Error(`Shopify GraphQL: ${JSON.stringify(answer.errors).slice(0, 300)}`);
    return answer.data;
  },
};

/** The catalog sandbox: the `demo` account's API, and its portal (enrichment runs, reviews). */
export const catalog = {
  api: (method, path, body) =>
    call(`catalog ${method} ${path}`, `${urls.catalog}${path}`, {
      method,
      body,
      headers: { 'X-API-Key': CATALOG_KEY },
    }),
  portal: (method, path, body) =>
    call(`portal ${method} ${path}`, `${urls.catalog}/portal/v1/accounts/demo${path}`, {
      method,
      body,
      headers: { 'X-Portal-Token': PORTAL_TOKEN },
    }),
};

/** The connector's admin API, with the local stack's admin token. */
export const connector = {
  admin: (method, path, body) =>
    call(`connector ${method} ${path}`, `${urls.connector}${path}`, {
      method,
      body,
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    }),
  ready: () => call('connector readiness', `${urls.connector}/health/ready`),
};

/**
 * The demo's whole time budget, in seconds: `DEMO_TIMEOUT_S`, or `--timeout=<s>` on the command
 * line (default 600). On a quiet machine the story takes well under a minute; on a loaded one
 * each step is slower, so no wait has a budget of its own: every wait may use what is left of
 * the whole, and the demo always ends by then.
 */
export const demoTimeoutS = (() => {
  const flag = process.argv.find((arg) => arg.startsWith('--timeout='))?.slice('--timeout='.length);
  const text = flag ?? env.DEMO_TIMEOUT_S ?? '600';
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    // A usage error, not a crash: one line, no stack trace.
    console.error(
      `demo: invalid timeout "${text}": DEMO_TIMEOUT_S or --timeout=<s> takes a number of seconds above 0`,
    );
    process.exit(2);
  }
  return seconds;
})();
const demoDeadline = Date.now() + demoTimeoutS * 1_000;

/**
 * Polls `probe` every `everyMs` until it returns something other than undefined/false/null.
 * Gives up at the demo's deadline (or after `timeoutMs`, if given and sooner). `failed`, when it
 * returns a message for a probed value, ends the wait at once with that message (a final failure
 * is not waited out).
 */
export async function waitFor(what, probe, { timeoutMs, everyMs = 500, failed } = {}) {
  const deadline = Math.min(demoDeadline, timeoutMs === undefined ? Infinity : Date.now() + timeoutMs);
  let last;
  for (;;) {
    try {
      const value = await probe();
      const failure = failed?.(value);
      if (failure) throw Object.assign(new Error(`${what}: ${failure}`), { final: true });
      if (value !== undefined && value !== false && value !== null) return value;
    } catch (error) {
      if (error.final) throw error;
      last = error;
    }
    if (Date.now() > deadline) {
      const budget = deadline === demoDeadline ? ` within the demo's ${demoTimeoutS} s (DEMO_TIMEOUT_S)` : '';
      throw new Error(
        `timed out waiting for ${what}${budget}${last ? ` (last error: ${last.message})` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
