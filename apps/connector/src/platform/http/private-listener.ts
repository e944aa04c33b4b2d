import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Where a server listens: its base URL (a reachable address) and the address it is bound to. */
export interface Bound {
  /** e.g. `http://127.0.0.1:3000` (a wildcard bind is reached on loopback). */
  url: string;
  /** e.g. `0.0.0.0:3000`. */
  address: string;
}

/** The URL and bound address of a listening server. */
export function boundOf(server: Server): Bound {
  const { address, port } = server.address() as AddressInfo;
  const reachable = address === '0.0.0.0' ? '127.0.0.1' : address === '::' ? '::1' : address;
  const host = (h: string) => (h.includes(':') ? `[${h}]` : h);
  return { url: `http://${host(reachable)}:${port}`, address: `${host(address)}:${port}` };
}

/**
 * The second HTTP server of the connector (`CONNECTOR_ADMIN_PORT`): the same Express app as the
 * public one, so every route and middleware is shared; it only marks the requests it carries, for
 * the listener gate (`listener-gate.ts`) to tell the two apart. Why a second server and not a
 * second app: one set of workers, queues, registries and metrics per process.
 */
export class PrivateListener {
  private readonly carried = new WeakSet<IncomingMessage>();
  private server: Server | null = null;

  /** Whether the request arrived on this listener. */
  arrivedHere(req: IncomingMessage): boolean {
    return this.carried.has(req);
  }

  /** Listens on `port` of `host` (0 picks a free one), serving `handler` (the Express app). */
  async listen(handler: RequestListener, port: number, host: string): Promise<Bound> {
    const server = createServer((req, res) => {
      this.carried.add(req);
      handler(req, res);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    return boundOf(server);
  }

  /** Stops taking connections; resolves once the open ones are done (idle ones are closed at once). */
  close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server === null) return Promise.resolve();
    return new Promise((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
  }
}
