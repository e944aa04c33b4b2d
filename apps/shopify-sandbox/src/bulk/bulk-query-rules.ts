import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  getOperationAST,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Leniency } from '../config/shopify-sandbox.config.js';
import { parseDocument, validateDocument } from '../graphql/document-checks.js';
import type { BulkUserError } from './bulk-operation.js';

/** Shopify's limits on a bulk query: at most five connections, nested at most two deep. */
export const MAX_BULK_CONNECTIONS = 5;
export const MAX_BULK_NESTING = 2;

/** A bulk query that passed every rule, ready to execute. */
export interface CheckedBulkQuery {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  fragments: Record<string, FragmentDefinitionNode>;
}

interface Findings {
  connections: number;
  depth: number;
  insideList: boolean;
  viaNodes: string[];
  withoutId: string[];
}

/**
 * The checks `bulkOperationRunQuery` makes on its `query`, with the messages and order of
 * Shopify's answers (captured 2026-04): parsing and schema validation ("Invalid bulk query:
 * …"), a query operation, no top-level `node`/`nodes`, no connection inside a list, connections
 * selected through `edges { node }`, an `id` on the node above a nested connection, at most five
 * connections, nesting at most two deep, at least one connection. Root fields the sandbox has
 * no resolver for are refused by name (`implemented`).
 */
export function checkBulkQuery(
  schema: GraphQLSchema,
  query: string,
  leniency: Leniency,
  implemented: (rootField: string) => boolean,
): CheckedBulkQuery | { errors: BulkUserError[] } {
  const invalid = (message: string): BulkUserError => ({ field: ['query'], message, code: 'INVALID' });
  const parsed = parseDocument(query);
  if ('errors' in parsed) {
    const message = parsed.errors[0]?.message ?? 'syntax error';
    const ruby = message === 'Unexpected end of document' ? 'syntax error, unexpected end of file' : message;
    return { errors: [invalid(`Invalid bulk query: ${ruby}`)] };
  }
  const { document } = parsed;
  const operation = getOperationAST(document);
  if (operation && operation.operation !== 'query') {
    return { errors: [invalid('Invalid operation type. Only `query` operations are supported.')] };
  }
  const validated = validateDocument(schema, document, leniency);
  if (validated.errors.length > 0) {
    return { errors: validated.errors.map((e) => invalid(`Invalid bulk query: ${e.message}`)) };
  }
  if (!operation) return { errors: [invalid('Invalid bulk query: An operation name is required')] };
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  const roots = fieldsOf(operation.selectionSet, fragments);
  const errors: BulkUserError[] = [];
  for (const name of ['node', 'nodes']) {
    if (roots.some((f) => f.name.value === name)) {
      errors.push(invalid(`Bulk queries cannot contain a top level \`${name}\` field.`));
    }
  }
  const distinctRoots = new Set(roots.map((f) => f.name.value));
  if (distinctRoots.size > 1) {
    errors.push(invalid('Bulk queries must select a single top-level field.'));
  }
  const findings: Findings = { connections: 0, depth: 0, insideList: false, viaNodes: [], withoutId: [] };
  const queryType = schema.getQueryType();
  if (queryType) walk(operation.selectionSet, queryType, 0, false, fragments, findings);
  if (findings.insideList) {
    errors.push(
      invalid('Queries that contain a connection field within a list field are not currently supported.'),
    );
  }
  if (findings.viaNodes.length > 0) {
    const first = findings.viaNodes[0];
    errors.push(
      invalid(
        `All connection fields in a bulk query must select their contents using 'edges' > 'node', e.g: '${first} { edges { node {'. Selecting via 'nodes' is not supported. Invalid connection fields: ${findings.viaNodes.map((n) => `'${n}'`).join(', ')}.`,
      ),
    );
  }
  if (findings.withoutId.length > 0) {
    errors.push(
      invalid(
        `The parent 'node' field for a nested connection must select the 'id' field without an alias and must be of 'ID' return type. Connection fields without 'id': ${findings.withoutId.join(', ')}.`,
      ),
    );
  }
  if (findings.connections > MAX_BULK_CONNECTIONS) {
    errors.push(invalid(`Bulk queries cannot contain more than ${MAX_BULK_CONNECTIONS} connections.`));
  }
  if (findings.depth > MAX_BULK_NESTING) {
    errors.push(
      invalid(
        `Bulk queries cannot contain connections with a nesting depth greater than ${MAX_BULK_NESTING}.`,
      ),
    );
  }
  if (findings.connections === 0) errors.push(invalid('Bulk queries must contain at least one connection.'));
  if (errors.length > 0) return { errors };
  const missing = roots.find((f) => !implemented(f.name.value));
  if (missing) {
    return {
      errors: [invalid(`Bulk query root '${missing.name.value}' is not implemented by shopify-sandbox.`)],
    };
  }
  return { document, operation, fragments };
}

/** True for a Relay connection type of the schema (`…Connection` with `edges`). */
export function isConnectionType(type: GraphQLNamedType): boolean {
  return isObjectType(type) && type.name.endsWith('Connection') && 'edges' in type.getFields();
}

/** The fields of a selection set, fragments (whatever their type condition) expanded. */
export function fieldsOf(
  set: SelectionSetNode,
  fragments: Record<string, FragmentDefinitionNode>,
): FieldNode[] {
  const fields: FieldNode[] = [];
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) fields.push(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT)
      fields.push(...fieldsOf(selection.selectionSet, fragments));
    else {
      const fragment = fragments[selection.name.value];
      if (fragment) fields.push(...fieldsOf(fragment.selectionSet, fragments));
    }
  }
  return fields;
}

/** Walks a selection on `parent`, counting connections; returns whether it holds one. */
function walk(
  set: SelectionSetNode,
  parent: GraphQLCompositeType,
  depth: number,
  insideList: boolean,
  fragments: Record<string, FragmentDefinitionNode>,
  findings: Findings,
): boolean {
  let holdsConnection = false;
  for (const field of fieldsOf(set, fragments)) {
    if (!field.selectionSet || !(isObjectType(parent) || isInterfaceType(parent))) continue;
    const definition = parent.getFields()[field.name.value];
    if (!definition) continue;
    const type = getNamedType(definition.type);
    if (!isCompositeType(type)) continue;
    if (!isConnectionType(type)) {
      const list = isListType(getNullableType(definition.type));
      holdsConnection =
        walk(field.selectionSet, type, depth, insideList || list, fragments, findings) || holdsConnection;
      continue;
    }
    holdsConnection = true;
    findings.connections += 1;
    findings.depth = Math.max(findings.depth, depth + 1);
    if (insideList) findings.insideList = true;
    const connection = type as GraphQLCompositeType & { getFields: () => Record<string, { type: never }> };
    for (const inner of fieldsOf(field.selectionSet, fragments)) {
      if (inner.name.value === 'nodes' && inner.selectionSet) {
        findings.viaNodes.push(field.name.value);
        walkNode(inner.selectionSet, getNamedType(connection.getFields().nodes.type), field, depth + 1);
      }
      if (inner.name.value !== 'edges' || !inner.selectionSet) continue;
      const edgeType = getNamedType(connection.getFields().edges.type);
      if (!isObjectType(edgeType)) continue;
      for (const node of fieldsOf(inner.selectionSet, fragments)) {
        if (node.name.value === 'node' && node.selectionSet) {
          walkNode(node.selectionSet, getNamedType(edgeType.getFields().node.type), field, depth + 1);
        }
      }
    }
  }
  return holdsConnection;

  function walkNode(
    nodeSet: SelectionSetNode,
    nodeType: GraphQLNamedType,
    owner: FieldNode,
    at: number,
  ): void {
    if (!isCompositeType(nodeType)) return;
    const nested = walk(nodeSet, nodeType, at, false, fragments, findings);
    const selectsId = fieldsOf(nodeSet, fragments).some((f) => f.name.value === 'id' && !f.alias);
    if (nested && !selectsId) findings.withoutId.push(owner.name.value);
  }
}
