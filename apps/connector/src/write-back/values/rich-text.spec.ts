import { describe, expect, it } from 'vitest';
import { decodeEntities, tokenizeHtml } from './html.js';
import { htmlToRichText, richTextToLines, textToRichText } from './rich-text.js';

const text = (value: string, style: { bold?: true; italic?: true } = {}) => ({
  type: 'text',
  value,
  ...style,
});

describe('htmlToRichText', () => {
  it('turns the catalog enricher’s RICH_TEXT into paragraphs and a list', () => {
    const html =
      '<p>Acme Linen shirt.</p><ul><li>Model LS-1.</li><li>Shirts: woven &amp; collared.</li></ul>';
    expect(htmlToRichText(html)).toEqual({
      type: 'root',
      children: [
        { type: 'paragraph', children: [text('Acme Linen shirt.')] },
        {
          type: 'list',
          listType: 'unordered',
          children: [
            { type: 'list-item', children: [text('Model LS-1.')] },
            { type: 'list-item', children: [text('Shirts: woven & collared.')] },
          ],
        },
      ],
    });
  });

  it('keeps headings, ordered lists, bold, italic and links; unwraps other tags; collapses whitespace', () => {
    const html = `<h2>Care</h2>
      <p>Wash <strong>cold</strong>, <em>never</em> <b><i>tumble</i></b> dry.<br>See
      <a href="https://acme.example/care" title="Care guide" target="_blank">our <span>guide</span></a>.</p>
      <ol><li>Soak</li><li>Rinse<ul><li>twice</li></ul></li></ol>`;
    expect(htmlToRichText(html).children).toEqual([
      { type: 'heading', level: 2, children: [text('Care')] },
      {
        type: 'paragraph',
        children: [
          text('Wash '),
          text('cold', { bold: true }),
          text(', '),
          text('never', { italic: true }),
          text(' '),
          text('tumble', { bold: true, italic: true }),
          text(' dry.\nSee '),
          {
            type: 'link',
            url: 'https://acme.example/care',
            title: 'Care guide',
            target: '_blank',
            children: [text('our guide')],
          },
          text('.'),
        ],
      },
      {
        type: 'list',
        listType: 'ordered',
        children: [
          { type: 'list-item', children: [text('Soak')] },
          { type: 'list-item', children: [text('Rinse')] },
          { type: 'list-item', children: [text('twice')] },
        ],
      },
    ]);
  });

  it('wraps text outside any block in a paragraph, and drops empty blocks and comments', () => {
    expect(htmlToRichText('Plain <!-- note --> words<p> </p>').children).toEqual([
      { type: 'paragraph', children: [text('Plain words')] },
    ]);
    expect(htmlToRichText('').children).toEqual([]);
  });
});

describe('plain text and back', () => {
  it('makes one paragraph per blank-line-separated block, keeping single line breaks', () => {
    expect(textToRichText('First line\nsecond line\n\n\nNext').children).toEqual([
      { type: 'paragraph', children: [text('First line\nsecond line')] },
      { type: 'paragraph', children: [text('Next')] },
    ]);
  });

  it('reads a document back as lines', () => {
    expect(
      richTextToLines(htmlToRichText('<h1>A</h1><p>B <a href="x">c</a></p><ul><li>d</li></ul>')),
    ).toEqual(['A', 'B c', 'd']);
  });
});

describe('HTML tokens', () => {
  it('decodes named and numeric references, leaving unknown ones', () => {
    expect(decodeEntities('&lt;&#65;&#x42;&nbsp;&bogus;&amp;')).toBe('<AB\u00a0&bogus;&');
  });

  it('reads attributes in every quoting style, and a stray < as text', () => {
    expect(tokenizeHtml(`<A HREF='x' data-y=z checked>1 < 2</a>`)).toEqual([
      { kind: 'open', name: 'a', attributes: { href: 'x', 'data-y': 'z', checked: '' }, selfClosing: false },
      { kind: 'text', text: '1 ' },
      { kind: 'text', text: '<' },
      { kind: 'text', text: ' 2' },
      { kind: 'close', name: 'a' },
    ]);
  });
});
