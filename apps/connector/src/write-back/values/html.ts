/** A piece of HTML: text (entities decoded), an opening tag with its attributes, or a closing tag. */
export type HtmlToken =
  | { kind: 'text'; text: string }
  | { kind: 'open'; name: string; attributes: Record<string, string>; selfClosing: boolean }
  | { kind: 'close'; name: string };

const TOKEN = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<!\w[^>]*>|<\/?[A-Za-z][^>]*>|[^<]+|</g;
const ATTRIBUTE = /([^\s"'=<>`/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/**
 * Splits catalog RICH_TEXT (HTML) into tokens, forgivingly: comments and doctypes are dropped,
 * a stray `<` is text, tag names are lower-cased. Enough for the conversions the write-back
 * makes (rich text documents, plain text); not a validating parser.
 */
export function tokenizeHtml(html: string): HtmlToken[] {
  const tokens: HtmlToken[] = [];
  for (const match of html.matchAll(TOKEN)) {
    const raw = match[0];
    if (raw.startsWith('<!')) continue;
    if (raw === '<' || !raw.startsWith('<')) {
      tokens.push({ kind: 'text', text: decodeEntities(raw) });
      continue;
    }
    const closing = raw.startsWith('</');
    const body = raw.slice(closing ? 2 : 1, -1);
    const name = (/^[A-Za-z][A-Za-z0-9-]*/.exec(body)?.[0] ?? '').toLowerCase();
    if (closing) {
      tokens.push({ kind: 'close', name });
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const attribute of body.slice(name.length).matchAll(ATTRIBUTE)) {
      const key = (attribute[1] as string).toLowerCase();
      attributes[key] = decodeEntities(attribute[2] ?? attribute[3] ?? attribute[4] ?? '');
    }
    tokens.push({ kind: 'open', name, attributes, selfClosing: body.trimEnd().endsWith('/') });
  }
  return tokens;
}

/** Decodes named (the common five and `&nbsp;`) and numeric character references. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code =
        ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

/** Escapes text for HTML content. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
