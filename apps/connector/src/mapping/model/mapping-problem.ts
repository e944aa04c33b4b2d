/**
 * One problem found in a mapping file, naming the entry it is about (`path`, e.g.
 * `variant.options.Size`) and, when known, its line in the file.
 */
export interface MappingProblem {
  path: string;
  message: string;
  line?: number;
}

/** `path: message` with the file and line in front when known: what an operator reads at boot. */
export function formatProblem(problem: MappingProblem, source?: string): string {
  const where = [source, problem.line === undefined ? undefined : String(problem.line)]
    .filter((part) => part !== undefined)
    .join(':');
  return `${where ? `${where}: ` : ''}${problem.path || '(file)'}: ${problem.message}`;
}

/**
 * A mapping file was refused: every problem found, not just the first, so an operator fixes the
 * file in one go. The message lists them, one per line.
 */
export class MappingError extends Error {
  constructor(
    readonly problems: readonly MappingProblem[],
    readonly source?: string,
  ) {
    super(
      `mapping ${source ? `${source} ` : ''}refused (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n` +
        problems.map((p) => `  - ${formatProblem(p)}`).join('\n'),
    );
    this.name = 'MappingError';
  }
}

/** Collects problems while a mapping is read or checked. */
export class ProblemList {
  readonly problems: MappingProblem[] = [];

  constructor(
    private readonly lineOf: (path: readonly (string | number)[]) => number | undefined = () => undefined,
  ) {}

  /** Records a problem at `path` (segments as in the file, e.g. `['variant', 'options', 'Size']`). */
  add(path: readonly (string | number)[], message: string): void {
    const line = this.lineOf(path);
    this.problems.push({ path: pathText(path), message, ...(line === undefined ? {} : { line }) });
  }

  get empty(): boolean {
    return this.problems.length === 0;
  }
}

/** `['variant', 'barcode', 1]` -> `variant.barcode[1]`. */
export function pathText(path: readonly (string | number)[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? segment : `.${segment}`;
  }
  return text;
}
