import type { DataSource } from 'typeorm';

/**
 * Why: work that must not run twice at once across workers and replicas (one product's sync, one
 * shop's bulk read) takes a PostgreSQL advisory *try*-lock keyed by (`space`, hash of `key`): taken
 * at once or not at all (then `busy` runs, holding nothing), held on its own session while `work`
 * runs, and released by PostgreSQL itself if the process dies.
 */
export async function withAdvisoryTryLock<T>(
  dataSource: DataSource,
  space: number,
  key: string,
  work: () => Promise<T>,
  busy: () => Promise<T>,
): Promise<T> {
  const runner = dataSource.createQueryRunner();
  let locked = false;
  try {
    await runner.connect();
    const rows: Array<{ locked: boolean }> = await runner.query(
      'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked',
      [space, key],
    );
    locked = rows[0]?.locked === true;
    if (locked) return await work();
  } finally {
    if (locked)
      await runner.query('SELECT pg_advisory_unlock($1, hashtext($2))', [space, key]).catch(() => undefined);
    await runner.release();
  }
  return busy();
}
