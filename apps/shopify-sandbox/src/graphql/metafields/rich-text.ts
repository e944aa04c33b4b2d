import { RICH_TEXT } from './metafield-types.data.js';

type Node = Record<string, unknown>;

/**
 * Checks a parsed `rich_text_field` value against Shopify's rich text document shape: a
 * `root` whose children are `paragraph`, `heading` (level 1-6) and `list` (ordered or
 * unordered, of `list-item`s) blocks, whose children are `text` (a string `value`, optional
 * boolean `bold`/`italic`) and `link` (a string `url`, optional `title`/`target`, text
 * children). Returns where the document first goes wrong, or undefined when it is valid.
 */
export function richTextProblem(document: unknown): string | undefined {
  if (!isNode(document) || document.type !== RICH_TEXT.root) return 'the document is not a "root" node';
  return children(document, 'root', (child, at) => blockProblem(child, at));
}

function isNode(value: unknown): value is Node {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as Node).type === 'string'
  );
}

function children(
  node: Node,
  at: string,
  check: (child: unknown, at: string) => string | undefined,
): string | undefined {
  if (!Array.isArray(node.children)) return `${at} has no children list`;
  for (const [index, child] of node.children.entries()) {
    const problem = check(child, `${at}.children[${index}]`);
    if (problem) return problem;
  }
  return undefined;
}

function blockProblem(node: unknown, at: string): string | undefined {
  if (!isNode(node)) return `${at} is not a node`;
  switch (node.type) {
    case 'paragraph':
      return children(node, at, inlineProblem);
    case 'heading':
      if (!(RICH_TEXT.headingLevels as readonly unknown[]).includes(node.level))
        return `${at} has no level 1-6`;
      return children(node, at, inlineProblem);
    case 'list':
      if (!(RICH_TEXT.listTypes as readonly unknown[]).includes(node.listType))
        return `${at} has no listType ordered or unordered`;
      return children(node, at, (item, itemAt) =>
        isNode(item) && item.type === RICH_TEXT.listItem
          ? children(item, itemAt, inlineProblem)
          : `${itemAt} is not a list-item`,
      );
    default:
      return `${at} is not a ${RICH_TEXT.blocks.join(', ')} block`;
  }
}

function inlineProblem(node: unknown, at: string): string | undefined {
  if (!isNode(node)) return `${at} is not a node`;
  if (node.type === 'text') return textProblem(node, at);
  if (node.type === 'link') {
    if (typeof node.url !== 'string') return `${at} has no url`;
    for (const key of ['title', 'target'] as const) {
      if (node[key] !== undefined && node[key] !== null && typeof node[key] !== 'string')
        return `${at}.${key} is not a string`;
    }
    return children(node, at, (child, childAt) =>
      isNode(child) && child.type === 'text' ? textProblem(child, childAt) : `${childAt} is not a text node`,
    );
  }
  return `${at} is not a ${RICH_TEXT.inline.join(' or ')} node`;
}

function textProblem(node: Node, at: string): string | undefined {
  if (typeof node.value !== 'string') return `${at} has no string value`;
  for (const key of ['bold', 'italic'] as const) {
    if (node[key] !== undefined && typeof node[key] !== 'boolean') return `${at}.${key} is not true or false`;
  }
  return undefined;
}
