/** A table, the one repository that owns it, and reads by others that a test has accepted. */
export interface TableOwner {
  table: string;
  /** The owning repository's file, relative to `src/`, or `#lib/<name>` for a library's table. */
  owner: string;
  /** Other files allowed to read it inside one of their own statements, each with why. */
  joinedBy?: Readonly<Record<string, string>>;
  /** Repositories beside the owner that it is split into (size), each with why. */
  parts?: Readonly<Record<string, string>>;
}

/** Why: finds the tables the migrations create, so a new table must be given an owner. */
export function migratedTables(sources: ReadonlyMap<string, string>): string[] {
  const tables = new Set<string>();
  for (const [file, text] of sources) {
    if (!file.includes('/migrations/')) continue;
    for (const match of text.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?[^\s.]*\.([a-z_]+)/g))
      tables.add(match[1] as string);
  }
  return [...tables].sort();
}

/** The entity class of each table (`@Entity('name')` / `@Entity({ name })`). */
function entities(sources: ReadonlyMap<string, string>): Map<string, string> {
  const found = new Map<string, string>();
  for (const text of sources.values()) {
    for (const m of text.matchAll(/@Entity\(\{?\s*(?:name:\s*)?'([a-z_]+)'[^)]*\)\s*export class (\w+)/g)) {
      found.set(m[1] as string, m[2] as string);
    }
  }
  return found;
}

/**
 * Every place a table is touched outside its owner's folder: its entity's TypeORM repository
 * injected or registered, or its name in SQL. Migrations are the schema's, not a table's reader.
 */
export function tableOwnerViolations(
  sources: ReadonlyMap<string, string>,
  owners: readonly TableOwner[],
): string[] {
  const problems: string[] = [];
  const entityOf = entities(sources);
  for (const { table, owner, joinedBy = {}, parts = {} } of owners) {
    const outside = owner.startsWith('#lib/');
    if (!outside && !sources.has(owner)) problems.push(`${table}: owner ${owner} not found`);
    const entity = entityOf.get(table);
    // In SQL: after FROM/JOIN/INTO/UPDATE/TABLE (schema-qualified or not), a schema-qualified
    // name, or a table path built from another one's (`tablePath.replace(/x$/, 'table')`).
    const sql = new RegExp(
      `\\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\\s+(?:[^\\s(]*\\.)?"?${table}\\b|\\}"?\\.${table}\\b|table\\('${table}'\\)|\\$/, '${table}'\\)`,
    );
    const orm = entity
      ? new RegExp(
          `InjectRepository\\(${entity}\\)|getRepository\\(${entity}\\)|forFeature\\(\\[[^\\]]*\\b${entity}\\b`,
        )
      : null;
    for (const [file, text] of sources) {
      if (file === owner || file in parts || file.endsWith('.entity.ts') || file.includes('/migrations/'))
        continue;
      // A feature's module registers its tables' entities for TypeORM (`forFeature`).
      const sameFeature = file.split('/')[0] === owner.split('/')[0];
      if (file.endsWith('.module.ts') && sameFeature && !sql.test(text)) continue;
      const touches = sql.test(text) || (orm?.test(text) ?? false);
      if (touches && !(file in joinedBy))
        problems.push(`${table}: touched by ${file}, not its owner ${owner}`);
    }
  }
  return problems;
}
