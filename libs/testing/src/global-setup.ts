import type { TestProject } from 'vitest/node';
import { type LocalPostgres, startLocalPostgres } from '#lib/local-postgres';
import type { QueueBackendChoice } from './queue-backend.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    queueBackend: QueueBackendChoice;
    /** True under CI (`.ci/run` sets CI): tools a test needs must be present there. */
    ci: boolean;
  }
}

/**
 * Runs once per test project that needs infrastructure. PostgreSQL: `DATABASE_URL` when given,
 * otherwise an embedded server started here. Queues: Redis when `REDIS_URL` is given, otherwise
 * BullMQ's PostgreSQL backend on the same database. This is the only test code that reads
 * `process.env`; tests receive the result through `inject()`.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let local: LocalPostgres | undefined;
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    local = await startLocalPostgres({ database: 'catalog_connector_test' });
    databaseUrl = local.url;
  }
  const redisUrl = process.env.REDIS_URL;
  project.provide('databaseUrl', databaseUrl);
  project.provide('ci', Boolean(process.env.CI));
  project.provide(
    'queueBackend',
    redisUrl ? { kind: 'redis', url: redisUrl } : { kind: 'postgres', url: databaseUrl },
  );
  return async () => {
    await local?.stop();
  };
}
