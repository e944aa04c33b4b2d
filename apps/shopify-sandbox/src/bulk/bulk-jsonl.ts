import { type FieldNode, type FragmentDefinitionNode, Kind, type SelectionSetNode } from 'graphql';
import { shopifyJson } from '../webhooks/shopify-json.js';
import type { JsonlLine } from './bulk-operation.js';
import { fieldsOf } from './bulk-query-rules.js';

/** Root objects whose descendants follow them as one block when objects are not grouped. */
export const UNGROUPED_BLOCK = 250;

type Json = Record<string, unknown>;

/**
 * The JSONL lines of an executed bulk query: one line per object of a connection (or per root
 * object), nested connections taken out of their parent and their items written on lines of
 * their own with `__parentId` (the parent's `id`), every string with `/` escaped as Shopify
 * writes it. Parents always come before their children. With `groupObjects` a parent's
 * children follow it directly; without, the children of a block of root objects follow the
 * whole block (never directly, as Shopify warns one cannot rely on grouping).
 */
export function jsonlLines(
  data: Json,
  selection: SelectionSetNode,
  fragments: Record<string, FragmentDefinitionNode>,
  groupObjects: boolean,
): JsonlLine[] {
  const groups: JsonlLine[][] = [];
  for (const [key, fields] of byResponseKey(selection, fragments)) {
    const value = data[key];
    if (isConnection(value, fields, fragments)) {
      for (const node of connectionNodes(value))
        groups.push(objectLines(node, nodeSelection(fields), fragments, null));
    } else if (isObject(value)) {
      groups.push(objectLines(value, subSelection(fields), fragments, null));
    }
  }
  for (const group of groups) if (group[0]) group[0].root = true;
  if (groupObjects) return groups.flat();
  const lines: JsonlLine[] = [];
  for (let start = 0; start < groups.length; start += UNGROUPED_BLOCK) {
    const block = groups.slice(start, start + UNGROUPED_BLOCK);
    for (const group of block) lines.push(...group.slice(0, 1));
    for (const group of block) lines.push(...group.slice(1));
  }
  return lines;
}

/** An object's line followed by the lines of the connections nested in it (depth first). */
function objectLines(
  value: Json,
  selection: SelectionSetNode | undefined,
  fragments: Record<string, FragmentDefinitionNode>,
  parentId: string | null,
): JsonlLine[] {
  const children: JsonlLine[] = [];
  const own = typeof value.id === 'string' ? value.id : null;
  const stripped = strip(value, selection, fragments, own ?? parentId, children);
  if (parentId !== null) stripped.__parentId = parentId;
  return [{ text: shopifyJson(stripped), root: false }, ...children];
}

/** A copy of `value` without its connections, whose items are appended to `children`. */
function strip(
  value: Json,
  selection: SelectionSetNode | undefined,
  fragments: Record<string, FragmentDefinitionNode>,
  parentId: string | null,
  children: JsonlLine[],
): Json {
  const copy: Json = { ...value };
  if (!selection) return copy;
  for (const [key, fields] of byResponseKey(selection, fragments)) {
    const field = copy[key];
    if (isConnection(field, fields, fragments)) {
      delete copy[key];
      for (const node of connectionNodes(field)) {
        children.push(...objectLines(node, nodeSelection(fields), fragments, parentId));
      }
    } else if (isObject(field)) {
      copy[key] = strip(field, subSelection(fields), fragments, parentId, children);
    }
  }
  return copy;
}

function byResponseKey(
  selection: SelectionSetNode,
  fragments: Record<string, FragmentDefinitionNode>,
): Map<string, FieldNode[]> {
  const keys = new Map<string, FieldNode[]>();
  for (const field of fieldsOf(selection, fragments)) {
    const key = field.alias?.value ?? field.name.value;
    keys.set(key, [...(keys.get(key) ?? []), field]);
  }
  return keys;
}

/** A connection's value: an object whose field selects `edges`, holding an `edges` list. */
function isConnection(
  value: unknown,
  fields: FieldNode[],
  fragments: Record<string, FragmentDefinitionNode>,
): value is Json {
  if (!isObject(value) || !Array.isArray(value.edges)) return false;
  return fields.some(
    (f) =>
      f.selectionSet && fieldsOf(f.selectionSet, fragments).some((inner) => inner.name.value === 'edges'),
  );
}

function connectionNodes(connection: Json): Json[] {
  const edges = connection.edges as Array<Json | null>;
  return edges.flatMap((edge) => (edge && isObject(edge.node) ? [edge.node] : []));
}

/** The selection of `edges { node { … } }` under the connection's field nodes (merged). */
function nodeSelection(fields: FieldNode[]): SelectionSetNode | undefined {
  const selections = fields.flatMap((f) =>
    (f.selectionSet?.selections ?? []).flatMap((edges) =>
      edges.kind === Kind.FIELD && edges.name.value === 'edges' && edges.selectionSet
        ? edges.selectionSet.selections.flatMap((node) =>
            node.kind === Kind.FIELD && node.name.value === 'node' && node.selectionSet
              ? node.selectionSet.selections
              : [],
          )
        : [],
    ),
  );
  return selections.length > 0 ? { kind: Kind.SELECTION_SET, selections } : undefined;
}

function subSelection(fields: FieldNode[]): SelectionSetNode | undefined {
  const selections = fields.flatMap((f) => f.selectionSet?.selections ?? []);
  return selections.length > 0 ? { kind: Kind.SELECTION_SET, selections } : undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
