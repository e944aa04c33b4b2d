import type { TaxonomyNode } from '#lib/catalog-contract';
import type { DraftDecision } from './draft-decision.js';
import { likeness, sameName } from './name-match.js';
import type { NameCount } from './shop-sample.js';

/** Candidates offered for one name at most. */
const MAX_CANDIDATES = 6;
/** A leaf less alike than this is not offered. */
const MIN_LIKENESS = 0.35;

/** A product type whose leaf category the names settle. */
export interface CategoryPair {
  type: NameCount;
  leafId: string;
  /** The leaf's path of names: `Apparel > Tops > Shirts`. */
  path: string;
}

/** Product types with the leaf their name agrees with, and the decisions for the others. */
export interface CategoryMatches {
  pairs: CategoryPair[];
  decisions: DraftDecision[];
}

interface Node {
  id: string;
  name: string;
  path: string;
  leaves: Node[];
}

/**
 * Why: a product type names the category its products belong in, and only leaves may be
 * assigned (spec: TREE_NODE). Each type whose name agrees with exactly one leaf's name (or id),
 * case, spaces and plural aside, is paired with it; a type naming a category that is not a leaf,
 * several leaves, or none is a decision with the leaves it could be.
 */
export function matchProductTypes(
  types: readonly NameCount[],
  taxonomy: readonly TaxonomyNode[],
  entry: string,
): CategoryMatches {
  const nodes = flatten(taxonomy);
  const leaves = nodes.filter((n) => n.leaves.length === 0);
  const named = (type: string, node: Node) => sameName(type, node.name) || sameName(type, node.id);
  const pairs: CategoryPair[] = [];
  const decisions: DraftDecision[] = [];
  for (const type of types) {
    const subject = `product type ${JSON.stringify(type.name)}`;
    const decide = (kind: DraftDecision['kind'], message: string, candidates: string[]) =>
      decisions.push({ kind, subject, entry, products: type.products, message, candidates });
    const leafMatches = leaves.filter((leaf) => named(type.name, leaf));
    const [only] = leafMatches;
    if (leafMatches.length === 1 && only) {
      pairs.push({ type, leafId: only.id, path: only.path });
      continue;
    }
    if (leafMatches.length > 1) {
      decide(
        'category-ambiguous',
        `${leafMatches.length} leaf categories have that name: choose one`,
        leafMatches.map(described),
      );
      continue;
    }
    const branch = nodes.find((n) => n.leaves.length > 0 && named(type.name, n));
    if (branch) {
      decide(
        'category-not-leaf',
        `category "${branch.name}" (${branch.id}) is not a leaf: only leaves may be assigned; choose one of its leaves`,
        branch.leaves.slice(0, MAX_CANDIDATES * 2).map(described),
      );
      continue;
    }
    const near = leaves
      .map((leaf) => ({
        leaf,
        score: Math.max(likeness(type.name, leaf.name), likeness(type.name, leaf.id)),
      }))
      .filter((c) => c.score >= MIN_LIKENESS)
      .sort((a, b) => b.score - a.score || a.leaf.id.localeCompare(b.leaf.id))
      .slice(0, MAX_CANDIDATES)
      .map((c) => described(c.leaf));
    decide(
      'category-unmatched',
      `no leaf category of that name${near.length === 0 ? ' (and none alike: choose from the taxonomy, or add one)' : ''}`,
      near,
    );
  }
  return { pairs, decisions };
}

/** `apparel-tops-shirts (Apparel > Tops > Shirts)` */
function described(node: Node): string {
  return `${node.id} (${node.path})`;
}

/** Every node with its path of names and the leaves below it (none: it is a leaf). */
function flatten(tree: readonly TaxonomyNode[]): Node[] {
  const all: Node[] = [];
  const visit = (node: TaxonomyNode, parents: string[]): Node => {
    const path = [...parents, node.name || node.id];
    const own: Node = { id: node.id, name: node.name || node.id, path: path.join(' > '), leaves: [] };
    all.push(own);
    for (const child of node.children) {
      const below = visit(child, path);
      own.leaves.push(...(below.leaves.length === 0 ? [below] : below.leaves));
    }
    return own;
  };
  for (const root of tree) visit(root, []);
  return all;
}
