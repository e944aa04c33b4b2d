import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OverviewDto, ShopOverviewDto } from '../../overview/overview.dto.js';
import { runCli } from '../connector-cli.js';
import type { CliOutput } from '../context/cli-context.js';

// `connector status` pages the overview as `connector shops` pages the shops: the page's flags go
// to `GET /admin/overview` as given, and the last line says which shops were shown of how many
// and the command of the next page.
describe('connector status, a page at a time', () => {
  let server: Server;
  let url: string;
  const requests: string[] = [];
  const shops = Array.from({ length: 200 }, (_, i) => `shop-${String(i).padStart(3, '0')}.myshopify.com`);
  const healthy = (shop: string): ShopOverviewDto =>
    ({
      shop,
      state: 'healthy',
      reasons: ['everything gets through'],
      causes: [],
    }) as unknown as ShopOverviewDto;

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      if (query.get('limit') === 'many') {
        res.statusCode = 400;
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ error: { code: 'bad_request', message: 'limit must be an integer.' } }));
        return;
      }
      const q = query.get('q') ?? '';
      const matching = shops.filter((s) => s.includes(q));
      const limit = Number(query.get('limit') ?? 50);
      const offset = query.has('offset')
        ? Number(query.get('offset'))
        : (Number(query.get('page') ?? 1) - 1) * limit;
      const view = {
        at: '2026-01-01T00:00:00.000Z',
        shops: matching.slice(offset, offset + limit).map(healthy),
        total: matching.length,
        offset,
        limit,
        stateCounts: { failing: 0, degraded: 0, healthy: shops.length },
      } as unknown as OverviewDto;
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(view));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const status = async (...args: string[]) => {
    const lines: string[] = [];
    const out: CliOutput = {
      line: (t = '') => lines.push(t),
      warn: (t) => lines.push(t),
      progress: process.stderr,
    };
    requests.length = 0;
    const code = await runCli(['--url', url, 'status', ...args], {}, out);
    return { code, lines };
  };

  it('shows the first 50 of 200 and the next page', async () => {
    const { code, lines } = await status();
    expect(code).toBe(0);
    expect(requests).toEqual(['GET /admin/overview']);
    expect(lines.filter((l) => l.endsWith(': healthy'))).toHaveLength(50);
    expect(lines[0]).toBe('shop-000.myshopify.com: healthy');
    expect(lines.at(-1)).toBe(
      'shops 1 to 50 of 200, worst first (every shop: 0 failing, 0 degraded, 200 healthy); next page: npm run connector -- status --page 2',
    );
  });

  it('passes --page and --limit, and says the last page is the last', async () => {
    const second = await status('--page', '2', '--limit', '80');
    expect(requests).toEqual(['GET /admin/overview?limit=80&page=2']);
    expect(second.lines[0]).toBe('shop-080.myshopify.com: healthy');
    expect(second.lines.at(-1)).toMatch(
      /^shops 81 to 160 of 200, .*; next page: .* status --limit 80 --page 3$/,
    );
    const last = await status('--page', '3', '--limit', '80');
    expect(last.lines.filter((l) => l.endsWith(': healthy'))).toHaveLength(40);
    expect(last.lines.at(-1)).toBe(
      'shops 161 to 200 of 200, worst first (every shop: 0 failing, 0 degraded, 200 healthy)',
    );
  });

  it('passes --state, --q and --offset, and repeats the filter in the next page', async () => {
    const { code, lines } = await status(
      '--state',
      'healthy',
      '--q',
      'shop-1',
      '--offset',
      '5',
      '--limit',
      '10',
    );
    expect(code).toBe(0);
    expect(requests).toEqual(['GET /admin/overview?state=healthy&q=shop-1&limit=10&offset=5']);
    expect(lines[0]).toBe('shop-105.myshopify.com: healthy');
    expect(lines.at(-1)).toBe(
      'shops 6 to 15 of 100, worst first (every shop: 0 failing, 0 degraded, 200 healthy); next page: npm run connector -- status --state healthy --q shop-1 --limit 10 --offset 15',
    );
  });

  it('says a page past the end holds no shop', async () => {
    const { lines } = await status('--page', '9');
    expect(lines).toEqual([
      'no shop on this page: 200 match, of every shop 0 failing, 0 degraded, 200 healthy',
    ]);
  });

  it("makes a value the API refuses a usage error (exit 2), with the API's message", async () => {
    const { code, lines } = await status('--limit', 'many');
    expect(code).toBe(2);
    expect(lines.join('\n')).toContain('limit must be an integer.');
  });

  it('prints the page whole with --json', async () => {
    const { lines } = await status('--json', '--limit', '2');
    const view = JSON.parse(lines.join('\n')) as OverviewDto;
    expect(view.shops.map((s) => s.shop)).toEqual(['shop-000.myshopify.com', 'shop-001.myshopify.com']);
    expect(view.total).toBe(200);
  });
});
