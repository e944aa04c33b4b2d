import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';

/**
 * The connector's rooms in the order data flows through them: a folder may import its own layer's
 * folder and earlier layers, never a later layer nor a peer of its own layer. `operations` (the
 * admin API, metrics, OpenAPI docs, the command line) reads every feature; nothing imports it.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['platform'],
  ['shops'],
  ['clients'],
  ['mapping'],
  ['intake'],
  ['product-sync'],
  ['media', 'write-back', 'resync', 'drift'],
  ['operations'],
];

/** The one top-level file the folders may import (the composition root's Symbol tokens). */
const TOKENS = 'connector.tokens.ts';

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** One forbidden import (or folder cycle): where, what, and why not. */
export interface ImportViolation {
  file: string;
  imports: string;
  reason: string;
}

/** Why: the specs read the real tree; every `.ts` file under `dir` but the specs, keyed by posix path. */
export function readSources(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) {
        files.set(relative(dir, path).split(sep).join('/'), readFileSync(path, 'utf8'));
      }
    }
  };
  walk(dir);
  return files;
}

/** The layer index of a top-level folder, or -1 when it is none of the rooms. */
export function layerOf(topFolder: string): number {
  return LAYERS.findIndex((layer) => layer.includes(topFolder));
}

function topFolder(path: string): string {
  const parts = path.split('/');
  return parts.length > 1 ? (parts[0] as string) : '';
}

function forbidden(from: string, to: string, target: string): string | null {
  const a = topFolder(from);
  const b = topFolder(to);
  if (a === '' || a === b) return null;
  if (b === '') return target === TOKENS ? null : `only ${TOKENS} is importable from the top level`;
  const la = layerOf(a);
  const lb = layerOf(b);
  if (la < 0) return `${a} is not a room of the layout`;
  if (lb < 0) return `${b} is not a room of the layout`;
  if (lb > la) return `${a} imports ${b}, a later layer`;
  if (lb === la) return `${a} imports its peer ${b} (same layer)`;
  return null;
}

/** Every relative import as `[fromFile, toFile]` (paths relative to `src/`, `.ts`). */
function importsOf(sources: ReadonlyMap<string, string>): Array<[string, string, string]> {
  const edges: Array<[string, string, string]> = [];
  for (const [file, text] of sources) {
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] as string;
      const target = posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, '.ts');
      edges.push([file, target, specifier]);
    }
  }
  return edges;
}

/** Folder cycles at any depth: strongly connected groups of directories (each directory a node). */
export function folderCycles(sources: ReadonlyMap<string, string>): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const [from, to] of importsOf(sources)) {
    const a = posix.dirname(from);
    const b = posix.dirname(to);
    if (a === b || a === '.' || b === '.') continue;
    graph.set(a, (graph.get(a) ?? new Set()).add(b));
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) cycles.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

/**
 * Checks the connector's import graph: `sources` maps paths relative to `src/` (posix) to their
 * text. Returns every relative import that breaks the layer order, and every folder cycle.
 */
export function importViolations(sources: ReadonlyMap<string, string>): ImportViolation[] {
  const violations: ImportViolation[] = [];
  for (const [file, target, specifier] of importsOf(sources)) {
    if (target.startsWith('..')) {
      violations.push({ file, imports: specifier, reason: 'reaches outside apps/connector/src' });
      continue;
    }
    const reason = forbidden(file, target, target);
    if (reason) violations.push({ file, imports: specifier, reason });
  }
  for (const cycle of folderCycles(sources)) {
    violations.push({ file: cycle[0] as string, imports: cycle.join(' <-> '), reason: 'folder cycle' });
  }
  return violations;
}
