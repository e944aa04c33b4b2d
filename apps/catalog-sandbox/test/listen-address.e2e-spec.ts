import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createCatalogSandbox, loadCatalogSandboxConfig } from '../src/index.js';

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** An IPv4 address of this machine other than loopback, if it has one. */
function externalAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
}

describe('catalog sandbox: where it listens', () => {
  it('listens on 127.0.0.1 only when CATALOG_SANDBOX_HOST is unset, and says so', async () => {
    const config = loadCatalogSandboxConfig({ CATALOG_SANDBOX_PORT: '0', CATALOG_SANDBOX_SEED: 'none' });
    const sandbox = await createCatalogSandbox(config, { logger: false });
    try {
      const url = await sandbox.listen();
      const port = Number(new URL(url).port);
      expect(sandbox.address).toBe(`127.0.0.1:${port}`);
      expect(url).toBe(`http://127.0.0.1:${port}`);
      expect(await accepts('127.0.0.1', port)).toBe(true);
      const external = externalAddress();
      if (external) expect(await accepts(external, port)).toBe(false);
    } finally {
      await sandbox.close();
    }
  });

  it('listens on every interface with CATALOG_SANDBOX_HOST=0.0.0.0 (containers), reporting the real address', async () => {
    const config = loadCatalogSandboxConfig({
      CATALOG_SANDBOX_HOST: '0.0.0.0',
      CATALOG_SANDBOX_PORT: '0',
      CATALOG_SANDBOX_SEED: 'none',
    });
    const sandbox = await createCatalogSandbox(config, { logger: false });
    try {
      const url = await sandbox.listen();
      const port = Number(new URL(url).port);
      expect(sandbox.address).toBe(`0.0.0.0:${port}`);
      expect(url).toBe(`http://127.0.0.1:${port}`);
      const external = externalAddress();
      if (external) expect(await accepts(external, port)).toBe(true);
    } finally {
      await sandbox.close();
    }
  });
});
