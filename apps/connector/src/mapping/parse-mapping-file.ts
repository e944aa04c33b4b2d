import { readFile } from 'node:fs/promises';
import { type Document, LineCounter, parseDocument } from 'yaml';
import { checkOwnership } from './check-ownership.js';
import type { FieldEntry, MappingFile, OptionEntry, SupplierSkuSettings } from './model/mapping-file.js';
import { MappingError, ProblemList } from './model/mapping-problem.js';
import { type Path, RawReader } from './read/raw-reader.js';
import { readFieldSection } from './read/read-entries.js';
import { readScope } from './read/read-scope.js';
import { readWriteBack } from './read/read-write-back.js';

const TOP_KEYS = ['version', 'shop', 'supplierSku', 'product', 'variant', 'writeBack', 'scope'] as const;
const SUPPLIER_SKU_KEYS = ['strategy', 'prefix'] as const;
const PREFIX = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Reads a mapping file's text (YAML, or JSON, which is YAML too) into a `MappingFile`, checking
 * its structure: unknown keys, wrong types, duplicate keys, unknown Shopify fields. Throws a
 * `MappingError` listing every problem with its entry path and line. Checks against the
 * catalog account come after (`checkMapping`).
 */
export function parseMappingFile(text: string, source?: string): MappingFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length > 0) {
    throw new MappingError(
      doc.errors.map((e) => ({ path: '', message: firstLine(e.message), line: e.linePos?.[0]?.line })),
      source,
    );
  }
  const problems = new ProblemList((path) => lineOf(doc, lineCounter, path));
  const file = readMapping(new RawReader(problems), doc.toJS());
  if (!problems.empty || !file) throw new MappingError(problems.problems, source);
  const rules = checkOwnership(file).map((p) => ({
    ...p,
    line: lineOf(doc, lineCounter, segmentsOf(p.path)),
  }));
  if (rules.length > 0) throw new MappingError(rules, source);
  const lines = new Map<string, number>();
  for (const entry of [...file.product, ...file.variant, ...file.options, ...file.writeBack]) {
    const line = lineOf(doc, lineCounter, segmentsOf(entry.path));
    if (line !== undefined) lines.set(entry.path, line);
  }
  return { ...file, lines };
}

/** Reads and parses a mapping file from disk (`.yaml`, `.yml` or `.json`). */
export async function loadMappingFile(path: string): Promise<MappingFile> {
  return parseMappingFile(await readFile(path, 'utf8'), path);
}

function readMapping(reader: RawReader, raw: unknown): MappingFile | undefined {
  const top = reader.map(raw, []);
  if (!top) return undefined;
  reader.keys(top, TOP_KEYS, []);
  if (top.version !== 1)
    reader.problems.add(
      ['version'],
      `must be 1 (the mapping format's version), got ${JSON.stringify(top.version ?? null)}`,
    );
  const shop = reader.optionalString(top, 'shop', []);
  const supplierSku = readSupplierSku(reader, top.supplierSku);
  let product: FieldEntry[] = [];
  let variant: FieldEntry[] = [];
  let options: OptionEntry[] = [];
  if (top.product === undefined) reader.problems.add(['product'], 'is required: map at least name and brand');
  else {
    const section = reader.map(top.product, ['product']);
    if (section) product = readFieldSection(reader, section, 'product').entries;
  }
  if (top.variant !== undefined) {
    const section = reader.map(top.variant, ['variant']);
    if (section) ({ entries: variant, options } = readFieldSection(reader, section, 'variant'));
  }
  let writeBack: MappingFile['writeBack'] = [];
  if (top.writeBack !== undefined && top.writeBack !== null) {
    const section = reader.map(top.writeBack, ['writeBack']);
    if (section) writeBack = readWriteBack(reader, section);
  }
  const scope = top.scope === undefined || top.scope === null ? null : readScope(reader, top.scope);
  return { version: 1, shop: shop ?? null, supplierSku, product, variant, options, writeBack, scope };
}

function readSupplierSku(reader: RawReader, raw: unknown): SupplierSkuSettings {
  const settings: SupplierSkuSettings = { strategy: 'shopify-ids', prefix: null };
  if (raw === undefined || raw === null) return settings;
  const map = reader.map(raw, ['supplierSku']);
  if (!map) return settings;
  reader.keys(map, SUPPLIER_SKU_KEYS, ['supplierSku']);
  settings.strategy = reader.oneOf(
    map,
    'strategy',
    ['supplierSku'],
    ['shopify-ids', 'variant-sku'],
    'shopify-ids',
  );
  const prefix = reader.optionalString(map, 'prefix', ['supplierSku']);
  if (typeof prefix === 'string' && !PREFIX.test(prefix)) {
    reader.problems.add(
      ['supplierSku', 'prefix'],
      `must be 1 to 64 letters, digits, ".", "_" or "-", got "${prefix}"`,
    );
  }
  settings.prefix = prefix ?? null;
  return settings;
}

/** A YAML error's message without the position and excerpt that prettyErrors appends. */
function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
}

/** An entry's path text back to file segments: `variant.barcode[1]` -> `['variant', 'barcode', 1]`. */
function segmentsOf(path: string): Path {
  const [section = '', ...rest] = path.split('.');
  const tail = rest.join('.');
  if (section === 'writeBack') {
    const [level = '', ...attribute] = rest;
    return [section, level, attribute.join('.')];
  }
  if (section === 'variant' && tail.startsWith('options.'))
    return [section, 'options', tail.slice('options.'.length)];
  const indexed = /^(.*)\[(\d+)\]$/.exec(tail);
  if (indexed) return [section, indexed[1] as string, Number(indexed[2])];
  return tail === '' ? [section] : [section, tail];
}

/** The line of the node at `path`, or of its nearest ancestor that exists. */
function lineOf(doc: Document, lineCounter: LineCounter, path: Path): number | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return lineCounter.linePos(node.range[0]).line;
  }
  return undefined;
}
