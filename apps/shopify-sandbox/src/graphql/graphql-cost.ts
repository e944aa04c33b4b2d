import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  getArgumentValues,
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isLeafType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** Every mutation root field costs this much, whatever it selects. */
export const MUTATION_COST = 10;

export interface CostInput {
  schema: GraphQLSchema;
  operation: OperationDefinitionNode;
  fragments: Record<string, FragmentDefinitionNode>;
  /** Coerced variable values. */
  variables: Record<string, unknown>;
}

/**
 * Query cost, approximating Shopify's calculated query cost:
 * - scalars and enums cost 0, `__typename` and introspection 0;
 * - an object, interface or union field costs 1 plus its selection;
 * - a connection costs 2 + n × (cost of one item), where n is `first` (or `last`) and one item
 *   is what `edges { node }` and `nodes` select (1 + their selection); `pageInfo` is free;
 * - each mutation root field costs 10.
 * The actual cost uses the number of items a top-level chain of connections really returned.
 */
export function requestedQueryCost(input: CostInput): number {
  return operationCost(input, undefined);
}

export function actualQueryCost(input: CostInput, data: unknown): number {
  return operationCost(input, data ?? null);
}

function operationCost(input: CostInput, data: unknown): number {
  const root =
    input.operation.operation === 'mutation' ? input.schema.getMutationType() : input.schema.getQueryType();
  if (!root) return 0;
  if (input.operation.operation === 'mutation') {
    return rootFields(input, input.operation.selectionSet).length * MUTATION_COST;
  }
  return selectionCost(input, input.operation.selectionSet, root, data);
}

/** The root field nodes of a selection set, fragments expanded. */
export function rootFields(input: Pick<CostInput, 'fragments'>, selectionSet: SelectionSetNode): FieldNode[] {
  const fields: FieldNode[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (!selection.name.value.startsWith('__')) fields.push(selection);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      fields.push(...rootFields(input, selection.selectionSet));
    } else {
      const fragment = input.fragments[selection.name.value];
      if (fragment) fields.push(...rootFields(input, fragment.selectionSet));
    }
  }
  return fields;
}

/** `data` is undefined for the requested cost, or the result object at this level for the actual one. */
function selectionCost(
  input: CostInput,
  set: SelectionSetNode,
  parent: GraphQLCompositeType,
  data: unknown,
): number {
  let cost = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      cost += fieldCost(input, selection, parent, data);
    } else {
      const fragment =
        selection.kind === Kind.INLINE_FRAGMENT ? selection : input.fragments[selection.name.value];
      if (!fragment) continue;
      const typeName = fragment.typeCondition?.name.value;
      const type = typeName ? input.schema.getType(typeName) : parent;
      if (type && isCompositeType(type)) cost += selectionCost(input, fragment.selectionSet, type, data);
    }
  }
  return cost;
}

function fieldCost(input: CostInput, node: FieldNode, parent: GraphQLCompositeType, data: unknown): number {
  if (node.name.value.startsWith('__') || !(isObjectType(parent) || isInterfaceType(parent))) return 0;
  const field = parent.getFields()[node.name.value];
  if (!field || !node.selectionSet) return 0;
  const type = getNamedType(field.type);
  if (isLeafType(type) || !isCompositeType(type)) return 0;
  const value =
    data === undefined
      ? undefined
      : objectOrNull((data as Record<string, unknown> | null)?.[responseName(node)]);
  if (isConnection(field)) return connectionCost(input, node, field, type, value);
  if (value === null) return 1;
  return 1 + selectionCost(input, node.selectionSet, type, value);
}

function connectionCost(
  input: CostInput,
  node: FieldNode,
  field: GraphQLField<unknown, unknown>,
  type: GraphQLCompositeType,
  data: Record<string, unknown> | null | undefined,
): number {
  const args = safeArguments(field, node, input.variables);
  const asked = Number(args.first ?? args.last ?? 0) || 0;
  const count = data === undefined ? asked : returnedItems(data);
  return 2 + count * itemCost(input, node.selectionSet as SelectionSetNode, type);
}

/** What one item of a connection selects: `edges { node {…} }` and `nodes {…}`. */
function itemCost(input: CostInput, set: SelectionSetNode, connection: GraphQLCompositeType): number {
  let cost = 0;
  if (!isObjectType(connection)) return 0;
  for (const selection of set.selections) {
    if (selection.kind !== Kind.FIELD || !selection.selectionSet) continue;
    const field = connection.getFields()[selection.name.value];
    if (!field) continue;
    const type = getNamedType(field.type);
    if (!isCompositeType(type)) continue;
    if (selection.name.value === 'nodes')
      cost += 1 + selectionCost(input, selection.selectionSet, type, undefined);
    if (selection.name.value === 'edges' && isObjectType(type)) {
      for (const inner of selection.selectionSet.selections) {
        if (inner.kind !== Kind.FIELD || inner.name.value !== 'node' || !inner.selectionSet) continue;
        const nodeType = getNamedType(type.getFields().node.type);
        if (isCompositeType(nodeType))
          cost += 1 + selectionCost(input, inner.selectionSet, nodeType, undefined);
      }
    }
  }
  return cost;
}

function isConnection(field: GraphQLField<unknown, unknown>): boolean {
  const name = getNamedType(field.type).name;
  return name.endsWith('Connection') && field.args.some((arg) => arg.name === 'first');
}

function returnedItems(data: Record<string, unknown> | null): number {
  if (!data) return 0;
  return Math.max(0, ...Object.values(data).map((v) => (Array.isArray(v) ? v.length : 0)));
}

function safeArguments(
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  variables: Record<string, unknown>,
) {
  try {
    return getArgumentValues(field, node, variables);
  } catch {
    return {};
  }
}

function objectOrNull(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function responseName(node: FieldNode): string {
  return node.alias?.value ?? node.name.value;
}
