import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../connector-cli.js';
import type { CliOutput } from '../context/cli-context.js';

// The drift commands' usage, without a connector: listed in the help, and a repair refused
// unless the operator names what to repair (one way).
describe('drift command', () => {
  const run = async (...args: string[]) => {
    const lines: string[] = [];
    const out: CliOutput = {
      line: (t = '') => lines.push(t),
      warn: (t) => lines.push(t),
      progress: process.stderr,
    };
    const code = await runCli(args, {}, out);
    return { code, text: lines.join('\n') };
  };

  it('is listed in the help, with run, show and repair', async () => {
    expect((await run('--help')).text).toMatch(/^ {2}drift /m);
    const help = (await run('drift', '--help')).text;
    for (const sub of ['run', 'show', 'repair']) expect(help).toMatch(new RegExp(`^ {2}${sub} `, 'm'));
  });

  it('refuses a repair without a choice, or with two', async () => {
    const none = await run('drift', 'repair', '12');
    expect(none.code).toBe(2);
    expect(none.text).toContain('choose the findings: --finding <id>..., --kind <kind> or --all');
    expect((await run('drift', 'repair', '12', '--all', '--finding', '3')).code).toBe(2);
  });
});

// Against a fake admin API: the repair's body carries --preview and --confirm-loss; a delete that
// would lose approved enrichment is shown with what is lost; a 503 while the catalog's breaker is
// open is shown with when to retry.
describe('drift repair against the admin API', () => {
  let server: Server;
  let url: string;
  const bodies: unknown[] = [];
  let breakerOpen = false;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => {
        raw += chunk;
      });
      req.on('end', () => {
        res.setHeader('Content-Type', 'application/json');
        if (breakerOpen) {
          res.statusCode = 503;
          res.setHeader('Retry-After', '30');
          res.end(
            JSON.stringify({
              error: {
                code: 'catalog_unavailable',
                message:
                  "The catalog's circuit breaker is open (the catalog is failing): nothing was read or changed. Try again in 30 s.",
                requestId: 'r1',
                details: { breaker: 'open', reason: 'unavailable', retryAfterSeconds: 30 },
              },
            }),
          );
          return;
        }
        const body = JSON.parse(raw || '{}') as { preview?: boolean; confirmLoss?: string[] };
        bodies.push(body);
        const repairs = body.preview
          ? [
              {
                findingId: '3',
                kind: 'record-gone',
                repair: 'resync',
                outcome: 'preview',
                effect: 'recreates the record under a new skuId',
              },
            ]
          : body.confirmLoss?.includes('S-9')
            ? [{ findingId: '4', kind: 'orphan', repair: 'delete-record', outcome: 'deleted' }]
            : [
                {
                  findingId: '4',
                  kind: 'orphan',
                  repair: 'delete-record',
                  outcome: 'needs-confirmation',
                  reason: 'record S-9 holds approved enrichment (aiDescription)',
                  loses: ['aiDescription'],
                  skuId: 'S-9',
                },
              ];
        res.end(JSON.stringify({ repairs }));
      });
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
    const code = await runCli(['--url', url, ...args], { CONNECTOR_ADMIN_TOKEN: 'x'.repeat(32) }, out);
    return { code, text: lines.join('\n') };
  };

  it('previews, asks for --confirm-loss naming what is lost, then deletes with it', async () => {
    const preview = await cli('drift', 'repair', '7', '--finding', '3', '--preview');
    expect(preview.code).toBe(0);
    expect(preview.text).toContain('it recreates the record under a new skuId');
    const held = await cli('drift', 'repair', '7', '--finding', '4');
    expect(held.code).toBe(1);
    expect(held.text).toContain(
      'would lose the approved aiDescription of S-9: repeat with --confirm-loss S-9',
    );
    const confirmed = await cli('drift', 'repair', '7', '--finding', '4', '--confirm-loss', 'S-9');
    expect(confirmed.code).toBe(0);
    expect(bodies).toEqual([
      { ids: ['3'], preview: true },
      { ids: ['4'] },
      { ids: ['4'], confirmLoss: ['S-9'] },
    ]);
  });

  it("shows the catalog breaker's 503 with when to retry", async () => {
    breakerOpen = true;
    const answered = await cli('drift', 'run', 'demo.myshopify.com');
    breakerOpen = false;
    expect(answered.code).toBe(1);
    expect(answered.text).toContain('Try again in 30 s. (catalog_unavailable, HTTP 503)');
  });
});
