import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigError } from '#lib/config';
import { type LocalPostgres, startLocalPostgres } from '#lib/local-postgres';
import { createConnector } from './create-connector.js';
import { WEBHOOK_PATH } from './intake/webhook-subscriptions.js';
import { type ConnectorConfig, loadConnectorConfig } from './platform/config/connector.config.js';
import { configuredSecrets } from './platform/config/operations-config.js';
import { JsonLogger } from './platform/http/json-logger.js';

// environment -> config -> create -> listen. Nothing else reads process.env.
const logger = new Logger('Connector');
let config: ConnectorConfig;
try {
  config = loadConnectorConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`connector: ${error.message}\n`);
  process.exit(1);
}

// JSON lines on stdout from here on (pino), scrubbed of every configured secret.
const jsonLogger = new JsonLogger({ level: config.operations.logLevel, secrets: configuredSecrets(config) });
Logger.overrideLogger(jsonLogger);

let embedded: LocalPostgres | undefined;
if (config.database.url === null) {
  embedded = await startLocalPostgres({ database: 'catalog_connector' });
  config = { ...config, database: { ...config.database, url: embedded.url } };
  logger.warn('DATABASE_URL is not set: using an embedded PostgreSQL whose data is deleted at exit.');
}

try {
  const connector = await createConnector(config, { logger: jsonLogger });
  const url = await connector.listen();
  const queue = config.queue.redisUrl === null ? 'PostgreSQL' : 'Redis';
  const admin =
    connector.adminUrl === null
      ? `admin API, web view, metrics and docs on the same port, from inside only`
      : `admin API ${connector.adminUrl}/admin, web view ${connector.adminUrl}/admin/ui, metrics and docs on the private listener ${connector.adminUrl} (bound ${connector.adminAddress})`;
  logger.log(
    `Connector listening on ${url} (bound ${connector.address}, public): webhooks ${url}${WEBHOOK_PATH}, ` +
      `readiness ${url}/health/ready; ${admin}; shops ${config.shops.map((s) => s.domain).join(', ')}; queues on ${queue}`,
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal}: stopping`);
    await connector.close().catch((error: unknown) => logger.error(String(error)));
    await embedded?.stop().catch((error: unknown) => logger.error(String(error)));
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
} catch (error) {
  logger.error(error instanceof Error ? error.message : String(error));
  await embedded?.stop().catch(() => undefined);
  process.exit(1);
}
