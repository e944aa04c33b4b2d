/** Raised at boot when the environment holds a bad value; names every bad variable at once. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads typed values from an environment map, collecting problems instead of throwing at the
 * first one, so an operator sees every mistake in one boot. Use through `loadConfig`.
 */
export class EnvReader {
  readonly problems: string[] = [];

  constructor(private readonly env: Env) {}

  string(name: string, fallback?: string): string {
    const raw = this.raw(name);
    if (raw !== undefined) return raw;
    if (fallback !== undefined) return fallback;
    this.problems.push(`${name} is required`);
    return '';
  }

  optionalString(name: string): string | undefined {
    return this.raw(name);
  }

  int(name: string, fallback: number, bounds: { min?: number; max?: number } = {}): number {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(value)) {
      this.problems.push(`${name} must be an integer, got "${raw}"`);
      return fallback;
    }
    return this.checkBounds(name, value, bounds, fallback);
  }

  number(name: string, fallback: number, bounds: { min?: number; max?: number } = {}): number {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value)) {
      this.problems.push(`${name} must be a number, got "${raw}"`);
      return fallback;
    }
    return this.checkBounds(name, value, bounds, fallback);
  }

  port(name: string, fallback: number): number {
    return this.int(name, fallback, { min: 0, max: 65_535 });
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const lowered = raw.toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(lowered)) return true;
    if (['0', 'false', 'no', 'off'].includes(lowered)) return false;
    this.problems.push(`${name} must be true or false, got "${raw}"`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
    return fallback;
  }

  url(name: string, fallback?: string): string {
    const value = this.string(name, fallback);
    if (value === '') return value;
    try {
      new URL(value);
    } catch {
      this.problems.push(`${name} must be a URL`);
    }
    return value;
  }

  private raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value === '' ? undefined : value;
  }

  private checkBounds(name: string, value: number, b: { min?: number; max?: number }, fallback: number) {
    if ((b.min !== undefined && value < b.min) || (b.max !== undefined && value > b.max)) {
      this.problems.push(`${name} must be ${boundsText(b)}, got ${value}`);
      return fallback;
    }
    return value;
  }
}

/** "at least 1", "at most 10" or "between 0 and 65535": only the bounds that exist, in plain words. */
function boundsText({ min, max }: { min?: number; max?: number }): string {
  if (min !== undefined && max !== undefined) return `between ${min} and ${max}`;
  if (min !== undefined) return `at least ${min}`;
  return `at most ${max}`;
}

/**
 * Builds one typed, grouped configuration object from an environment map, or throws a
 * `ConfigError` naming every bad variable. Apps call this once at boot with `process.env`.
 */
export function loadConfig<T>(env: Env, build: (read: EnvReader) => T): T {
  const reader = new EnvReader(env);
  const config = build(reader);
  if (reader.problems.length > 0) throw new ConfigError(reader.problems);
  return config;
}
