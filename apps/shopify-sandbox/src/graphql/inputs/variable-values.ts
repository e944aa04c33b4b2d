import {
  type GraphQLFormattedError,
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  Kind,
  type OperationDefinitionNode,
  typeFromAST,
  visit,
} from 'graphql';
import type { DocumentIndex } from '../errors/document-index.js';
import { locationsOf } from '../errors/ruby-error.js';
import { expectedGidTypes, globalIdProblem } from './global-ids.js';
import { argumentChain } from './literal-ids.js';

/** One problem of a variable value, as graphql-ruby lists them in `extensions.problems`. */
interface Problem {
  path: Array<string | number>;
  explanation: string;
  message?: string;
}

/**
 * Checks the variables of an operation the way graphql-ruby does before anything runs, with
 * Shopify's `ID` scalar (a global id, of the expected type where the sandbox knows it):
 * `Variable $id of type ID! was provided invalid value`, with `extensions.value` and
 * `extensions.problems` (`Invalid global id \`123\``, `Expected value to not be null`, ...).
 * `checkIds: false` (leniency `global-ids`) accepts any ID.
 */
export function variableErrors(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  provided: Record<string, unknown>,
  index: DocumentIndex,
  checkIds: boolean,
): GraphQLFormattedError[] {
  const usages = variableUsages(operation, index);
  const errors: GraphQLFormattedError[] = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (!type) continue;
    const given = Object.hasOwn(provided, name);
    if (!given && definition.defaultValue) continue;
    const value = given ? provided[name] : null;
    const expected = (chain: string[]) => {
      for (const usage of usages.get(name) ?? []) {
        const types = expectedGidTypes(usage.coordinate, [usage.chain, ...chain].filter(Boolean).join('.'));
        if (types) return types;
      }
      return undefined;
    };
    const problems = checkValue(value, type, [], [], { expected, checkIds });
    if (problems.length === 0) continue;
    const fields = problems
      .filter((p) => p.path.length > 0)
      .map((p) => `${p.path.join('.')} (${p.explanation})`);
    errors.push({
      message: `Variable $${name} of type ${String(type)} was provided invalid value${fields.length ? ` for ${fields.join(', ')}` : ''}`,
      locations: locationsOf(definition),
      extensions: { value: value ?? null, problems },
    });
  }
  return errors;
}

/** Where each variable is used: the field coordinate and input path of its position. */
function variableUsages(operation: OperationDefinitionNode, index: DocumentIndex) {
  const usages = new Map<string, Array<{ coordinate: string | undefined; chain: string }>>();
  visit(operation, {
    Variable: (node) => {
      const holder = index.closest(node, [Kind.ARGUMENT, Kind.OBJECT_FIELD]);
      if (!holder || index.closest(node, [Kind.VARIABLE_DEFINITION])) return;
      const list = usages.get(node.name.value) ?? [];
      list.push(argumentChain(index, holder));
      usages.set(node.name.value, list);
    },
  });
  return usages;
}

interface CheckContext {
  expected: (chain: string[]) => readonly string[] | undefined;
  checkIds: boolean;
}

function checkValue(
  value: unknown,
  type: GraphQLInputType,
  path: Array<string | number>,
  chain: string[],
  ctx: CheckContext,
): Problem[] {
  if (isNonNullType(type)) {
    if (value === null || value === undefined)
      return [{ path, explanation: 'Expected value to not be null' }];
    return checkValue(value, type.ofType, path, chain, ctx);
  }
  if (value === null || value === undefined) return [];
  if (isListType(type)) {
    const items = Array.isArray(value) ? value : [value];
    return items.flatMap((item, i) => checkValue(item, type.ofType, [...path, i], chain, ctx));
  }
  if (isInputObjectType(type)) {
    if (typeof value !== 'object' || Array.isArray(value))
      return [{ path, explanation: `Expected ${JSON.stringify(value)} to be a key-value object.` }];
    const fields = type.getFields();
    const given = value as Record<string, unknown>;
    const problems: Problem[] = Object.keys(given)
      .filter((key) => !(key in fields))
      .map((key) => ({ path: [...path, key], explanation: `Field is not defined on ${type.name}` }));
    for (const field of Object.values(fields)) {
      const fieldValue = given[field.name];
      if (fieldValue === undefined && field.defaultValue !== undefined) continue;
      problems.push(
        ...checkValue(fieldValue, field.type, [...path, field.name], [...chain, field.name], ctx),
      );
    }
    return problems;
  }
  if (isEnumType(type)) {
    if (typeof value === 'string' && type.getValue(value)) return [];
    const names = type.getValues().map((v) => v.name);
    return [{ path, explanation: `Expected ${serialize(value)} to be one of: ${names.join(', ')}` }];
  }
  if (isScalarType(type) && type.name === 'ID' && ctx.checkIds) {
    const problem = globalIdProblem(value, ctx.expected(chain));
    return problem ? [{ path, explanation: problem, message: problem }] : [];
  }
  try {
    if (type.parseValue(value) !== undefined) return [];
  } catch {
    // reported below
  }
  return [{ path, explanation: `Could not coerce value ${serialize(value)} to ${getNamedType(type).name}` }];
}

/** A value as graphql-ruby prints it in messages: GraphQL literal syntax. */
function serialize(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(serialize).join(', ')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}: ${serialize(v)}`)
      .join(', ')}}`;
  return JSON.stringify(value) ?? 'null';
}
