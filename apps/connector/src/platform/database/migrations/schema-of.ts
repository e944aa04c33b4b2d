import type { QueryRunner } from 'typeorm';

/** The quoted schema the connector's tables live in (`CONNECTOR_DATABASE_SCHEMA`). */
export function schemaOf(runner: QueryRunner): string {
  const options = runner.connection.options as { schema?: string };
  return `"${options.schema ?? 'public'}"`;
}
