// `npm start`: runs every service that exists today, each in its own process, from the build in
// dist/ (npm's prestart builds it). Today: the catalog sandbox (:4010) and the Shopify sandbox
// (:4020); the connector joins when it lands. Stops them all when one stops or on Ctrl-C.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const services = [
  { name: 'catalog-sandbox', entry: 'dist/apps/catalog-sandbox/src/main.js' },
  { name: 'shopify-sandbox', entry: 'dist/apps/shopify-sandbox/src/main.js' },
];

const children = [];
let stopping = false;

function stopAll(code) {
  if (stopping) return;
  stopping = true;
  const running = children.filter((child) => child.exitCode === null);
  if (running.length === 0) process.exit(code);
  let left = running.length;
  for (const child of running) {
    child.once('exit', () => {
      left -= 1;
      if (left === 0) process.exit(code);
    });
    child.kill('SIGTERM');
  }
  setTimeout(() => process.exit(code), 3_000).unref();
}

for (const service of services) {
  if (!existsSync(service.entry)) {
    console.error(`${service.entry} is missing: run "npm run build" first (npm start does it for you).`);
    process.exit(1);
  }
  const child = spawn(process.execPath, [service.entry], { stdio: 'inherit', env: process.env });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${service.name} stopped (${signal ?? `exit code ${code}`}); stopping the others.`);
      stopAll(code ?? 1);
    }
  });
  children.push(child);
}

process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
