import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import type { ConnectorConfig } from '../config/connector.config.js';
import { MIGRATIONS } from './migrations/index.js';
import { runMigrations } from './run-migrations.js';

/**
 * The connector's PostgreSQL: one TypeORM data source, entities registered by each feature
 * (`TypeOrmModule.forFeature`), the schema built by migrations at boot (never synchronize).
 */
@Module({})
export class DatabaseModule {}

export function databaseModule(config: ConnectorConfig): DynamicModule {
  const { url, schema, poolSize, timeoutMs } = config.database;
  if (url === null) throw new Error('DatabaseModule needs database.url (main.ts starts an embedded one)');
  return {
    module: DatabaseModule,
    imports: [
      TypeOrmModule.forRootAsync({
        useFactory: () => ({
          type: 'postgres' as const,
          url,
          schema,
          autoLoadEntities: true,
          synchronize: false,
          migrationsRun: false,
          migrations: MIGRATIONS,
          migrationsTableName: 'migrations',
          retryAttempts: 3,
          retryDelay: 1_000,
          extra: {
            max: poolSize,
            connectionTimeoutMillis: timeoutMs,
            statement_timeout: timeoutMs,
            query_timeout: timeoutMs + 1_000,
            application_name: 'catalog-connector',
          },
        }),
        dataSourceFactory: async (options?: DataSourceOptions) => {
          if (!options) throw new Error('no data source options');
          const dataSource = await new DataSource(options).initialize();
          try {
            await runMigrations(dataSource, schema);
          } catch (error) {
            await dataSource.destroy();
            throw error;
          }
          return dataSource;
        },
      }),
    ],
    exports: [TypeOrmModule],
  };
}
