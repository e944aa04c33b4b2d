import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../connector-cli.js';
import type { CliOutput } from '../context/cli-context.js';

// `reconcile --dry-run` and `resync --dry-run` against a fake admin API: the run is started with
// dryRun=true, watched until it ends, then its plan printed (counts, each product's calls and
// changed fields), every page of it.
describe('reconcile and resync --dry-run', () => {
  let server: Server;
  let url: string;
  const requests: string[] = [];
  const run = (scope: string, state: string, plan: unknown) => ({
    id: '7',
    shop: 'demo.myshopify.com',
    scope,
    productId: null,
    dryRun: true,
    state,
    walkDone: state === 'done',
    listed: 2,
    done: state === 'done' ? 2 : 0,
    failed: 0,
    remaining: state === 'done' ? 0 : 2,
    etaSeconds: null,
    error: null,
    plan,
  });
  const counts = { products: 2, changed: 2, creates: 0, uploads: 0, patches: 1, deletes: 1, total: 2 };
  const patch = {
    kind: 'updateProduct',
    method: 'PATCH',
    path: '/v1/products/SK1',
    supplierSku: 'demo:product:11',
    body: {},
    before: { name: 'Mug' },
    after: { name: 'Big mug' },
  };
  const remove = { ...patch, kind: 'deleteProduct', method: 'DELETE', path: '/v1/products/SK2', after: null };

  beforeAll(async () => {
    let scope = 'reconcile';
    server = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      const path = new URL(req.url ?? '/', 'http://x');
      res.setHeader('Content-Type', 'application/json');
      if (req.method === 'POST') {
        scope = path.pathname === '/admin/reconcile' ? 'reconcile' : 'shop';
        res.end(JSON.stringify(run(scope, 'running', { counts, products: [], nextPlanAfter: null })));
        return;
      }
      const second = path.searchParams.get('planAfter') === '11';
      const products = second
        ? [{ productId: '12', found: false, result: 'applied', detail: null, calls: [remove] }]
        : [{ productId: '11', found: true, result: 'applied', detail: null, calls: [patch] }];
      res.end(JSON.stringify(run(scope, 'done', { counts, products, nextPlanAfter: second ? null : '11' })));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const cli = async (...args: string[]) => {
    const lines: string[] = [];
    const out: CliOutput = {
      line: (t = '') => lines.push(t),
      warn: (t) => lines.push(t),
      progress: process.stderr,
    };
    const code = await runCli(['--url', url, ...args, '--interval', '100'], {}, out);
    return { code, lines };
  };

  it('starts a dry run, waits for it, and prints every page of its plan', async () => {
    for (const command of ['reconcile', 'resync']) {
      requests.length = 0;
      const { code, lines } = await cli(command, '--dry-run');
      expect(code, lines.join('\n')).toBe(0);
      expect(requests[0]).toBe(`POST /admin/${command}?shop=demo.myshopify.com&dryRun=true`);
      expect(requests).toContain('GET /admin/resync/7?planAfter=11');
      expect(lines).toEqual([
        `${command === 'reconcile' ? 'Reconciliation' : 'Resync'} dry run 7 started: demo.myshopify.com`,
        'Dry run 7 done: 2 product(s) planned, 2 with calls: 0 creates, 0 uploads, 1 patches, 1 deletes would be sent; nothing sent.',
        'product 11:',
        '  PATCH /v1/products/SK1 (demo:product:11)',
        '    name: "Mug" -> "Big mug"',
        'product 12 (gone from Shopify):',
        '  DELETE /v1/products/SK2 (demo:product:11)',
        '    name: "Mug" -> null',
      ]);
    }
  });
});
