import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startLocalPostgres } from './local-postgres.js';

describe('startLocalPostgres', () => {
  it('starts a usable server with the requested database, and stop removes it', async () => {
    const server = await startLocalPostgres({ database: 'probe_db' });
    try {
      expect(server.url).toMatch(/\/probe_db$/);
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      const { rows } = await client.query('SELECT current_database() AS db');
      await client.end();
      expect(rows[0].db).toBe('probe_db');
    } finally {
      await server.stop();
    }
    const client = new pg.Client({ connectionString: server.url, connectionTimeoutMillis: 2_000 });
    await expect(client.connect()).rejects.toThrow();
  });
});
