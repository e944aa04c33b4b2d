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

  it('halts (connections refused, data kept) and resumes on the same port', async () => {
    const server = await startLocalPostgres({ database: 'halt_db' });
    const query = async (sql: string) => {
      const client = new pg.Client({ connectionString: server.url, connectionTimeoutMillis: 2_000 });
      await client.connect();
      try {
        return (await client.query(sql)).rows;
      } finally {
        await client.end();
      }
    };
    try {
      await query('CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)');
      await server.halt();
      await expect(query('SELECT 1')).rejects.toThrow();
      await server.resume();
      expect(await query('SELECT n FROM kept')).toEqual([{ n: 7 }]);
    } finally {
      await server.stop();
    }
  });
});
