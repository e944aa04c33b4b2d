import type { RequestListener } from 'node:http';
import type { DynamicModule, INestApplication, LoggerService, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { DestinationStream } from 'pino';
import { Clock, SystemClock } from '#lib/clock';
import { connectorModule } from './connector.module.js';
import { loadShopMappingFiles } from './mapping/load-shop-mappings.js';
import { OpenApiDocument } from './operations/docs/openapi-document.service.js';
import type { ConnectorConfig } from './platform/config/connector.config.js';
import { configuredSecrets } from './platform/config/operations-config.js';
import { JsonLogger } from './platform/http/json-logger.js';
import { listenerGate } from './platform/http/listener-gate.js';
import { type Bound, boundOf, PrivateListener } from './platform/http/private-listener.js';
import { requestLog } from './platform/http/request-log.js';
import { TrustedNetworks } from './platform/http/trusted-networks.js';

/** In-process overrides, for tests and the local stack. */
export interface ConnectorOptions {
  /** Time for timestamps, pacing and probes; the wall clock by default. */
  clock?: Clock;
  /**
   * The JSON logger's level as Nest levels (the lowest given wins; `['error']` logs errors only),
   * `false` to silence it, or a logger of your own. By default `CONNECTOR_LOG_LEVEL`.
   */
  logger?: LogLevel[] | false | LoggerService;
  /** Where the JSON log lines go (tests capture them); stdout by default. */
  logDestination?: DestinationStream;
  /** Every shop's Admin API calls go through this (tests: the Shopify sandbox's `sandboxFetch`). */
  shopifyFetch?: typeof fetch;
}

/** A created connector: the app, and what main.ts and tests do with it. */
export interface Connector {
  readonly app: INestApplication;
  /**
   * Starts listening on the configured host (port 0 picks a free one), and on the private
   * listener's when `CONNECTOR_ADMIN_PORT` is set; resolves to the (public) base URL.
   */
  listen(port?: number): Promise<string>;
  /** Base URL, e.g. `http://127.0.0.1:3000`; known once listening. */
  readonly url: string;
  /** The bound address, e.g. `127.0.0.1:3000`; known once listening. */
  readonly address: string;
  /**
   * The private listener's base URL (the admin API, the web view, `/metrics`, `/docs`), or null
   * when one port serves everything; known once listening.
   */
  readonly adminUrl: string | null;
  /** The private listener's bound address, or null; known once listening. */
  readonly adminAddress: string | null;
  /** Stops taking requests (on both listeners), lets running jobs finish, closes connections. */
  close(): Promise<void>;
}

/**
 * Builds the connector (not yet listening): mapping files parsed (a broken one rejects, naming
 * the entry, before anything is opened), migrations run, queues connected, workers started. Each
 * shop's mapping is then checked against its catalog account in the background.
 * The configuration must name a database (main.ts starts an embedded one when it does not).
 */
export async function createConnector(
  config: ConnectorConfig,
  options: ConnectorOptions = {},
): Promise<Connector> {
  const prepared = await prepareConnector(config, options);
  const app = await NestFactory.create(prepared.module, { bodyParser: false, logger: prepared.logger });
  return startConnector(app, config, prepared.logger);
}

/** The connector's module and logger, before any app is made of them (tests compile their own). */
export async function prepareConnector(
  config: ConnectorConfig,
  options: ConnectorOptions = {},
): Promise<{ module: DynamicModule; logger: LoggerService }> {
  const mappingFiles = await loadShopMappingFiles(config.shops);
  const module = connectorModule(config, {
    mappingFiles,
    clock: options.clock ?? new SystemClock(),
    shopifyFetch: options.shopifyFetch ?? null,
  });
  return { module, logger: loggerOf(config, options) };
}

/** Initialises the app made of `prepareConnector`'s module (hooks run, workers start): the connector. */
export async function startConnector(
  app: INestApplication,
  config: ConnectorConfig,
  logger: LoggerService,
): Promise<Connector> {
  const express = app.getHttpAdapter().getInstance() as RequestListener & { disable(name: string): void };
  express.disable('x-powered-by');
  const privateListener = new PrivateListener();
  const admin = config.http.adminListener;
  app.use(requestLog(logger));
  app.use(
    listenerGate({
      split: admin !== null,
      arrivedPrivately: (req) => privateListener.arrivedHere(req),
      trusted: new TrustedNetworks(config.http.trustedNetworks),
    }),
  );
  try {
    await app.init();
    app.get(OpenApiDocument).describe(app);
  } catch (error) {
    // A refusal at boot (a key that left CONNECTOR_ENCRYPTION_KEYS): what was opened is closed.
    await app.close().catch(() => undefined);
    throw error;
  }
  let bound: { public: Bound; admin: Bound | null } | undefined;
  const known = () => {
    if (!bound) throw new Error('The connector is not listening yet');
    return bound;
  };
  return {
    app,
    async listen(port = config.http.port) {
      await app.listen(port, config.http.host);
      const own = boundOf(app.getHttpServer());
      if (admin === null) {
        logger.warn(
          `CONNECTOR_ADMIN_PORT is not set: the admin API, the web view, /metrics and /docs share the public port ${own.address}, ` +
            'refused (404) to requests from outside (docs/operations.md, "Listeners"); set CONNECTOR_ADMIN_PORT to serve them on a private listener.',
          'Connector',
        );
      }
      let adminBound: Bound | null = null;
      try {
        if (admin !== null) adminBound = await privateListener.listen(express, admin.port, admin.host);
      } catch (error) {
        // The private port is taken (or the host unknown): nothing stays half open.
        await app.close().catch(() => undefined);
        throw error;
      }
      bound = { public: own, admin: adminBound };
      return own.url;
    },
    get url() {
      return known().public.url;
    },
    get address() {
      return known().public.address;
    },
    get adminUrl() {
      return known().admin?.url ?? null;
    },
    get adminAddress() {
      return known().admin?.address ?? null;
    },
    async close() {
      const closing = privateListener.close();
      await app.close();
      await closing;
    },
  };
}

const PINO_LEVEL_OF: Array<[LogLevel, string]> = [
  ['verbose', 'trace'],
  ['debug', 'debug'],
  ['log', 'info'],
  ['warn', 'warn'],
  ['error', 'error'],
  ['fatal', 'fatal'],
];

/** The JSON logger the options ask for (the config's level unless they name levels). */
function loggerOf(config: ConnectorConfig, options: ConnectorOptions): LoggerService {
  const given = options.logger;
  if (given !== undefined && given !== false && !Array.isArray(given)) return given;
  const level =
    given === false
      ? 'silent'
      : Array.isArray(given)
        ? (PINO_LEVEL_OF.find(([nest]) => given.includes(nest))?.[1] ?? 'silent')
        : config.operations.logLevel;
  return new JsonLogger({ level, destination: options.logDestination, secrets: configuredSecrets(config) });
}
