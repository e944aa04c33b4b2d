// `npm start`: runs every service of scripts/local-stack/services.mjs, each in its own process
// from the build in dist/ (npm's prestart builds it), with a short prefixed log, and one "ready"
// summary once every service answers. Nothing is left behind when it stops, however it stops:
//   - Ctrl-C, TERM or HUP: it stops every service (its whole process group) and says goodbye;
//   - its parent ends (a TERM sent to npm alone kills npm's shell, not this script): it notices
//     the new parent process and stops the same way;
//   - it is killed outright: each service watches its IPC channel (local-stack/exit-with-parent.mjs).
// Before anything starts, every port in use is reported with the variable that moves it; a
// service that fails to start (bad configuration) is reported with the others that fail too.
// Usage: node scripts/start-local-stack.mjs [--verbose] [service name...]
//   --verbose      every line of every service, as it came
//   service names  only these services (npm run start:catalog-sandbox runs "catalog" alone)
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { assertSupportedNode } from './check-node.mjs';
import { eachLine, shortLine } from './local-stack/log-lines.mjs';
import { portInUseLine, portIsFree } from './local-stack/ports.mjs';
import { services } from './local-stack/services.mjs';

assertSupportedNode();

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const exitWithParent = pathToFileURL(join(root, 'scripts/local-stack/exit-with-parent.mjs')).href;
const verbose = process.argv.includes('--verbose');
const chosen = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const env = process.env;
const STOP_GRACE_MS = 5000;
const READY_TIMEOUT_MS = 120_000;
const startedAt = Date.now();

process.stdout.on('error', () => {}); // the terminal or pipe may be gone while we stop
process.stderr.on('error', () => {});
const say = (line) => process.stdout.write(`${line}\n`);

/** @type {Array<{service: object, port: number, url: string, child: import('node:child_process').ChildProcess, state: string, exit?: string, portInUse?: boolean}>} */
const running = [];
let stopping = false;

await main();

async function main() {
  const unknown = chosen.filter((name) => !services.some((service) => service.name === name));
  if (unknown.length > 0) {
    say(`Unknown service ${unknown.join(', ')}: choose from ${services.map((s) => s.name).join(', ')}.`);
    process.exit(1);
  }
  const problems = [];
  const planned = [];
  for (const service of services.filter((s) => chosen.length === 0 || chosen.includes(s.name))) {
    if (!existsSync(join(root, service.entry))) {
      problems.push(`${service.entry} is missing: run "npm run build" first (npm start does it for you).`);
      continue;
    }
    const port = portOf(service);
    if (port === 0) {
      problems.push(
        `${service.portVariable}=0 is not supported by npm start: give ${service.title} a fixed port.`,
      );
    } else if (port !== null && !(await portIsFree(port))) {
      problems.push(portInUseLine(service, port));
    }
    planned.push({ service, port: port ?? service.defaultPort });
  }
  if (problems.length > 0) {
    for (const problem of problems) say(problem);
    process.exit(1);
  }

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(`${signal}`, 0));
  watchParent();
  // Services start together, except those that wait for others of this stack to answer first.
  const waiting = [];
  for (const { service, port } of planned) {
    const after = (service.after ?? []).filter((name) => planned.some((p) => p.service.name === name));
    if (after.length === 0) await start(service, port);
    else waiting.push({ service, port, after });
  }
  for (const { service, port, after } of waiting) {
    await Promise.all(running.filter((entry) => after.includes(entry.service.name)).map(waitReady));
    if (stopping || running.some((entry) => after.includes(entry.service.name) && entry.state !== 'ready'))
      break;
    await start(service, port);
  }
  await Promise.all(running.map(waitReady));
  if (stopping) return;
  const failed = running.filter((entry) => entry.state !== 'ready');
  if (failed.length > 0) {
    const list = failed.map((entry) => `${entry.service.title} (${entry.exit ?? 'no answer'})`).join(', ');
    say(`Could not start ${list}: see the [${failed.map((e) => e.service.name).join('], [')}] lines above.`);
    for (const entry of failed.filter((e) => e.portInUse)) say(portInUseLine(entry.service, entry.port));
    stop(null, 1);
    return;
  }
  printReady();
}

/** The port a service will use: its variable when it is a plain integer, else the default (the service itself refuses a bad value). */
function portOf(service) {
  const raw = env[service.portVariable];
  if (raw === undefined || raw === '') return service.defaultPort;
  return /^\d+$/.test(raw) && Number(raw) <= 65_535 ? Number(raw) : null;
}

function urlOf(service, port) {
  const host = env[service.hostVariable];
  const reachable = !host || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

async function start(service, port) {
  const urls = Object.fromEntries(running.map((entry) => [entry.service.name, entry.url]));
  const own = typeof service.env === 'function' ? await service.env(env, urls, port) : service.env;
  const child = spawn(
    process.execPath,
    [...(service.nodeArgs ?? []), '--import', exitWithParent, service.entry],
    {
      cwd: root,
      env: { ...own, ...env },
      // Own process group, so stopping it stops anything it started; IPC so it notices our end.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  const entry = { service, port, url: urlOf(service, port), child, state: 'starting' };
  running.push(entry);
  const print = (raw) => {
    if (raw.includes('EADDRINUSE')) entry.portInUse = true;
    const line = shortLine(raw, { verbose });
    if (line !== null) say(`[${service.name}] ${line}`);
  };
  eachLine(child.stdout, print);
  eachLine(child.stderr, print);
  child.on('exit', (code, signal) => {
    entry.exit = signal ? `stopped by ${signal}` : `exit code ${code}`;
    const wasReady = entry.state === 'ready';
    entry.state = 'exited';
    if (!stopping && wasReady) {
      say(`[${service.name}] stopped unexpectedly (${entry.exit}); stopping the others.`);
      stop(null, 1);
    }
  });
}

/** Resolves once the service answers HTTP, or has exited, or after READY_TIMEOUT_MS. */
async function waitReady(entry) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (entry.state === 'starting' && !stopping && Date.now() < deadline) {
    try {
      await fetch(`${entry.url}${entry.service.readyPath}`, { signal: AbortSignal.timeout(1000) });
      if (entry.state === 'starting') entry.state = 'ready';
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
}

function printReady() {
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
  const width = Math.max(...running.map((entry) => entry.service.title.length));
  say('');
  say(`Ready in ${seconds} s:`);
  for (const { service, url } of running) {
    const docs = service.docsPath ? `   API docs ${url}${service.docsPath}` : '';
    say(`  ${service.title.padEnd(width)}  ${url}${docs}`);
    for (const detail of service.details(env)) say(`  ${' '.repeat(width)}  ${detail}`);
  }
  const tries = running.map((entry) => entry.service.tryCommand(entry.url, env)).filter(Boolean);
  if (tries.length > 0) say(`Try:  ${tries[0]}`);
  say(`More: the curl examples in ${running.map((entry) => entry.service.readme).join(' and ')}`);
  say('Stop: Ctrl-C');
}

/** Notices that our parent ended (npm was sent TERM and its shell died): we were re-parented. */
function watchParent() {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop('the parent process ended', 0);
  }, 250).unref();
}

/** Stops every service (TERM to its process group, KILL after STOP_GRACE_MS), then exits. */
function stop(reason, code) {
  if (stopping) return;
  stopping = true;
  const alive = running.filter((entry) => entry.child.exitCode === null && entry.child.signalCode === null);
  if (reason !== null) {
    say('');
    say(`Stopping (${reason})${alive.length ? `: ${alive.map((e) => e.service.name).join(', ')}` : ''}...`);
  }
  const groups = running.map((entry) => entry.child.pid).filter((pid) => pid !== undefined);
  const signalGroups = (signal) => {
    for (const pid of groups) {
      try {
        process.kill(-pid, signal);
      } catch {
        // that group is already gone
      }
    }
  };
  const finish = () => {
    signalGroups('SIGKILL'); // whatever a service left in its group
    if (reason !== null) say('Stopped. Goodbye.');
    process.exit(code);
  };
  signalGroups('SIGTERM');
  if (alive.length === 0) finish();
  let left = alive.length;
  for (const entry of alive) {
    entry.child.once('exit', () => {
      left -= 1;
      if (left === 0) finish();
    });
  }
  setTimeout(finish, STOP_GRACE_MS);
}
