import type { AttributeSource, SourceType } from '#lib/catalog-contract';
import type { AttributeDef } from '../attributes/attribute-definition.js';
import type { ProductFacts } from './enricher.js';

/** How much the enricher can find for a record, from its productModel (spec: brand and productModel). */
export type ModelQuality = 'good' | 'internal';

/** 32-bit FNV-1a: the enricher's one source of "randomness", so equal input gives equal output. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

const TEXT_TYPES = new Set(['TEXT', 'LONG_TEXT', 'RICH_TEXT']);

/**
 * The value the deterministic enricher proposes for one attribute, or null when it has none.
 * With an internal-looking productModel only text built from the record's own data is produced.
 */
export function deterministicValue(
  def: AttributeDef,
  facts: ProductFacts,
  quality: ModelQuality,
): { value: string | string[]; sources: AttributeSource[] } | null {
  if (quality === 'internal' && !TEXT_TYPES.has(def.type)) return null;
  const h = fnv1a(`${def.key}|${facts.name}|${facts.brand}|${facts.productModel}`);
  const title = titleOf(facts);
  const src = (...types: SourceType[]) => sourcesOf(facts, quality, types);
  switch (def.type) {
    case 'TEXT': {
      const titleLike = /title|name/i.test(`${def.key} ${def.displayName}`);
      const text = titleLike ? variantTitle(facts, title, quality) : `${def.displayName} for ${title}`;
      return { value: truncate(text.replace(/[\r\n]+/g, ' '), def.maxLength ?? 255), sources: src() };
    }
    case 'LONG_TEXT':
      return {
        value: truncate(lines(def, facts, title, quality).join('\n'), def.maxLength ?? 65_535),
        sources: src(),
      };
    case 'RICH_TEXT': {
      const items = lines(def, facts, title, quality)
        .slice(1)
        .map((l) => `<li>${escapeHtml(l)}</li>`)
        .join('');
      const html = `<p>${escapeHtml(title)}.</p><ul>${items}</ul>`;
      return { value: truncate(html, def.maxLength ?? 65_535), sources: src() };
    }
    case 'NUMBER':
      return { value: String(1 + (h % 999)), sources: src('THIRD_PARTY') };
    case 'PRICE':
      return { value: ((100 + (h % 99_900)) / 100).toFixed(2), sources: src('THIRD_PARTY') };
    case 'MEASURE':
      return { value: `${1 + (h % 100)} cm`, sources: src('THIRD_PARTY') };
    case 'DATE':
      return { value: dayOf(h), sources: src('THIRD_PARTY') };
    case 'DATETIME':
      return { value: `${dayOf(h)}T09:00:00Z`, sources: src('THIRD_PARTY') };
    case 'URL': {
      const site = slug(facts.brand ?? '') || 'brand';
      const page = slug(facts.productModel ?? '') || slug(facts.name ?? '') || 'product';
      return { value: `https://www.${site}.example/products/${page}`, sources: src() };
    }
    case 'DROPDOWN': {
      const values = def.values ?? [];
      if (values.length === 0) return null;
      return { value: values[h % values.length] as string, sources: src('MEDIA') };
    }
    case 'MULTI_SELECT': {
      const values = def.values ?? [];
      if (values.length === 0) return null;
      const count = 1 + (h % Math.min(3, values.length));
      const picked = Array.from({ length: count }, (_, i) => values[(h + i) % values.length] as string);
      return { value: picked, sources: src('MEDIA') };
    }
    case 'TREE_NODE':
    case 'MEDIA_GALLERY':
      return null;
    default: {
      const unreachable: never = def.type;
      throw new Error(`unknown attribute type ${String(unreachable)}`);
    }
  }
}

function titleOf(facts: ProductFacts): string {
  const name = facts.name?.trim() || facts.supplierSku;
  const brand = facts.brand?.trim() ?? '';
  return brand && !name.toLowerCase().startsWith(brand.toLowerCase()) ? `${brand} ${name}` : name;
}

function variantTitle(facts: ProductFacts, title: string, quality: ModelQuality): string {
  const options = Object.values(facts.variantValues)
    .flat()
    .filter((v): v is string => typeof v === 'string' && v !== '');
  if (options.length > 0) return `${title} - ${options.join(' / ')}`;
  return quality === 'good' && facts.productModel ? `${title} ${facts.productModel}` : title;
}

function lines(def: AttributeDef, facts: ProductFacts, title: string, quality: ModelQuality): string[] {
  const result = [`${title}.`];
  if (quality === 'good' && facts.productModel) result.push(`Model ${facts.productModel}.`);
  if (facts.category) {
    const about = facts.category.description ? `: ${facts.category.description}` : '.';
    result.push(`${facts.category.name}${about}`);
  }
  if (facts.description) result.push(facts.description);
  result.push(
    `${def.displayName}, written from ${quality === 'good' ? 'brand and product data' : 'your data'}.`,
  );
  return result;
}

/** Sources: always YOUR_DATA; OFFICIAL_BRAND with a good model; MEDIA only when there are images. */
function sourcesOf(facts: ProductFacts, quality: ModelQuality, extra: SourceType[]): AttributeSource[] {
  const types: SourceType[] = ['YOUR_DATA'];
  if (quality === 'good') types.push('OFFICIAL_BRAND');
  for (const type of extra) if (type !== 'MEDIA' || facts.mediaCount > 0) types.push(type);
  return types.map((type) => ({
    id: `src_${fnv1a(`${type}|${facts.brand}|${facts.productModel}|${facts.name}`) % 1_000_000}`,
    type,
  }));
}

function dayOf(h: number): string {
  return new Date(Date.UTC(2020, 0, 1) + (h % 2000) * 86_400_000).toISOString().slice(0, 10);
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max);
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
