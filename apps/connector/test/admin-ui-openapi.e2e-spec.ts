import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/admin-client.js';
import { uiPage, uiSessionCookie } from './support/admin-ui-session.js';
import { type ConnectorHarness, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { type TestShop, testShop } from './support/test-shop.js';

type Schema = {
  $ref?: string;
  type?: string;
  required?: string[];
  properties?: Record<string, Record<string, unknown>>;
};
type Operation = {
  operationId: string;
  tags: string[];
  description?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Record<string, unknown> }>;
  requestBody?: { required: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

const FORM = 'application/x-www-form-urlencoded';
const HTML = { 'text/html': { schema: { type: 'string' } } };

// The web view's routes declare themselves on their controllers (`ui-openapi.decorators.ts`):
// the served document keeps their operationIds, the `adminSession` cookie, HTML answers and
// errors, 303 for the actions that redirect, and each form body (`ui-forms.dto.ts`), which is
// also what checks the form the route reads (a wrong field: a 400 page).
describe('/admin/ui in the OpenAPI document, and its forms checked by the same declaration', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let shop: TestShop;
  let doc: Document;
  const token = `admin-${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    shop = testShop();
    await sandboxes.addShop(shop);
    harness = await startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: (await sandboxes.account()).apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: { CONNECTOR_ADMIN_TOKEN: token },
    });
    doc = (await call<Document>(harness.url, 'GET', '/openapi.json')).body;
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  const operation = (path: string, method: string) => doc.paths[path]?.[method] as Operation;
  const formOf = (op: Operation): Schema => {
    const schema = op.requestBody?.content[FORM]?.schema ?? {};
    return schema.$ref ? (doc.components.schemas[schema.$ref.split('/').pop() as string] ?? {}) : schema;
  };

  it('keeps each page: operationId, tag, session cookie, HTML answer and HTML errors, its parameters', () => {
    const deliveries = operation('/admin/ui/deliveries', 'get');
    expect(deliveries).toMatchObject({
      operationId: 'uiDeliveries',
      tags: ['admin-ui'],
      security: [{ adminSession: [] }],
    });
    expect(deliveries.responses['200']?.content).toEqual(HTML);
    for (const status of ['401', '500', '503']) expect(deliveries.responses[status]?.content).toEqual(HTML);
    expect(deliveries.parameters).toContainEqual(
      expect.objectContaining({
        name: 'state',
        in: 'query',
        required: false,
        schema: expect.objectContaining({ enum: ['received', 'done', 'rejected'] }),
      }),
    );
    expect(operation('/admin/ui/products/{id}', 'get').parameters).toContainEqual(
      expect.objectContaining({
        name: 'id',
        in: 'path',
        schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
      }),
    );
    expect(operation('/admin/ui', 'get').description).toContain('/admin/ui/queues/');
    const csv = operation('/admin/ui/shops/{shop}/preview.csv', 'get');
    expect(csv.operationId).toBe('uiShopPreviewCsv');
    expect(csv.responses['200']?.content).toEqual({ 'text/csv': { schema: { type: 'string' } } });
    expect(csv.responses['400']?.content).toEqual(HTML);
  });

  it('keeps each action: a form with the CSRF token, 303 where it redirects, the sign-in form without a session', () => {
    const signIn = operation('/admin/ui/login', 'post');
    expect(signIn).toMatchObject({ operationId: 'uiSignIn', tags: ['admin-ui'], security: [] });
    expect(Object.keys(signIn.responses).sort()).toEqual(['303', '401', '429', '500', '503']);
    expect(formOf(signIn)).toMatchObject({
      required: ['token'],
      properties: { token: { type: 'string', format: 'password' } },
    });

    const pause = operation('/admin/ui/shops/{shop}/pause', 'post');
    expect(pause).toMatchObject({ operationId: 'uiShopPause', security: [{ adminSession: [] }] });
    expect(pause.requestBody?.required).toBe(true);
    expect(Object.keys(pause.requestBody?.content ?? {})).toEqual([FORM]);
    expect(formOf(pause)).toMatchObject({
      required: ['_csrf'],
      properties: { _csrf: { type: 'string' }, reason: { type: 'string', maxLength: 500 } },
    });
    expect(pause.responses['303']).toEqual({ description: 'Done: see the page in Location' });
    expect(pause.responses['200']).toBeUndefined();
    expect(pause.responses['403']?.content).toEqual(HTML);

    const replay = operation('/admin/ui/failures/{id}/replay', 'post');
    expect(replay.operationId).toBe('uiReplayFailure');
    expect(Object.keys(replay.responses)).toContain('303');
    expect(formOf(replay).required).toEqual(['_csrf']);

    const mode = operation('/admin/ui/shops/{shop}/mode', 'post');
    expect(mode.operationId).toBe('uiShopMode');
    expect(mode.responses['200']?.content).toEqual(HTML);
    expect(formOf(mode).properties?.mode).toMatchObject({ enum: ['live', 'shadow'] });
  });

  it('checks a form against its declaration: a wrong field is a 400 page; a field not declared is dropped', async () => {
    const cookie = await uiSessionCookie(harness.url, token);
    const confirm = await uiPage(harness.url, cookie, `/admin/ui/shops/${shop.domain}/pause`);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(confirm.html)?.[1] as string;
    expect(csrf).toBeTruthy();
    const post = (path: string, form: Record<string, string>) =>
      fetch(`${harness.url}${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': FORM },
        body: new URLSearchParams({ _csrf: csrf, ...form }),
        redirect: 'manual',
      });
    const pauses = async () =>
      (
        await call<{ pauses: Array<{ scope: string; reason: string }> }>(
          harness.url,
          'GET',
          '/admin/queues',
          token,
        )
      ).body.pauses.filter((p) => p.scope === shop.domain);

    const tooLong = await post(`/admin/ui/shops/${shop.domain}/pause`, { reason: 'x'.repeat(501) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.headers.get('content-type')).toContain('text/html');
    expect(await tooLong.text()).toContain('reason is at most 500 characters.');
    expect(await pauses()).toEqual([]);

    const wrongMode = await post(`/admin/ui/shops/${shop.domain}/mode`, { mode: 'sideways' });
    expect(wrongMode.status).toBe(400);
    expect(await wrongMode.text()).toContain('mode must be one of live, shadow.');

    // A button names itself (`action`): not declared by the pause form, so dropped, not refused.
    const paused = await post(`/admin/ui/shops/${shop.domain}/pause`, {
      reason: ' upkeep ',
      action: 'Pause',
    });
    expect(paused.status).toBe(303);
    expect(await pauses()).toMatchObject([{ reason: 'upkeep' }]);
    const resumed = await post(`/admin/ui/shops/${shop.domain}/resume`, {});
    expect(resumed.status).toBe(303);
    expect(await pauses()).toEqual([]);
  });
});
