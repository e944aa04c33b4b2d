import type { Connector } from '../../src/index.js';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** Every route the running connector registered, as `METHOD /path/{param}` (OpenAPI style). */
export function registeredRoutes(connector: Connector): string[] {
  const express = connector.app.getHttpAdapter().getInstance() as { router: { stack: Layer[] } };
  return express.router.stack
    .filter((layer) => layer.route)
    .flatMap((layer) => {
      const route = layer.route as NonNullable<Layer['route']>;
      const path = route.path.replace(/:(\w+)/g, '{$1}').replace(/(.)\/$/, '$1');
      return Object.keys(route.methods).map((method) => `${method.toUpperCase()} ${path}`);
    });
}

/** An HTTP answer, its body parsed when it is JSON. */
export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** Calls `METHOD path` on the connector with the given bearer token (none when undefined), and a JSON body if given. */
export async function call<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<Answer<T>> {
  const headers: Record<string, string> = token === undefined ? {} : { Authorization: `Bearer ${token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').includes('json');
  return {
    status: response.status,
    body: (json && text ? JSON.parse(text) : {}) as T,
    text,
    headers: response.headers,
  };
}

/**
 * The value of one Prometheus sample in a text exposition: the series `name` whose labels
 * include all of `labels` (0 when there is none yet, as for a counter never incremented).
 */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(/,(?=[a-zA-Z_]\w*=")/);
    if (wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return 0;
}
