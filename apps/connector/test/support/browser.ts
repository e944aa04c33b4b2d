import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's chromium package (`.ci/run` installs it when missing); browser downloads are blocked here. */
export const CHROMIUM = '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A real headless chromium with a fresh profile; `close` removes the profile too. */
export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function startBrowser(options: { bypassCSP?: boolean } = {}): Promise<TestBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'connector-ui-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    // An accessibility check injects axe-core's script, which the pages' CSP forbids otherwise.
    bypassCSP: options.bypassCSP ?? false,
    args: ARGS, // the fresh profile goes in as --user-data-dir (playwright refuses it among args)
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      await rm(profile, { recursive: true, force: true });
    },
  };
}
