import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';

/**
 * What every app's `create<App>()` returns (README, "Contributing"): the Nest application, not yet
 * listening, and the few things main.ts and tests do with it. Apps extend it with their own parts.
 */
export interface AppHandle {
  readonly app: INestApplication;
  /** Starts listening on the configured host (port 0 picks a free one); resolves to the base URL. */
  listen(port?: number): Promise<string>;
  /** Base URL to reach the app, e.g. `http://127.0.0.1:4010`; known once listening. */
  readonly url: string;
  /** The address the server is bound to, e.g. `127.0.0.1:4010` or `0.0.0.0:4010`; once listening. */
  readonly address: string;
  close(): Promise<void>;
}

export interface AppListenOptions {
  /** Interface to listen on (`127.0.0.1` by default in every app; `0.0.0.0` in containers). */
  host: string;
  /** Port used when `listen()` is given none; 0 picks a free one. */
  port: number;
  /** Called with the base URL once listening (e.g. to learn the URL the app hands out). */
  onListening?: (url: string) => void;
}

/**
 * Wraps a created (not yet listening) Nest application in the common handle, with the app's own
 * parts (`extras`: plain values and functions) beside it.
 */
export function appHandle<E extends object = Record<never, never>>(
  app: INestApplication,
  options: AppListenOptions,
  extras?: E,
): AppHandle & E {
  let bound: { url: string; address: string } | undefined;
  const known = () => {
    if (bound === undefined) throw new Error('The app is not listening yet');
    return bound;
  };
  return {
    ...(extras as E),
    app,
    async listen(port = options.port) {
      await app.listen(port, options.host);
      const address = app.getHttpServer().address() as AddressInfo;
      bound = {
        url: `http://${hostForUrl(reachableHost(address.address))}:${address.port}`,
        address: `${hostForUrl(address.address)}:${address.port}`,
      };
      options.onListening?.(bound.url);
      return bound.url;
    },
    get url() {
      return known().url;
    },
    get address() {
      return known().address;
    },
    close: () => app.close(),
  };
}

/** A wildcard bind is reached through the loopback interface. */
function reachableHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '::1';
  return host;
}

function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
