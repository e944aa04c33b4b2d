import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  getArgumentValues,
  getNamedType,
  isAbstractType,
  isCompositeType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** What a mutation root field costs before its selection (Shopify's "Mutation: 10"). */
export const MUTATION_COST = 10;

/**
 * Mutations that cost a flat 10 whatever their payload selects: Shopify answers
 * `requestedQueryCost: 10` for them with `bulkOperation {…}` and `userErrors {…}` selected
 * (captured 2026-04 answers, see the README's bulk facts).
 */
export const FLAT_COST_MUTATIONS: ReadonlySet<string> = new Set([
  'bulkOperationRunQuery',
  'bulkOperationCancel',
]);

export interface CostInput {
  schema: GraphQLSchema;
  operation: OperationDefinitionNode;
  fragments: Record<string, FragmentDefinitionNode>;
  /** Coerced variable values. */
  variables: Record<string, unknown>;
}

/**
 * Query cost, after Shopify's calculated query cost
 * (https://shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits):
 * - scalars and enums cost 0, `__typename` and introspection 0;
 * - an object field costs 1 plus its selection; an interface or union field the most
 *   expensive of its possible types' selections;
 * - a connection costs 2 + n × (cost of one item), where n is `first` (or `last`) and one item
 *   is what `edges { node }` and `nodes` select (1 + their selection); `pageInfo` is free;
 * - a mutation root field costs 10 plus what its payload selects.
 * The actual cost walks the result: connections count the items really returned, at any depth
 * (inside lists too), and an object that came back null costs 1.
 */
export function requestedQueryCost(input: CostInput): number {
  return operationCost(input, undefined);
}

export function actualQueryCost(input: CostInput, data: unknown): number {
  return operationCost(input, data ?? null);
}

function operationCost(input: CostInput, data: unknown): number {
  if (input.operation.operation !== 'mutation') {
    const root = input.schema.getQueryType();
    return root ? selectionCost(input, input.operation.selectionSet, root, data) : 0;
  }
  const root = input.schema.getMutationType();
  let cost = 0;
  for (const node of rootFields(input, input.operation.selectionSet)) {
    const payload = root?.getFields()[node.name.value]?.type;
    const type = payload && getNamedType(payload);
    cost += MUTATION_COST;
    if (FLAT_COST_MUTATIONS.has(node.name.value)) continue;
    if (!type || !isCompositeType(type) || !node.selectionSet) continue;
    const value =
      data === undefined
        ? undefined
        : ((data as Record<string, unknown> | null)?.[responseName(node)] ?? null);
    if (value !== null) cost += selectionCost(input, node.selectionSet, type, value);
  }
  return cost;
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

/**
 * The cost of a selection on `parent`. `data` is undefined for the requested cost, or the
 * result object at this level for the actual one. On an abstract type, the dearest of its
 * possible types.
 */
function selectionCost(
  input: CostInput,
  set: SelectionSetNode,
  parent: GraphQLCompositeType,
  data: unknown,
): number {
  if (!isAbstractType(parent)) return concreteCost(input, set, parent, parent, data);
  const possible = input.schema.getPossibleTypes(parent);
  return Math.max(0, ...possible.map((type) => concreteCost(input, set, parent, type, data)));
}

/** The fields a selection picks on one concrete type (fragments applying to it included). */
function concreteCost(
  input: CostInput,
  set: SelectionSetNode,
  parent: GraphQLCompositeType,
  concrete: GraphQLObjectType,
  data: unknown,
): number {
  let cost = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const owner = isObjectType(parent) || isInterfaceType(parent) ? parent : concrete;
      cost += fieldCost(input, selection, owner, data);
      continue;
    }
    const fragment =
      selection.kind === Kind.INLINE_FRAGMENT ? selection : input.fragments[selection.name.value];
    if (!fragment) continue;
    const condition = fragment.typeCondition
      ? input.schema.getType(fragment.typeCondition.name.value)
      : parent;
    if (!condition || !isCompositeType(condition)) continue;
    if (condition !== concrete && !(isAbstractType(condition) && input.schema.isSubType(condition, concrete)))
      continue;
    cost += concreteCost(input, fragment.selectionSet, condition, concrete, data);
  }
  return cost;
}

function fieldCost(
  input: CostInput,
  node: FieldNode,
  parent: GraphQLObjectType | Extract<GraphQLCompositeType, { getFields: unknown }>,
  data: unknown,
): number {
  if (node.name.value.startsWith('__') || !node.selectionSet) return 0;
  const field = parent.getFields()[node.name.value];
  if (!field) return 0;
  const type = getNamedType(field.type);
  if (isLeafType(type) || !isCompositeType(type)) return 0;
  const value =
    data === undefined ? undefined : ((data as Record<string, unknown> | null)?.[responseName(node)] ?? null);
  if (isConnection(field)) return connectionCost(input, node, field, type, value);
  if (data === undefined) return 1 + selectionCost(input, node.selectionSet, type, undefined);
  if (value === null) return 1;
  if (isListOfObjects(field) && Array.isArray(value)) {
    return (
      1 +
      Math.max(
        0,
        ...value.map((item) =>
          selectionCost(input, node.selectionSet as SelectionSetNode, type, item ?? null),
        ),
      )
    );
  }
  return 1 + selectionCost(input, node.selectionSet, type, value);
}

function connectionCost(
  input: CostInput,
  node: FieldNode,
  field: GraphQLField<unknown, unknown>,
  type: GraphQLCompositeType,
  data: unknown,
): number {
  const set = node.selectionSet as SelectionSetNode;
  if (data === undefined) {
    const args = safeArguments(field, node, input.variables);
    const asked = Number(args.first ?? args.last ?? 0) || 0;
    return 2 + asked * itemCost(input, set, type, undefined, 0);
  }
  const connection = (data ?? null) as Record<string, unknown> | null;
  const count = returnedItems(connection);
  let cost = 2;
  for (let i = 0; i < count; i++) cost += itemCost(input, set, type, connection, i);
  return cost;
}

/** What item `i` of a connection costs: `edges { node {…} }` and `nodes {…}` (1 + selection each). */
function itemCost(
  input: CostInput,
  set: SelectionSetNode,
  connection: GraphQLCompositeType,
  data: Record<string, unknown> | null | undefined,
  i: number,
): number {
  if (!isObjectType(connection)) return 0;
  let cost = 0;
  for (const selection of set.selections) {
    if (selection.kind !== Kind.FIELD || !selection.selectionSet) continue;
    const field = connection.getFields()[selection.name.value];
    const type = field && getNamedType(field.type);
    if (!type || !isCompositeType(type)) continue;
    const items = data === undefined ? undefined : ((data?.[responseName(selection)] as unknown[]) ?? []);
    if (selection.name.value === 'nodes') {
      const item = items === undefined ? undefined : (items[i] ?? null);
      cost += 1 + selectionCost(input, selection.selectionSet, type, item);
    }
    if (selection.name.value === 'edges' && isObjectType(type)) {
      for (const inner of selection.selectionSet.selections) {
        if (inner.kind !== Kind.FIELD || inner.name.value !== 'node' || !inner.selectionSet) continue;
        const nodeType = getNamedType(type.getFields().node.type);
        const edge = items === undefined ? undefined : ((items[i] as Record<string, unknown> | null) ?? null);
        const item = edge === undefined ? undefined : (edge?.[responseName(inner)] ?? null);
        if (isCompositeType(nodeType)) cost += 1 + selectionCost(input, inner.selectionSet, nodeType, item);
      }
    }
  }
  return cost;
}

function isConnection(field: GraphQLField<unknown, unknown>): boolean {
  const name = getNamedType(field.type).name;
  return name.endsWith('Connection') && field.args.some((arg) => arg.name === 'first');
}

function isListOfObjects(field: GraphQLField<unknown, unknown>): boolean {
  const type = isNonNullType(field.type) ? field.type.ofType : field.type;
  return isListType(type);
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

function responseName(node: FieldNode): string {
  return node.alias?.value ?? node.name.value;
}
