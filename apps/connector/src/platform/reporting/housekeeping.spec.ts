import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSources } from '../../../test/support/import-graph.js';
import { registrationCalls } from '../../../test/support/registrations.js';
import { migratedTables } from '../../../test/support/table-owners.js';
import { HOUSEKEEPING } from './housekeeping.js';

const SRC = fileURLToPath(new URL('../..', import.meta.url));

const byKey = (a: { key: string }, b: { key: string }) => a.key.localeCompare(b.key);

describe('the housekeeping table (housekeeping.ts) against the sources', () => {
  const sources = readSources(SRC);

  it('names the class registering each pruned table', () => {
    const calls = registrationCalls(
      sources,
      'RetentionRegistry',
      'register',
      (args) => /^\{\s*name:\s*'([\w:]+)'/.exec(args)?.[1],
    );
    const found = calls.map((c) => ({ key: c.key ?? `(unread: ${c.file})`, owner: c.className }));
    const listed = HOUSEKEEPING.pruned.map((row) => ({ key: row.name, owner: row.owner }));
    expect(found.sort(byKey)).toEqual(listed.sort(byKey));
  });

  it("names each class registering a redacted shop's tables, with its tables", () => {
    const calls = registrationCalls(sources, 'ShopDataRegistry', 'register', (args) => {
      const tables = /^\{\s*tables:\s*\[([^\]]*)\]/.exec(args)?.[1];
      return tables
        ?.match(/'\w+'/g)
        ?.map((t) => t.slice(1, -1))
        .join(', ');
    });
    const found = calls.map((c) => ({ key: c.key ?? `(unread: ${c.file})`, owner: c.className }));
    const listed = HOUSEKEEPING.redacted.map((row) => ({ key: row.tables.join(', '), owner: row.owner }));
    expect(found.sort(byKey)).toEqual(listed.sort(byKey));
  });

  it('lists each redacted table once, sorted within its owner, and only tables the migrations create', () => {
    const tables = HOUSEKEEPING.redacted.flatMap((row) => row.tables);
    expect(new Set(tables).size).toBe(tables.length);
    for (const row of HOUSEKEEPING.redacted) expect(row.tables, row.owner).toEqual([...row.tables].sort());
    const migrated = migratedTables(sources);
    expect(tables.filter((table) => !migrated.includes(table))).toEqual([]);
  });
});
