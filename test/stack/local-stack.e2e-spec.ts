import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  answers,
  descendants,
  processAlive,
  type RunningProcess,
  sleep,
  stackPorts,
  startProcess,
} from './support/stack-process.js';

// `npm start` as people run it (dist/ is built once by this project's global setup, so the
// tests pass --ignore-scripts: npm then skips the prestart build, and no test rewrites dist/
// while another one boots from it).
const READY = /^Stop: Ctrl-C$/m;
const started: RunningProcess[] = [];
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((run) => run.killGroup()));
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

function run(command: string, args: string[], env: Record<string, string>): RunningProcess {
  const process = startProcess(command, args, env);
  started.push(process);
  return process;
}

/** Waits until none of `pids` is alive and nothing answers on `urls`, for at most `ms`. */
async function allGone(
  pids: number[],
  urls: string[],
  ms: number,
): Promise<{ alive: number[]; listening: string[] }> {
  const deadline = Date.now() + ms;
  for (;;) {
    const alive = pids.filter(processAlive);
    const listening: string[] = [];
    for (const url of urls) if (await answers(url)) listening.push(url);
    if ((alive.length === 0 && listening.length === 0) || Date.now() > deadline) return { alive, listening };
    await sleep(200);
  }
}

describe('npm start: the local stack', () => {
  it('prints a short prefixed log and one ready summary, then a TERM to npm alone ends every process', async () => {
    const ports = await stackPorts();
    const npm = run('npm', ['start', '--ignore-scripts'], ports.env);
    const output = await npm.waitForOutput(READY);
    const catalog = `http://127.0.0.1:${ports.catalog}`;
    const shopify = `http://127.0.0.1:${ports.shopify}`;
    const connector = `http://127.0.0.1:${ports.connector}`;

    // Short and prefixed: no route listings, every service line says whose it is.
    const lines = output.split('\n');
    expect(output).not.toMatch(/RouterExplorer|RoutesResolver|Mapped \{/);
    expect(lines.filter((line) => line.startsWith('[catalog] ')).length).toBeGreaterThan(0);
    expect(lines.filter((line) => line.startsWith('[shopify] ')).length).toBeGreaterThan(0);
    expect(lines.filter((line) => line.startsWith('[connector] ')).length).toBeGreaterThan(0);
    expect(lines.filter((line) => /^\[Nest\]/.test(line))).toEqual([]);
    // The summary is 15 lines and the services' start about 10; the connector's first work for the
    // demo shop (subscriptions, mapping check, five metafield definitions, a drift report: 8 lines)
    // runs while the summary is printed and may land before its last line on a slow machine.
    expect(lines.length).toBeLessThan(40);
    expect(
      lines.slice(
        0,
        lines.findIndex((line) => /^Ready in /.test(line)),
      ).length,
    ).toBeLessThan(22);
    // One summary: each URL, the demo credentials, the next command to try.
    expect(output.match(/^Ready in [\d.]+ s:$/gm)).toHaveLength(1);
    expect(output).toContain(`catalog sandbox  ${catalog}   API docs ${catalog}/docs`);
    expect(output).toContain(`Shopify sandbox  ${shopify}`);
    expect(output).toContain(`connector        ${connector}`);
    // The connector started after the sandboxes, configured from their URLs: it is ready for webhooks.
    expect((await fetch(`${connector}/health/ready`)).status).toBe(200);
    for (const credential of [
      'demo-api-key-0001',
      'sandbox-portal-token',
      'shpat_sandbox_demo_token',
      'sandbox-control-token',
      'Bearer connector-admin-token',
    ]) {
      expect(output).toContain(credential);
    }
    // The printed admin token opens the connector's admin API.
    const failures = await fetch(`${connector}/admin/failures`, {
      headers: { Authorization: 'Bearer connector-admin-token' },
    });
    expect(failures.status).toBe(200);
    const tryLine = /^Try: {2}curl -s (\S+) -H '(X-API-Key): ([^']+)'$/m.exec(output);
    expect(tryLine?.[1]).toBe(`${catalog}/v1/taxonomies`);
    const tried = await fetch(tryLine?.[1] as string, {
      headers: { [tryLine?.[2] as string]: tryLine?.[3] as string },
    });
    expect(tried.status).toBe(200);

    // An IDE stop button or a process manager signals npm's process only.
    const tree = descendants(npm.pid);
    expect(tree.length).toBeGreaterThanOrEqual(4); // sh, the stack script, three services
    process.kill(npm.pid, 'SIGTERM');
    const left = await allGone([npm.pid, ...tree], [catalog, shopify, connector], 10_000);
    expect(left).toEqual({ alive: [], listening: [] });
    expect(npm.output()).toMatch(/Stopped\. Goodbye\.$/m);
  });

  it('says goodbye on Ctrl-C (INT to the whole foreground group) and exits 0', async () => {
    const ports = await stackPorts();
    const stack = run('node', ['scripts/start-local-stack.mjs'], ports.env);
    await stack.waitForOutput(READY);
    const tree = descendants(stack.pid);
    process.kill(-stack.pid, 'SIGINT');
    expect(await stack.exited).toEqual({ code: 0, signal: null });
    expect(stack.output()).toMatch(
      /Stopping \(SIGINT\): catalog, shopify, connector\.\.\.\n(\[\w+\] .*\n)*Stopped\. Goodbye\.\n$/,
    );
    const left = await allGone(tree, [`http://127.0.0.1:${ports.catalog}`], 10_000);
    expect(left).toEqual({ alive: [], listening: [] });
  });

  it('leaves nothing running when the stack script itself is killed outright', async () => {
    const ports = await stackPorts();
    const stack = run('node', ['scripts/start-local-stack.mjs'], ports.env);
    await stack.waitForOutput(READY);
    const services = descendants(stack.pid);
    expect(services.length).toBeGreaterThanOrEqual(3); // three services (and an embedded PostgreSQL without DATABASE_URL)
    process.kill(stack.pid, 'SIGKILL');
    const urls = [
      `http://127.0.0.1:${ports.catalog}`,
      `http://127.0.0.1:${ports.shopify}`,
      `http://127.0.0.1:${ports.connector}`,
    ];
    expect(await allGone(services, urls, 10_000)).toEqual({ alive: [], listening: [] });
  });

  it('runs one service alone for npm run start:<service>', async () => {
    const ports = await stackPorts();
    const npm = run('npm', ['run', 'start:shopify-sandbox', '--ignore-scripts'], ports.env);
    const output = await npm.waitForOutput(READY);
    expect(output).toContain(`Shopify sandbox  http://127.0.0.1:${ports.shopify}`);
    expect(output).not.toContain('[catalog]');
    expect(await answers(`http://127.0.0.1:${ports.catalog}/openapi.json`)).toBe(false);
    const tree = descendants(npm.pid);
    process.kill(npm.pid, 'SIGTERM');
    expect(await allGone(tree, [`http://127.0.0.1:${ports.shopify}`], 10_000)).toEqual({
      alive: [],
      listening: [],
    });
  });

  it('names the variable to set when a port is in use, and starts nothing', async () => {
    const ports = await stackPorts();
    const blocker = createServer();
    servers.push(blocker);
    await new Promise<void>((resolve) => blocker.listen(ports.catalog, '127.0.0.1', resolve));
    const stack = run('node', ['scripts/start-local-stack.mjs'], ports.env);
    expect((await stack.exited).code).toBe(1);
    expect(stack.output()).toBe(
      `Port ${ports.catalog} (catalog sandbox) is in use by another program: stop it, or set CATALOG_SANDBOX_PORT ` +
        `to a free port, e.g. CATALOG_SANDBOX_PORT=${ports.catalog + 1} npm start\n`,
    );
    expect(await answers(`http://127.0.0.1:${ports.shopify}/`)).toBe(false);
  });

  it('reports a bad configuration of every service, in plain bounds', async () => {
    const ports = await stackPorts();
    const stack = run('node', ['scripts/start-local-stack.mjs'], {
      ...ports.env,
      CATALOG_SANDBOX_RATE_BURST: '0',
      SHOPIFY_SANDBOX_COST_BUCKET_SIZE: '0',
    });
    expect((await stack.exited).code).toBe(1);
    const output = stack.output();
    expect(output).toMatch(/^\[catalog\] .*CATALOG_SANDBOX_RATE_BURST must be at least 1, got 0$/m);
    expect(output).toMatch(/^\[shopify\] .*SHOPIFY_SANDBOX_COST_BUCKET_SIZE must be at least 1, got 0$/m);
    expect(output).not.toMatch(/\binf\b/);
    expect(output).toMatch(
      /^Could not start catalog sandbox \(exit code 1\), Shopify sandbox \(exit code 1\)/m,
    );
    expect(output).not.toContain('Ready in');
  });
});
