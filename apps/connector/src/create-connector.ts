import type { AddressInfo } from 'node:net';
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
import { requestLog } from './platform/http/request-log.js';

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
  /** Starts listening on the configured host (port 0 picks a free one); resolves to the base URL. */
  listen(port?: number): Promise<string>;
  /** Base URL, e.g. `http://127.0.0.1:3000`; known once listening. */
  readonly url: string;
  /** The bound address, e.g. `127.0.0.1:3000`; known once listening. */
  readonly address: string;
  /** Stops taking requests, lets running jobs finish, closes connections. */
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
  app.getHttpAdapter().getInstance().disable('x-powered-by');
  app.use(requestLog(logger));
  try {
    await app.init();
    app.get(OpenApiDocument).describe(app);
  } catch (error) {
    // A refusal at boot (a key that left CONNECTOR_ENCRYPTION_KEYS): what was opened is closed.
    await app.close().catch(() => undefined);
    throw error;
  }
  let bound: { url: string; address: string } | undefined;
  const known = () => {
    if (!bound) throw new Error('The connector is not listening yet');
    return bound;
  };
  return {
    app,
    async listen(port = config.http.port) {
      await app.listen(port, config.http.host);
      const { address, port: actual } = app.getHttpServer().address() as AddressInfo;
      const reachable = address === '0.0.0.0' ? '127.0.0.1' : address === '::' ? '::1' : address;
      const host = (h: string) => (h.includes(':') ? `[${h}]` : h);
      bound = { url: `http://${host(reachable)}:${actual}`, address: `${host(address)}:${actual}` };
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
