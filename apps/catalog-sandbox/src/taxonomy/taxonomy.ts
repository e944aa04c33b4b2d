import type { TaxonomyNode } from '#lib/catalog-contract';

/** A category node as an account definition gives it. */
export interface TaxonomyNodeDefinition {
  id: string;
  name: string;
  description?: string;
  reference?: string;
  children?: TaxonomyNodeDefinition[];
}

interface IndexedNode {
  id: string;
  name: string;
  description: string;
  reference: string | null;
  parentId: string | null;
  childIds: string[];
  createdAt: number;
}

/** An account's category tree, indexed by node id, with parent links for ancestor walks. */
export class Taxonomy {
  private readonly nodes = new Map<string, IndexedNode>();
  private readonly roots: string[] = [];

  constructor(definitions: TaxonomyNodeDefinition[], createdAt: number) {
    const visit = (def: TaxonomyNodeDefinition, parentId: string | null) => {
      if (this.nodes.has(def.id)) throw new Error(`duplicate category id "${def.id}"`);
      this.nodes.set(def.id, {
        id: def.id,
        name: def.name,
        description: def.description ?? '',
        reference: def.reference ?? null,
        parentId,
        childIds: (def.children ?? []).map((c) => c.id),
        createdAt,
      });
      for (const child of def.children ?? []) visit(child, def.id);
    };
    for (const root of definitions) {
      this.roots.push(root.id);
      visit(root, null);
    }
  }

  has(id: string): boolean {
    return this.nodes.has(id);
  }

  isLeaf(id: string): boolean {
    const node = this.nodes.get(id);
    return node !== undefined && node.childIds.length === 0;
  }

  /** Ancestor ids of a node, nearest first, excluding the node itself. */
  ancestors(id: string): string[] {
    const result: string[] = [];
    let current = this.nodes.get(id)?.parentId ?? null;
    while (current !== null) {
      result.push(current);
      current = this.nodes.get(current)?.parentId ?? null;
    }
    return result;
  }

  /** Leaf ids, depth first in tree order. */
  leaves(): string[] {
    return [...this.nodes.values()].filter((n) => n.childIds.length === 0).map((n) => n.id);
  }

  node(id: string): { id: string; name: string; description: string } | undefined {
    return this.nodes.get(id);
  }

  /** The tree as GET /v1/taxonomies returns it. */
  tree(): TaxonomyNode[] {
    const build = (id: string): TaxonomyNode => {
      const n = this.nodes.get(id) as IndexedNode;
      return {
        id: n.id,
        name: n.name,
        description: n.description,
        children: n.childIds.map(build),
        createdAt: n.createdAt,
      };
    };
    return this.roots.map(build);
  }
}
