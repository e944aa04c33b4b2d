import { DataSource, type DataSourceOptions } from 'typeorm';
import { inject } from 'vitest';
import { uniqueId } from '#lib/testing';
import { MIGRATIONS } from '../../src/platform/database/migrations/index.js';
import { runMigrations } from '../../src/platform/database/run-migrations.js';

/** The entities a medium spec's DataSource maps (TypeORM's own list type). */
type Entities = NonNullable<DataSourceOptions['entities']>;

/** A medium spec's PostgreSQL schema: its name now, its DataSource once opened. */
export interface MediumDatabase {
  /** The schema's name (unique to this run: `<prefix>_<hex>`). */
  readonly schema: string;
  /** Connects to the test run's PostgreSQL on the schema, runs the connector's migrations. */
  open(): Promise<DataSource>;
  /** Drops the schema and closes the connections (safe when `open` never ran or failed). */
  close(): Promise<void>;
}

/**
 * Why: every medium spec tests its repositories against real PostgreSQL on a schema of its own,
 * migrated as the connector migrates it, and drops that schema at the end; this is that set-up,
 * once (open in `beforeAll`, close in `afterAll`). `poolSize` is the connections the spec needs
 * at once (3 unless it runs more queries in parallel).
 */
export function mediumDatabase(
  prefix: string,
  entities: Entities,
  options: { poolSize?: number } = {},
): MediumDatabase {
  const schema = uniqueId(prefix).replace('-', '_');
  let dataSource: DataSource | undefined;
  return {
    schema,
    async open() {
      dataSource = await new DataSource({
        type: 'postgres',
        url: inject('databaseUrl'),
        schema,
        entities,
        migrations: MIGRATIONS,
        migrationsTableName: 'migrations',
        synchronize: false,
        extra: { max: options.poolSize ?? 3 },
      }).initialize();
      await runMigrations(dataSource, schema);
      return dataSource;
    },
    async close() {
      await dataSource?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await dataSource?.destroy();
    },
  };
}
