import {
  type ASTNode,
  type DocumentNode,
  type GraphQLFormattedError,
  getNamedType,
  Kind,
  visit,
} from 'graphql';
import type { DocumentIndex } from '../errors/document-index.js';
import { rubyError } from '../errors/ruby-error.js';
import { expectedGidTypes, globalIdProblem } from './global-ids.js';

/** Where an argument or input field sits: its field's coordinate and its input path (`product.id`). */
export function argumentChain(
  index: DocumentIndex,
  holder: ASTNode,
): { coordinate: string | undefined; chain: string } {
  const names: string[] = [];
  let current: ASTNode | undefined = holder;
  let coordinate: string | undefined;
  while (current) {
    if (current.kind === Kind.OBJECT_FIELD) names.unshift(current.name.value);
    if (current.kind === Kind.ARGUMENT) {
      names.unshift(current.name.value);
      coordinate = index.arguments.get(current)?.fieldCoordinate;
      break;
    }
    current = index.parents.get(current);
  }
  return { coordinate, chain: names.join('.') };
}

/**
 * `ID` literals that are not acceptable global ids, reported as graphql-ruby's
 * ArgumentLiteralsAreCompatible rule reports a coercion error: the coercion message, located
 * at the field (or input object) holding the argument, code `argumentLiteralsIncompatible`,
 * `typeName: "CoercionError"`. One error per argument, as graphql-ruby reports.
 */
export function literalIdErrors(document: DocumentNode, index: DocumentIndex): GraphQLFormattedError[] {
  const errors: GraphQLFormattedError[] = [];
  const reported = new Set<ASTNode>();
  const check = (node: ASTNode, value: string) => {
    const holder = index.closest(node, [Kind.ARGUMENT, Kind.OBJECT_FIELD]);
    const info = holder ? index.arguments.get(holder) : undefined;
    if (!holder || !info?.type || getNamedType(info.type).name !== 'ID' || reported.has(holder)) return;
    const { coordinate, chain } = argumentChain(index, holder);
    const problem = globalIdProblem(value, expectedGidTypes(coordinate, chain));
    if (!problem) return;
    reported.add(holder);
    errors.push(
      rubyError(problem, info.parentNode, index.path(holder), {
        code: 'argumentLiteralsIncompatible',
        typeName: 'CoercionError',
      }),
    );
  };
  visit(document, {
    StringValue: (node) => check(node, node.value),
    IntValue: (node) => check(node, node.value),
  });
  return errors;
}
