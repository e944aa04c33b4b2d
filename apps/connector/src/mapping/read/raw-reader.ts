import type { ProblemList } from '../model/mapping-problem.js';

/** Where a value sits in the file: keys and list indexes. */
export type Path = readonly (string | number)[];
/** A YAML/JSON mapping as parsed, before it is checked. */
export type RawMap = Record<string, unknown>;

/**
 * Small typed readers over the parsed YAML/JSON of a mapping file. Each records a problem naming
 * the path and returns undefined when the value is not what it must be, so reading goes on and
 * every problem is reported at once.
 */
export class RawReader {
  constructor(readonly problems: ProblemList) {}

  map(value: unknown, path: Path): RawMap | undefined {
    if (isMap(value)) return value;
    this.problems.add(path, `must be a mapping of keys to values, got ${describe(value)}`);
    return undefined;
  }

  /** Refuses keys not in `allowed`, naming them and what is allowed. */
  keys(map: RawMap, allowed: readonly string[], path: Path): void {
    for (const key of Object.keys(map)) {
      if (!allowed.includes(key)) {
        this.problems.add([...path, key], `unknown key "${key}" (allowed here: ${allowed.join(', ')})`);
      }
    }
  }

  string(value: unknown, path: Path): string | undefined {
    if (typeof value === 'string' && value.trim() !== '') return value;
    const hint = typeof value === 'number' || typeof value === 'boolean' ? ' (quote it: "..." )' : '';
    this.problems.add(path, `must be a non-empty string, got ${describe(value)}${hint}`);
    return undefined;
  }

  optionalString(map: RawMap, key: string, path: Path): string | null | undefined {
    return map[key] === undefined || map[key] === null ? null : this.string(map[key], [...path, key]);
  }

  boolean(map: RawMap, key: string, path: Path, fallback: boolean): boolean {
    const value = map[key];
    if (value === undefined) return fallback;
    if (typeof value === 'boolean') return value;
    this.problems.add([...path, key], `must be true or false, got ${describe(value)}`);
    return fallback;
  }

  oneOf<T extends string>(map: RawMap, key: string, path: Path, allowed: readonly T[], fallback: T): T {
    const value = map[key];
    if (value === undefined) return fallback;
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
    this.problems.add([...path, key], `must be one of ${allowed.join(', ')}, got ${describe(value)}`);
    return fallback;
  }

  stringList(value: unknown, path: Path): string[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      this.problems.add(path, `must be a list of strings, got ${describe(value)}`);
      return [];
    }
    return value
      .map((item, i) => this.string(item, [...path, i]))
      .filter((item): item is string => item !== undefined);
  }
}

/** A YAML mapping (JSON object), not a list or a scalar. */
export function isMap(value: unknown): value is RawMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value as messages name it: `"text"`, `number 12`, `a list`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `"${value}"`;
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${String(value)}`;
}
