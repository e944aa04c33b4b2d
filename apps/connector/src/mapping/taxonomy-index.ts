import type { TaxonomyNode } from '#lib/catalog-contract';

/**
 * The account's category tree as a lookup: which ids exist and which are leaves (the only
 * nodes a product may be assigned to, spec: TREE_NODE).
 */
export class TaxonomyIndex {
  readonly #children = new Map<string, string[]>();
  readonly #byLowerId = new Map<string, string>();

  constructor(tree: readonly TaxonomyNode[]) {
    const visit = (node: TaxonomyNode) => {
      this.#children.set(
        node.id,
        node.children.map((child) => child.id),
      );
      this.#byLowerId.set(node.id.toLowerCase(), node.id);
      for (const child of node.children) visit(child);
    };
    for (const root of tree) visit(root);
  }

  has(id: string): boolean {
    return this.#children.has(id);
  }

  isLeaf(id: string): boolean {
    return this.#children.get(id)?.length === 0;
  }

  childrenOf(id: string): readonly string[] {
    return this.#children.get(id) ?? [];
  }

  /** The id as the account spells it, matched ignoring case, or undefined. */
  findIgnoringCase(id: string): string | undefined {
    return this.#byLowerId.get(id.toLowerCase());
  }

  /** Every leaf id, sorted: part of the configuration hash of category mappings. */
  leafIds(): string[] {
    return [...this.#children]
      .filter(([, children]) => children.length === 0)
      .map(([id]) => id)
      .sort();
  }
}
