import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, call, registeredRoutes, sample } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

interface FailureDto {
  id: string;
  shop: string;
  jobKind: string;
  subjectKey: string;
  state: string;
  error: { code: string; message: string; retryable: boolean };
  attempts: number;
  resolvedAt: string | null;
}
interface FailurePage {
  items: FailureDto[];
  total: number;
  limit: number;
  offset: number;
}
type ErrorBody = { error: { code: string; message: string; details?: Record<string, unknown> } };

// Operations: the admin API (its token on every route, the failures inbox), /metrics moving with
// work, and the OpenAPI document covering every route the connector serves.
describe('operations', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let ok: TestShop;
  let broken: TestShop;
  const token = `admin-${randomBytes(16).toString('hex')}`;
  const admin = <T = Record<string, unknown>>(method: string, path: string): Promise<Answer<T>> =>
    call<T>(harness.url, method, path, token);
  const metrics = async () => (await call(harness.url, 'GET', '/metrics')).text;

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    ok = testShop();
    broken = testShop();
    await sandboxes.addShop(ok);
    await sandboxes.addShop(broken);
    const account = await sandboxes.account();
    // The broken shop's token is revoked: Shopify answers 401, a permanent failure at once.
    harness = await startConnector({
      shops: [ok, { ...broken, accessToken: 'shpat_revoked' }],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: account.apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      // Every admin route is asked with three wrong tokens from this one address: far more than the
      // failed-authentication limit lets through (admin-auth-limit.e2e-spec.ts tests the limit).
      env: { CONNECTOR_ADMIN_TOKEN: token, CONNECTOR_AUTH_FAILURE_LIMIT: '100000' },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  const adminRoutes = () => registeredRoutes(harness.connector).filter((r) => / \/admin(\/|$)/.test(r));
  const concrete = (route: string) => {
    const [method, path] = route.split(' ') as [string, string];
    return { method, path: path.replace(/\{\w+\}/g, '1') };
  };

  /** The web view's routes take a session cookie, never a bearer token: without one, the sign-in page (401). */
  const isUi = (route: string) => / \/admin\/ui(\/|$)/.test(route);

  it('refuses every /admin/ui route without a session (401, the sign-in page), a bearer token included', async () => {
    const routes = adminRoutes().filter(isUi);
    expect(routes.length).toBeGreaterThanOrEqual(8);
    for (const route of [...routes, 'GET /admin/ui/queues/', 'GET /admin/ui/queues/api/queues']) {
      const { method, path } = concrete(route);
      for (const given of [undefined, 'wrong-token', token]) {
        const answer = await call(harness.url, method, path, given);
        expect(answer.status, `${route} with ${given ?? 'no token'}`).toBe(401);
        expect(answer.text).toContain('name="token"');
        expect(answer.text).not.toContain(token);
      }
    }
    const wrong = await fetch(`${harness.url}/admin/ui/login`, {
      method: 'POST',
      body: new URLSearchParams({ token: `${token}x` }),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('refuses every /admin route without the token, and with a wrong one, with 401', async () => {
    const routes = adminRoutes().filter((route) => !isUi(route));
    expect(routes.length).toBeGreaterThanOrEqual(8);
    for (const route of routes) {
      const { method, path } = concrete(route);
      for (const given of [undefined, 'wrong-token', `${token}x`, token.slice(0, -1)]) {
        const answer = await call<ErrorBody>(harness.url, method, path, given);
        expect(answer.status, `${route} with ${given ?? 'no token'}`).toBe(401);
        expect(answer.body.error.code).toBe('unauthorized');
        expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
        expect(answer.text).not.toContain(token);
      }
      const other = await fetch(`${harness.url}${path}`, { method, headers: { Authorization: token } });
      expect(other.status, `${route} without "Bearer"`).toBe(401);
    }
  });

  it('keeps every /admin route closed (503 admin_disabled) when no token is configured', async () => {
    // A shop of its own: two connectors in one process must not serve one shop (its Admin API
    // route is per shop domain, and closing one connector would remove the other's).
    const alone = testShop();
    const closed = await startConnector({
      shops: [alone],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: (await sandboxes.account()).apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
    });
    try {
      for (const route of adminRoutes()) {
        const { method, path } = concrete(route);
        for (const given of [undefined, 'anything-at-all-here']) {
          const answer = await call<ErrorBody>(closed.url, method, path, given);
          expect(answer.status, route).toBe(503);
          if (isUi(route)) expect(answer.text).toContain('CONNECTOR_ADMIN_TOKEN');
          else expect(answer.body.error.code).toBe('admin_disabled');
        }
      }
    } finally {
      await closed.close();
    }
  });

  it('lists, shows, dismisses and replays real failures, one or all matching', async () => {
    const [first, second] = ['7390000555001', '7390000555002'];
    for (const productId of [first, second]) {
      const answer = await harness.deliver({
        shop: broken,
        body: productUpdateBody(productId, new Date().toISOString()),
      });
      expect(answer.body.status).toBe('accepted');
    }
    const openOf = (subject?: string) =>
      admin<FailurePage>(
        'GET',
        `/admin/failures?shop=${broken.domain}&state=open${subject ? `&subject=${subject}` : ''}`,
      );
    const listed = await eventually(async () => {
      const page = await openOf();
      return page.body.total === 2 && page;
    });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
    const byFirst = await openOf(first);
    expect(byFirst.body.items).toHaveLength(1);
    const failure = byFirst.body.items[0] as FailureDto;
    expect(failure).toMatchObject({
      shop: broken.domain,
      jobKind: 'sync-product',
      subjectKey: first,
      state: 'open',
      error: { code: 'shopify_unauthorized', retryable: false },
      attempts: 1,
      resolvedAt: null,
    });
    expect(Object.keys(failure)).not.toContain('errorCode'); // a DTO, not the entity
    const paged = await admin<FailurePage>('GET', `/admin/failures?shop=${broken.domain}&limit=1&offset=1`);
    expect(paged.body).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(paged.body.items).toHaveLength(1);
    expect((await admin<FailurePage>('GET', `/admin/failures?shop=${ok.domain}`)).body.total).toBe(0);

    const shown = await admin<FailureDto>('GET', `/admin/failures/${failure.id}`);
    expect(shown.body).toMatchObject({ id: failure.id, subjectKey: first, payload: { productId: first } });

    // Dismiss the first: closed, and a second dismissal (or a replay) is a 409.
    const dismissed = await admin<FailureDto>('POST', `/admin/failures/${failure.id}/dismiss`);
    expect(dismissed).toMatchObject({ status: 200, body: { id: failure.id, state: 'dismissed' } });
    expect(dismissed.body.resolvedAt).not.toBeNull();
    for (const action of ['dismiss', 'replay']) {
      const again = await admin<ErrorBody>('POST', `/admin/failures/${failure.id}/${action}`);
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: 'failure_not_open', details: { state: 'dismissed' } });
    }

    // Replay the second: its sync runs again and, the token being still revoked, fails anew.
    const [secondFailure] = (await openOf(second)).body.items;
    const replayed = await admin<FailureDto>('POST', `/admin/failures/${secondFailure?.id}/replay`);
    expect(replayed).toMatchObject({ status: 200, body: { id: secondFailure?.id, state: 'replayed' } });
    const [renewed] = await eventually(async () => {
      const items = (await openOf(second)).body.items;
      return items.length === 1 && items;
    });
    expect(renewed?.id).not.toBe(secondFailure?.id);

    // Replay every open failure of the shop: the renewed one.
    const bulk = await admin<{ replayed: string[]; errors: unknown[]; remaining: number }>(
      'POST',
      `/admin/failures/replay?shop=${broken.domain}`,
    );
    expect(bulk).toMatchObject({ status: 200, body: { replayed: [renewed?.id], errors: [], remaining: 0 } });
    const states = (
      await admin<FailurePage>('GET', `/admin/failures?shop=${broken.domain}&subject=${second}`)
    ).body;
    expect(states.items.map((f) => f.state)).toContain('replayed');
  });

  it('answers bad filters with 400 naming the parameter, and unknown ids with 404', async () => {
    for (const [query, parameter] of [
      ['state=bogus', 'state'],
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['offset=-1', 'offset'],
      ['colour=red', 'colour'],
      ['shop=a&shop=b', 'shop'],
    ]) {
      const answer = await admin<ErrorBody>('GET', `/admin/failures?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'bad_request', details: { parameter } });
    }
    expect((await admin<ErrorBody>('POST', '/admin/failures/replay?state=dismissed')).status).toBe(400);
    for (const id of ['999999999999', 'abc', '1e3', '99999999999999999999']) {
      const answer = await admin<ErrorBody>('GET', `/admin/failures/${id}`);
      expect(answer.status, id).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
      expect((await admin('POST', `/admin/failures/${id}/replay`)).status).toBe(404);
    }
  });

  it('moves the metrics when work happens: webhooks received, replayed and refused, jobs, failures', async () => {
    const before = await metrics();
    const series = {
      accepted: ['connector_webhooks_received_total', { topic: 'products/update', status: 'accepted' }],
      replayed: ['connector_webhooks_replayed_total', { topic: 'products/update' }],
      refused: ['connector_webhooks_refused_total', { reason: 'invalid_signature' }],
      unknownShop: ['connector_webhooks_refused_total', { reason: 'unknown_shop' }],
      notFound: ['connector_jobs_total', { kind: 'sync-product', outcome: 'not_found' }],
    } as const;
    const value = (text: string, key: keyof typeof series) => sample(text, series[key][0], series[key][1]);

    const webhookId = randomUUID();
    const body = productUpdateBody('7390000555101', new Date().toISOString());
    expect((await harness.deliver({ shop: ok, body, webhookId })).body.status).toBe('accepted');
    expect((await harness.deliver({ shop: ok, body, webhookId })).body.status).toBe('duplicate');
    expect((await harness.deliver({ shop: ok, body, secret: 'wrong-secret' })).status).toBe(401);
    const stranger = testShop();
    expect((await harness.deliver({ shop: stranger, body })).status).toBe(404);
    const after = await eventually(async () => {
      const text = await metrics();
      return value(text, 'notFound') > value(before, 'notFound') && text;
    });
    expect(value(after, 'accepted') - value(before, 'accepted')).toBe(1);
    expect(value(after, 'replayed') - value(before, 'replayed')).toBe(1);
    expect(value(after, 'refused') - value(before, 'refused')).toBe(1);
    expect(value(after, 'unknownShop') - value(before, 'unknownShop')).toBe(1);
    expect(value(after, 'notFound') - value(before, 'notFound')).toBe(1);

    // A failed job, the failures open, the queues' depth, the breakers: all present.
    expect(
      sample(after, 'connector_jobs_total', { kind: 'sync-product', outcome: 'failed' }),
    ).toBeGreaterThan(0);
    expect(after).toMatch(/^# TYPE connector_failures_open gauge$/m);
    expect(after).toMatch(/^connector_queue_jobs\{queue="sync-product",state="waiting"\} \d+$/m);
    expect(after).toMatch(/^connector_queue_jobs\{queue="inbox-sweep",state="delayed"\} \d+$/m);
    expect(sample(after, 'connector_catalog_breaker_state', { state: 'closed' })).toBe(1);
    expect(sample(after, 'connector_metrics_read_errors_total')).toBe(0);
    for (const secret of [token, ok.accessToken, ...ok.webhookSecrets]) expect(after).not.toContain(secret);

    // An open failure shows in the gauge.
    await harness.deliver({
      shop: broken,
      body: productUpdateBody('7390000555102', new Date().toISOString()),
    });
    await eventually(async () => {
      const text = await metrics();
      return sample(text, 'connector_failures_open', { shop: broken.domain, job_kind: 'sync-product' }) >= 1;
    });
  });

  it('serves /metrics in the Prometheus text format', async () => {
    const response = await fetch(`${harness.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await response.text()).toMatch(/^# TYPE connector_webhooks_received_total counter$/m);
  });

  describe('the OpenAPI document', () => {
    const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
    type Document = { openapi: string; paths: Record<string, Record<string, { operationId?: string }>> };

    it('documents every route the connector serves (the viewer aside), each with an operationId', async () => {
      const answer = await call<Document>(harness.url, 'GET', '/openapi.json');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      const doc = answer.body;
      expect(doc.openapi).toBe('3.1.0');
      const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([method]) => METHODS.includes(method))
          .map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, id: op.operationId })),
      );
      const documented = new Set(operations.map((op) => op.at));
      const served = registeredRoutes(harness.connector).filter((route) => !/ \/docs(\/|$)/.test(route));
      expect(served.length).toBeGreaterThanOrEqual(10);
      expect(served.filter((route) => !documented.has(route))).toEqual([]);
      expect([...documented].filter((route) => !served.includes(route))).toEqual([]);
      expect(operations.filter((op) => !op.id)).toEqual([]);
      const ids = operations.map((op) => op.id);
      expect(new Set(ids).size).toBe(ids.length);
      const refs = JSON.stringify(doc).match(/#\/components\/schemas\/\w+/g) ?? [];
      const schemas = Object.keys((doc as unknown as { components: { schemas: object } }).components.schemas);
      expect(refs.filter((ref) => !schemas.includes(ref.split('/').pop() as string))).toEqual([]);
    });

    it('is shown by Swagger UI at /docs', async () => {
      const page = await fetch(`${harness.url}/docs`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('/docs/swagger-ui-bundle.js');
      const initializer = await (await fetch(`${harness.url}/docs/swagger-initializer.js`)).text();
      expect(initializer).toContain('"url":"/openapi.json"');
    });
  });
});
