import { posix } from 'node:path';
import { LAYERS, layerOf } from './import-graph.js';

/**
 * A registry: a class in an earlier layer that later layers hand callbacks to at boot (the
 * registry then calls them: retention, replay, "a product synced", metrics, health checks).
 */
export interface RegistryDeclaration {
  /** The class name, e.g. `RetentionRegistry`. */
  name: string;
  /** The method later layers call to plug in, e.g. `register`. */
  method: string;
}

/** One seam: who provides the value (or the callbacks), who consumes it. */
export interface Seam {
  name: string;
  kind: 'token' | 'registry';
  /** Folders (two levels deep, `''` for the composition root's top-level files). */
  providers: string[];
  consumers: string[];
}

/** The folder a file is reported under: its first two path segments (`platform/failures`). */
function folderOf(file: string): string {
  const dir = posix.dirname(file);
  return dir === '.' ? '' : dir.split('/').slice(0, 2).join('/');
}

/** The layer of a folder; the composition root (top-level files) comes after every room. */
function layer(folder: string): number {
  return folder === '' ? LAYERS.length : layerOf(folder.split('/')[0] as string);
}

const unique = (values: string[]) => [...new Set(values)].sort();

/**
 * Why: a token or a registry is for a real seam, never to hide an import. Finds every Symbol
 * token of `connector.tokens.ts` (its providers: `provide: X`; consumers: `@Inject(X)`) and every
 * declared registry (providers: files calling `.method(` on it; consumer: its own folder).
 */
export function findSeams(
  sources: ReadonlyMap<string, string>,
  registries: readonly RegistryDeclaration[],
): Seam[] {
  const seams: Seam[] = [];
  const tokens = [
    ...(sources.get('connector.tokens.ts') ?? '').matchAll(/export const (\w+) = Symbol\(/g),
  ].map((m) => m[1] as string);
  for (const token of tokens) {
    const providers: string[] = [];
    const consumers: string[] = [];
    for (const [file, text] of sources) {
      if (new RegExp(`provide:\\s*${token}\\b`).test(text)) providers.push(folderOf(file));
      if (new RegExp(`@Inject\\(${token}\\)`).test(text)) consumers.push(folderOf(file));
    }
    seams.push({ name: token, kind: 'token', providers: unique(providers), consumers: unique(consumers) });
  }
  for (const registry of registries) {
    const home = [...sources].find(([, text]) => new RegExp(`export class ${registry.name}\\b`).test(text));
    if (!home) throw new Error(`registry ${registry.name} not found`);
    const providers: string[] = [];
    for (const [file, text] of sources) {
      if (file === home[0] || !new RegExp(`\\b${registry.name}\\b`).test(text)) continue;
      if (new RegExp(`\\.${registry.method}\\(`).test(text)) providers.push(folderOf(file));
    }
    seams.push({
      name: registry.name,
      kind: 'registry',
      providers: unique(providers),
      consumers: [folderOf(home[0])],
    });
  }
  return seams;
}

/** Symbol tokens declared anywhere but `connector.tokens.ts` (each must be listed there). */
export function strayTokens(sources: ReadonlyMap<string, string>): string[] {
  return [...sources]
    .filter(([file, text]) => file !== 'connector.tokens.ts' && /=\s*Symbol\(/.test(text))
    .map(([file]) => file);
}

/** Seams whose provider is not in a later layer than every consumer: each should be a plain import. */
export function seamViolations(seams: readonly Seam[]): string[] {
  const problems: string[] = [];
  for (const seam of seams) {
    if (seam.providers.length === 0) problems.push(`${seam.name}: nothing provides it`);
    if (seam.consumers.length === 0) problems.push(`${seam.name}: nothing consumes it`);
    for (const provider of seam.providers) {
      for (const consumer of seam.consumers) {
        if (layer(provider) <= layer(consumer)) {
          problems.push(
            `${seam.name}: ${provider || '(root)'} provides, ${consumer || '(root)'} consumes: a plain import`,
          );
        }
      }
    }
  }
  return problems;
}
