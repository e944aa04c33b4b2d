import type { AttributeType, AttributeValue } from '#lib/catalog-contract';
import { MetafieldTypes, type WriteBackTarget } from '../../mapping/index.js';
import { decodeEntities, escapeHtml } from './html.js';
import { htmlToRichText, richTextToLines, textToRichText } from './rich-text.js';

/** A catalog value in the form its Shopify target takes. */
export type ShopifyValue =
  | { kind: 'field'; value: string }
  | { kind: 'tags'; tags: string[] }
  | { kind: 'metafield'; type: string; value: string };

/** The outcome of a conversion: the value, or why the catalog value does not fit the target. */
export type Conversion = { ok: true; value: ShopifyValue } | { ok: false; reason: string };

export interface ConvertContext {
  /** The shop's currency (ISO code), for PRICE values without one going to `money`. */
  shopCurrency?: string | null;
}

/** Shopify's limits on product fields and tags (https://help.shopify.com/en/manual/products/details). */
export const PRODUCT_LIMITS = { title: 255, tag: 255, tags: 250 } as const;

/**
 * Converts a catalog value (never empty: the caller treats null, "" and [] as "no value") of an
 * attribute of `type` into what `target` accepts: HTML, plain text, tags, or a metafield value
 * string of the target's type (rich text documents and lists as JSON). The pairs are those the
 * boot check allows (`write-back-targets.ts`); a value that still does not fit is refused with
 * the reason, never sent for Shopify to refuse.
 */
export function convertValue(
  type: AttributeType,
  raw: Exclude<AttributeValue, null>,
  target: WriteBackTarget,
  context: ConvertContext = {},
): Conversion {
  try {
    switch (target.kind) {
      case 'field':
        return ok({ kind: 'field', value: toField(type, raw, target.field) });
      case 'tags':
        return ok({ kind: 'tags', tags: toTags(raw) });
      case 'metafield':
        return ok({
          kind: 'metafield',
          type: target.type,
          value: toMetafield(type, raw, target.type, context),
        });
    }
  } catch (error) {
    if (error instanceof Unfit) return { ok: false, reason: error.message };
    throw error;
  }
}

class Unfit extends Error {}
const unfit = (reason: string): never => {
  throw new Unfit(reason);
};
const ok = (value: ShopifyValue): Conversion => ({ ok: true, value });

function one(raw: string | string[]): string {
  if (typeof raw === 'string') return raw;
  if (raw.length === 1) return raw[0] as string;
  return unfit(`a list of ${raw.length} values where one is expected`);
}

function toField(type: AttributeType, raw: string | string[], field: string): string {
  const value = one(raw);
  switch (field) {
    case 'title': {
      const title = value.trim();
      if (/[\r\n]/.test(title)) unfit('a title is one line');
      if (title.length > PRODUCT_LIMITS.title)
        unfit(`a title has at most ${PRODUCT_LIMITS.title} characters, this one ${title.length}`);
      return title;
    }
    case 'descriptionHtml':
      return type === 'RICH_TEXT' ? value : textToHtml(value);
    case 'seo.title':
      return value.replace(/\s+/g, ' ').trim();
    case 'seo.description':
      return (type === 'RICH_TEXT' ? htmlToLines(value).join(' ') : value).replace(/\s+/g, ' ').trim();
    default:
      return unfit(`unknown field ${field}`);
  }
}

function toTags(raw: string | string[]): string[] {
  const tags = (typeof raw === 'string' ? [raw] : raw).map((t) => t.trim()).filter((t) => t !== '');
  for (const tag of tags) {
    if (tag.includes(',')) unfit(`tag "${tag}" contains a comma (Shopify splits tags on commas)`);
    if (tag.length > PRODUCT_LIMITS.tag) unfit(`a tag has at most ${PRODUCT_LIMITS.tag} characters`);
  }
  const unique = new Map<string, string>();
  for (const tag of tags) if (!unique.has(tag.toLowerCase())) unique.set(tag.toLowerCase(), tag);
  return [...unique.values()];
}

function toMetafield(
  type: AttributeType,
  raw: string | string[],
  to: string,
  context: ConvertContext,
): string {
  const value = convertMetafield(type, raw, to, context);
  const limit = MetafieldTypes.maxBytesOf(to);
  if (to.startsWith('list.')) {
    const items = JSON.parse(value) as unknown[];
    if (items.length > MetafieldTypes.METAFIELD_LIST_MAX_ITEMS)
      unfit(
        `a list holds at most ${MetafieldTypes.METAFIELD_LIST_MAX_ITEMS} items, this one ${items.length}`,
      );
    for (const item of items) {
      if (Buffer.byteLength(JSON.stringify(item)) > limit) unfit(`a list item is over ${limit} bytes`);
    }
  } else if (Buffer.byteLength(value) > limit) {
    unfit(`${to} values are at most ${limit} bytes, this one ${Buffer.byteLength(value)}`);
  }
  return value;
}

function convertMetafield(
  type: AttributeType,
  raw: string | string[],
  to: string,
  context: ConvertContext,
): string {
  switch (to) {
    case 'single_line_text_field': {
      const text = one(raw).trim();
      if (/[\r\n]/.test(text)) unfit('single_line_text_field takes one line');
      return nonBlank(text);
    }
    case 'multi_line_text_field':
      return nonBlank(type === 'RICH_TEXT' ? htmlToLines(one(raw)).join('\n') : one(raw).trim());
    case 'rich_text_field': {
      const value = one(raw);
      const document = type === 'RICH_TEXT' ? htmlToRichText(value) : textToRichText(value);
      if (document.children.length === 0) unfit('the rich text has no content');
      return JSON.stringify(document);
    }
    case 'list.single_line_text_field': {
      const items = typeof raw === 'string' ? (type === 'LONG_TEXT' ? bulletLines(raw) : [raw.trim()]) : raw;
      const kept = items.map((i) => i.trim()).filter((i) => i !== '');
      if (kept.length === 0) unfit('the list has no items');
      if (kept.some((i) => /[\r\n]/.test(i))) unfit('list items are single lines');
      return JSON.stringify(kept);
    }
    case 'number_integer': {
      const text = one(raw).trim();
      if (!/^[-+]?\d+$/.test(text)) unfit(`"${text}" is not an integer`);
      const n = BigInt(text);
      const max = MetafieldTypes.NUMBER_INTEGER_MAX;
      if (n > max || n < -max) unfit(`${text} is outside number_integer's range`);
      return n.toString();
    }
    case 'number_decimal': {
      const text = (type === 'PRICE' ? one(raw).trim().split(/\s+/)[0] : one(raw).trim()) ?? '';
      const match = /^([-+]?)(\d+)(?:\.(\d+))?$/.exec(text);
      const { integer, fraction } = MetafieldTypes.NUMBER_DECIMAL_DIGITS;
      if (!match) return unfit(`"${text}" is not a decimal number`);
      const digits = (match[2] as string).replace(/^0+(?=\d)/, '');
      if (digits.length > integer || (match[3]?.length ?? 0) > fraction)
        unfit(`${text} has more than ${integer} integer or ${fraction} decimal digits`);
      return `${match[1] === '-' ? '-' : ''}${digits}${match[3] ? `.${match[3]}` : ''}`;
    }
    case 'boolean': {
      const text = one(raw).trim().toLowerCase();
      if (text !== 'true' && text !== 'false') unfit(`"${one(raw)}" is not true or false`);
      return text;
    }
    case 'color': {
      const text = one(raw).trim();
      if (!/^#[0-9a-fA-F]{6}$/.test(text)) unfit(`"${text}" is not a #rrggbb color`);
      return text.toLowerCase();
    }
    case 'date': {
      const text = one(raw).trim();
      if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) unfit(`"${text}" is not a YYYY-MM-DD date`);
      return text;
    }
    case 'date_time': {
      const text = one(raw).trim();
      if (type === 'DATE' && /^\d{4}-\d{2}-\d{2}$/.test(text)) return `${text}T00:00:00`;
      const time = Date.parse(text);
      if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(time))
        return unfit(`"${text}" is not a date and time`);
      return new Date(time).toISOString().slice(0, 19);
    }
    case 'url': {
      const text = one(raw).trim();
      const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
      if (!scheme || !(MetafieldTypes.URL_SCHEMES as readonly string[]).includes(scheme))
        unfit(`"${text}" has none of the schemes ${MetafieldTypes.URL_SCHEMES.join(', ')}`);
      return text;
    }
    case 'money': {
      const [amount = '', currency] = one(raw).trim().split(/\s+/);
      const code = currency ?? context.shopCurrency ?? null;
      if (!/^-?\d+(\.\d+)?$/.test(amount)) unfit(`"${one(raw)}" is not a price`);
      if (!code) return unfit('the price has no currency and the shop currency is unknown');
      return JSON.stringify({ amount, currency_code: code.toUpperCase() });
    }
    case 'dimension':
    case 'volume':
    case 'weight': {
      const match = /^(-?\d+(?:\.\d+)?)\s*([A-Za-z0-9_]+)$/.exec(one(raw).trim());
      const units = MetafieldTypes.MEASUREMENT_UNITS[to];
      const unit = match?.[2]?.toLowerCase();
      if (!match || !unit || !units.includes(unit))
        return unfit(`"${one(raw)}" is not a ${to} in ${units.join(', ')}`);
      return JSON.stringify({ value: Number(match[1]), unit });
    }
    case 'json':
      return JSON.stringify(raw);
    default:
      return unfit(`the connector does not convert to ${to}`);
  }
}

function nonBlank(text: string): string {
  return text.trim() === '' ? unfit('the value is blank') : text;
}

/** Plain text as HTML paragraphs (blank lines separate them; single line breaks become <br>). */
export function textToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** The text lines of HTML (one per paragraph, heading and list item). */
export function htmlToLines(html: string): string[] {
  const lines = richTextToLines(htmlToRichText(html)).map((l) => l.trim());
  const kept = lines.filter((l) => l !== '');
  return kept.length > 0
    ? kept
    : [
        decodeEntities(html.replace(/<[^>]*>/g, ' '))
          .replace(/\s+/g, ' ')
          .trim(),
      ];
}

/** LONG_TEXT as list items: one per non-empty line, without a leading bullet (-, *, •, 1.). */
function bulletLines(text: string): string[] {
  return text
    .split(/\r\n?|\n/)
    .map((line) => line.replace(/^\s*(?:[-*•·]|\d+[.)])\s+/, '').trim())
    .filter((line) => line !== '');
}
