import type { DataSource } from 'typeorm';

/** Advisory lock key of the migration run: replicas booting together take turns. */
const MIGRATION_LOCK = 7_390_131;

/**
 * Creates the schema if needed and runs pending migrations, holding a PostgreSQL advisory lock so
 * that replicas starting at once never run the same migration twice.
 */
export async function runMigrations(dataSource: DataSource, schema: string): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await runner.release();
  }
}
