import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
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
  let listed = 2;
  const run = (scope: string, state: string, plan: unknown) => ({
    id: '7',
    shop: 'demo.myshopify.com',
    scope,
    productId: null,
    dryRun: true,
    state,
    walkDone: state === 'done',
    listed,
    done: state === 'done' ? listed : 0,
    failed: 0,
    remaining: state === 'done' ? 0 : listed,
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
      if (req.method === 'POST' && path.pathname.endsWith('/write-back')) {
        const shop = path.searchParams.get('shop');
        res.end(
          JSON.stringify({
            shop,
            productId: '11',
            dryRun: true,
            mode: 'live',
            written: 0,
            planned: [],
            conflicts: 0,
            skipped: 0,
            failed: 0,
          }),
        );
        return;
      }
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
    const progress = new PassThrough();
    let drawn = '';
    progress.on('data', (chunk: Buffer) => {
      drawn += chunk.toString();
    });
    const out: CliOutput = {
      line: (t = '') => lines.push(t),
      warn: (t) => lines.push(t),
      progress: progress as unknown as NodeJS.WriteStream,
    };
    const watching = args[0] === 'write-back' ? [] : ['--interval', '100'];
    const code = await runCli(['--url', url, ...args, ...watching], {}, out);
    return { code, lines, drawn };
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

  it('draws no bar for a run with nothing listed (a full bar at 0/0 would read as done)', async () => {
    listed = 0;
    try {
      const { code, lines, drawn } = await cli('resync', '--dry-run');
      expect(code, lines.join('\n')).toBe(0);
      expect(lines[0]).toBe('Resync dry run 7 started: demo.myshopify.com');
      expect(drawn).not.toContain('0/0');
      expect(drawn).not.toContain('resync |');
    } finally {
      listed = 2;
    }
  });

  it('draws the bar with the products counted', async () => {
    const { code, drawn } = await cli('resync', '--dry-run');
    expect(code).toBe(0);
    expect(drawn).toContain('2/2 products');
  });

  it('runs write-back --dry-run without --shop when one shop is configured', async () => {
    requests.length = 0;
    const { code, lines } = await cli('write-back', '11', '--dry-run');
    expect(code, lines.join('\n')).toBe(0);
    expect(requests[0]).toBe('POST /admin/products/11/write-back?shop=demo.myshopify.com&dryRun=true');
    expect(lines[0]).toBe(
      'demo.myshopify.com product 11 (dry run): 0 written, 0 mutations planned, 0 conflicts, 0 skipped, 0 failed',
    );
  });
});
