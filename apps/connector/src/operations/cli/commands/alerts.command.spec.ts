import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../connector-cli.js';
import type { CliOutput } from '../context/cli-context.js';

const TARGET = {
  id: '4',
  label: 'on-call',
  kind: 'webhook',
  shop: null,
  url: 'https://hooks.example.com/…',
  signed: true,
  createdAt: '2026-03-01T10:00:00.000Z',
  problem: null,
};

// The alerts commands against a fake admin API: what each sends (method, path, body), and what
// it prints: a generated secret once, a given one never; the targets and the latest notifications.
describe('alerts command', () => {
  let server: Server;
  let url: string;
  let dir: string;
  const calls: Array<{ method: string; path: string; body: unknown }> = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cli-alerts-'));
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => {
        raw += chunk;
      });
      req.on('end', () => {
        const body = raw === '' ? undefined : (JSON.parse(raw) as Record<string, unknown>);
        calls.push({ method: req.method ?? '', path: req.url ?? '', body });
        res.setHeader('Content-Type', 'application/json');
        if (req.method === 'POST') {
          res.statusCode = 201;
          const generated = body?.secret === undefined && body?.kind === 'webhook';
          res.end(
            JSON.stringify({ ...TARGET, ...(generated ? { secret: 'generated-secret-0123456789' } : {}) }),
          );
        } else if (req.method === 'DELETE') {
          res.statusCode = 204;
          res.end();
        } else if (req.url?.startsWith('/admin/alert-deliveries')) {
          res.end(
            JSON.stringify({
              deliveries: [
                {
                  id: '9',
                  targetId: '4',
                  target: 'on-call',
                  kind: 'webhook',
                  shop: 'demo.myshopify.com',
                  from: 'healthy',
                  to: 'failing',
                  cause: 'syncing is paused by an operator (maintenance)',
                  state: 'delivered',
                  attempts: 3,
                  lastStatus: 200,
                  lastError: null,
                  changedAt: '2026-03-01T10:00:00.000Z',
                  createdAt: '2026-03-01T10:02:00.000Z',
                  deliveredAt: '2026-03-01T10:02:01.000Z',
                },
              ],
            }),
          );
        } else {
          res.end(JSON.stringify({ targets: [TARGET] }));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
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

  it('adds a webhook, printing its generated secret once; a secret from a file is sent, never printed', async () => {
    calls.length = 0;
    const added = await cli('alerts', 'add', 'webhook', 'https://hooks.example.com/x', '--label', 'on-call');
    expect(added.code).toBe(0);
    expect(added.text).toContain('Added alert target #4  on-call  (webhook, signed)  every shop');
    expect(added.text).toContain('generated-secret-0123456789');
    const file = join(dir, 'secret');
    await writeFile(file, 'my-own-secret-of-enough-length\n');
    const given = await cli(
      'alerts',
      'add',
      'webhook',
      'https://hooks.example.com/y',
      '--shop',
      'demo.myshopify.com',
      '--secret-file',
      file,
    );
    expect(given.code).toBe(0);
    expect(given.text).not.toContain('my-own-secret');
    expect(calls).toEqual([
      {
        method: 'POST',
        path: '/admin/alert-targets',
        body: { kind: 'webhook', url: 'https://hooks.example.com/x', label: 'on-call' },
      },
      {
        method: 'POST',
        path: '/admin/alert-targets',
        body: {
          kind: 'webhook',
          url: 'https://hooks.example.com/y',
          shop: 'demo.myshopify.com',
          secret: 'my-own-secret-of-enough-length',
        },
      },
    ]);
  });

  it('refuses a kind it does not know as a usage error', async () => {
    const refused = await cli('alerts', 'add', 'email', 'https://x.example.com');
    expect(refused.code).toBe(2);
    expect(refused.text).toContain('the kind is webhook or slack');
  });

  it('lists the targets and the latest notifications, and removes one', async () => {
    const listed = await cli('alerts', 'list', '--deliveries');
    expect(listed.code).toBe(0);
    expect(listed.text).toContain('#4  on-call  (webhook, signed)  every shop  https://hooks.example.com/…');
    expect(listed.text).toContain(
      'demo.myshopify.com  healthy -> failing  to on-call: delivered after 3 attempt(s) (answered 200)  cause: syncing is paused by an operator (maintenance)',
    );
    calls.length = 0;
    const removed = await cli('alerts', 'remove', '4');
    expect(removed.code).toBe(0);
    expect(removed.text).toBe('Removed alert target 4.');
    expect(calls).toEqual([{ method: 'DELETE', path: '/admin/alert-targets/4', body: undefined }]);
  });
});
