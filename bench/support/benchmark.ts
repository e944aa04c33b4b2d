// The contract between bench/run.ts and each benchmark of bench/.
/** What a benchmark returns: its figures, as the JSON line prints them, and its table. */
export interface BenchResult {
  /** Everything measured, nested by system (`connector`, `naive`, `ratio`) where there are two. */
  figures: Record<string, unknown>;
  /** Rows of the short table: figure, connector, naive peer, ratio (or any columns). */
  table: { head: string[]; rows: Array<Array<string | number | null>> };
}

/** The options every benchmark takes from the runner. */
export interface BenchContext {
  /** Tiny sizes, a few seconds: what the test suite runs. */
  smoke: boolean;
  /** Node.js flags for the connector's process (`--cpu-prof --cpu-prof-dir=...`). */
  connectorNodeArgs: string[];
  log(line: string): void;
}

/** A benchmark of bench/: its name on the command line and its run. */
export interface Benchmark {
  name: string;
  summary: string;
  run(context: BenchContext): Promise<BenchResult>;
}

/**
 * Thrown by a benchmark whose subject is not in this checkout yet: the runner reports
 * `"needs": <feature>` instead of results (never made-up figures).
 */
export class NeedsFeature extends Error {
  constructor(readonly feature: string) {
    super(`needs ${feature}`);
  }
}
