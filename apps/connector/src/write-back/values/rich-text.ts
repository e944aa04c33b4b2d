import { tokenizeHtml } from './html.js';

/** Shopify's `rich_text_field` document (see `RICH_TEXT_NODES` in the mapping's metafield data). */
export interface RichTextRoot {
  type: 'root';
  children: RichTextBlock[];
}
export type RichTextBlock =
  | { type: 'paragraph'; children: RichTextInline[] }
  | { type: 'heading'; level: number; children: RichTextInline[] }
  | { type: 'list'; listType: 'ordered' | 'unordered'; children: RichTextListItem[] };
export interface RichTextListItem {
  type: 'list-item';
  children: RichTextInline[];
}
export type RichTextInline = RichTextText | RichTextLink;
export interface RichTextText {
  type: 'text';
  value: string;
  bold?: true;
  italic?: true;
}
export interface RichTextLink {
  type: 'link';
  url: string;
  title?: string;
  target?: string;
  children: RichTextText[];
}

type Container = { children: RichTextInline[] };
const BLOCK_TAGS = new Set([
  'p',
  'div',
  'section',
  'article',
  'blockquote',
  'pre',
  'header',
  'footer',
  'main',
]);
const HEADING = /^h([1-6])$/;

/**
 * Catalog RICH_TEXT (HTML) as a `rich_text_field` document: paragraphs (and other block tags),
 * headings h1-h6, lists (nested lists flattened into their outer list), links, bold (`b`,
 * `strong`) and italic (`i`, `em`); other tags are unwrapped to their text, whitespace collapses
 * as a browser shows it, `<br>` becomes a line break inside the text. Text outside any block
 * becomes a paragraph.
 */
export function htmlToRichText(html: string): RichTextRoot {
  const blocks: RichTextBlock[] = [];
  let block: (Container & RichTextBlock) | null = null;
  let list: Extract<RichTextBlock, { type: 'list' }> | null = null;
  let listDepth = 0;
  let item: RichTextListItem | null = null;
  let bold = 0;
  let italic = 0;
  let link: RichTextLink | null = null;

  const closeBlock = () => {
    if (block && trimInline(block.children)) blocks.push(block);
    block = null;
    link = null;
  };
  const closeItem = () => {
    if (item && trimInline(item.children) && list) list.children.push(item);
    item = null;
    link = null;
  };
  const closeList = () => {
    closeItem();
    if (list && list.children.length > 0) blocks.push(list);
    list = null;
    listDepth = 0;
  };
  const container = (): Container => {
    if (item) return item;
    if (list) {
      item = { type: 'list-item', children: [] };
      return item;
    }
    if (!block) block = { type: 'paragraph', children: [] };
    return block;
  };
  const addText = (text: string) => {
    const previous = lastTextOf(container().children);
    const value = previous !== undefined && /[ \n]$/.test(previous) ? text.replace(/^ /, '') : text;
    if (value === '') return;
    const target = link ? link.children : container().children;
    const node: RichTextText = { type: 'text', value };
    if (bold > 0) node.bold = true;
    if (italic > 0) node.italic = true;
    const last = target.at(-1);
    if (last?.type === 'text' && last.bold === node.bold && last.italic === node.italic) last.value += value;
    else (target as RichTextInline[]).push(node);
  };

  for (const token of tokenizeHtml(html)) {
    if (token.kind === 'text') {
      const text = token.text.replace(/[ \t\r\n\f]+/g, ' ');
      if (text.trim() === '' && !block && !item) continue;
      addText(text);
      continue;
    }
    const name = token.name;
    const heading = HEADING.exec(name);
    if (token.kind === 'open') {
      if (name === 'br') addText('\n');
      else if (name === 'b' || name === 'strong') bold += 1;
      else if (name === 'i' || name === 'em') italic += 1;
      else if (name === 'a') {
        const url = token.attributes.href ?? '';
        link = { type: 'link', url, children: [] };
        if (token.attributes.title) link.title = token.attributes.title;
        if (token.attributes.target) link.target = token.attributes.target;
        container().children.push(link);
      } else if (name === 'ul' || name === 'ol') {
        if (listDepth === 0) {
          closeBlock();
          list = { type: 'list', listType: name === 'ol' ? 'ordered' : 'unordered', children: [] };
        } else closeItem();
        listDepth += 1;
      } else if (name === 'li') {
        if (!list) {
          closeBlock();
          list = { type: 'list', listType: 'unordered', children: [] };
          listDepth = 1;
        }
        closeItem();
        item = { type: 'list-item', children: [] };
      } else if (heading && !list) {
        closeBlock();
        block = { type: 'heading', level: Number(heading[1]), children: [] };
      } else if (BLOCK_TAGS.has(name) && !list) {
        closeBlock();
      }
      continue;
    }
    if (name === 'b' || name === 'strong') bold = Math.max(0, bold - 1);
    else if (name === 'i' || name === 'em') italic = Math.max(0, italic - 1);
    else if (name === 'a') link = null;
    else if (name === 'li') closeItem();
    else if (name === 'ul' || name === 'ol') {
      listDepth -= 1;
      if (listDepth <= 0) closeList();
    } else if ((heading || BLOCK_TAGS.has(name)) && !list) closeBlock();
  }
  if (list) closeList();
  closeBlock();
  return { type: 'root', children: blocks };
}

/** Plain text as a document: one paragraph per run of lines separated by a blank line. */
export function textToRichText(text: string): RichTextRoot {
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  return {
    type: 'root',
    children: paragraphs.map((value) => ({ type: 'paragraph', children: [{ type: 'text', value }] })),
  };
}

/** The text of a document: one line per paragraph, heading and list item. */
export function richTextToLines(document: RichTextRoot): string[] {
  const text = (nodes: RichTextInline[]) =>
    nodes.map((n) => (n.type === 'text' ? n.value : n.children.map((c) => c.value).join(''))).join('');
  return document.children.flatMap((block) =>
    block.type === 'list' ? block.children.map((item) => text(item.children)) : [text(block.children)],
  );
}

/** The last text value of inline content (inside a trailing link too). */
function lastTextOf(nodes: RichTextInline[]): string | undefined {
  const last = nodes.at(-1);
  if (!last) return undefined;
  return last.type === 'text' ? last.value : last.children.at(-1)?.value;
}

/** Trims the first and last text of inline content; false when nothing is left. */
function trimInline(nodes: RichTextInline[]): boolean {
  const texts = nodes.flatMap((n) => (n.type === 'text' ? [n] : n.children));
  const first = texts[0];
  const last = texts.at(-1);
  if (first) first.value = first.value.replace(/^ +/, '');
  if (last) last.value = last.value.replace(/ +$/, '');
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i] as RichTextInline;
    if (node.type === 'text' && node.value === '') nodes.splice(i, 1);
    if (node.type === 'link') node.children = node.children.filter((c) => c.value !== '');
  }
  return texts.some((t) => t.value.trim() !== '');
}
