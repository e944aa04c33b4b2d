import { posix } from 'node:path';

/**
 * The stages of the data flow, in order: a stage may import earlier stages, never a later one.
 * A later stage plugs into an earlier one through a token (`DELIVERY_INBOX`, `SYNC_STEPS`).
 */
export const STAGES = ['webhooks', 'inbox', 'sync', 'sku-map', 'media', 'enrichment', 'resync'] as const;
/**
 * Folders that belong to a stage: they and the stage import each other freely. The mapping is
 * the sync's own configuration (the planner resolves values through it; it names the fields of
 * the sync's canonical product read).
 */
export const STAGE_PARTS: Readonly<Record<string, (typeof STAGES)[number]>> = { mapping: 'sync' };
/** Beside the stages: any stage may use them; they import no stage (nor each other). */
export const BESIDE = ['catalog', 'shopify', 'failures'] as const;
/** Below everything: they import only each other and the tokens. */
export const BASE = ['config', 'http', 'database', 'queues', 'health', 'local-stack'] as const;
/** Operations (admin API, metrics, OpenAPI docs, the command line): they may import anything; nothing imports them. */
export const OPERATIONS = ['admin', 'metrics', 'docs', 'cli'] as const;
/** The one top-level file the folders may import. */
const TOKENS = 'connector.tokens.ts';

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** One forbidden import: which file, what it imports, and why not. */
export interface ImportViolation {
  file: string;
  imports: string;
  reason: string;
}

/** The folder of a path relative to `src/` (`''` for top-level files). */
function folderOf(path: string): string {
  const parts = path.split('/');
  const folder = parts.length > 1 ? (parts[0] as string) : '';
  return STAGE_PARTS[folder] ?? folder;
}

/** May code in folder `from` import code in folder `to`? Null when it may, else why not. */
function forbidden(from: string, to: string, target: string): string | null {
  if (from === to || from === '') return null;
  if (to === '')
    return target === TOKENS ? null : 'only connector.tokens.ts is importable from the top level';
  const stage = (name: string) => (STAGES as readonly string[]).indexOf(name);
  const isBeside = (name: string) => (BESIDE as readonly string[]).includes(name);
  const isBase = (name: string) => (BASE as readonly string[]).includes(name);
  const isOperations = (name: string) => (OPERATIONS as readonly string[]).includes(name);
  if (isOperations(from)) return null;
  if (isOperations(to)) return `${from} imports ${to} (operations: nothing imports them)`;
  if (stage(from) >= 0) {
    if (stage(to) > stage(from)) return `stage ${from} imports the later stage ${to}`;
    return stage(to) >= 0 || isBeside(to) || isBase(to) ? null : `unknown folder ${to}`;
  }
  if (isBeside(from)) return isBase(to) ? null : `${from} (beside the stages) imports ${to}`;
  if (isBase(from)) return isBase(to) ? null : `${from} (base) imports ${to}`;
  return `unknown folder ${from}`;
}

/**
 * Checks the connector's import graph: `sources` maps paths relative to `src/` (posix) to their
 * text. Returns every relative import that breaks the rules above.
 */
export function importViolations(sources: ReadonlyMap<string, string>): ImportViolation[] {
  const violations: ImportViolation[] = [];
  for (const [file, text] of sources) {
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] as string;
      const target = posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, '.ts');
      if (target.startsWith('..')) {
        violations.push({ file, imports: specifier, reason: 'reaches outside apps/connector/src' });
        continue;
      }
      const reason = forbidden(folderOf(file), folderOf(target), target);
      if (reason) violations.push({ file, imports: specifier, reason });
    }
  }
  return violations;
}
