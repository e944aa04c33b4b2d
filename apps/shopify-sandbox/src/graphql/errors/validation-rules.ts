import {
  type ASTNode,
  type FieldNode,
  type GraphQLError,
  type GraphQLFormattedError,
  Kind,
  type OperationDefinitionNode,
  type VariableDefinitionNode,
} from 'graphql';
import type { DocumentIndex } from './document-index.js';
import { rubyError } from './ruby-error.js';
import {
  fieldConflict,
  leafSelectionError,
  literalError,
  operationName,
  variableMismatch,
} from './rule-errors.js';

type Extensions = Record<string, unknown>;

/** What a rule sees of one graphql-js error: its match, the error, the index, and the first node's path. */
interface RuleInput {
  m: RegExpExecArray;
  error: GraphQLError;
  index: DocumentIndex;
  node: ASTNode | undefined;
  path: string[];
}

type Rule = [RegExp, (input: RuleInput) => GraphQLFormattedError];

/** A rule whose error sits on the first node, at its path: message and extensions from the match. */
const simple =
  (build: (m: RegExpExecArray) => [string, Extensions]) =>
  ({ m, node, path }: RuleInput) => {
    const [message, extensions] = build(m);
    return rubyError(message, node, path, extensions);
  };

/**
 * graphql-js validation messages (16.x) and the graphql-ruby error each one becomes, rule by
 * rule (graphql-ruby's lib/graphql/static_validation/rules/*: the message, `extensions.code`
 * and the other extension keys).
 */
export const VALIDATION_RULES: Rule[] = [
  [
    /^Cannot query field "([^"]+)" on type "([^"]+)"\./,
    simple((m) => [
      `Field '${m[1]}' doesn't exist on type '${m[2]}'`,
      { code: 'undefinedField', typeName: m[2], fieldName: m[1] },
    ]),
  ],
  [
    /^Unknown argument "([^"]+)" on (field|directive) "@?([^"]+)"\./,
    ({ m, node, path, index }) => {
      const kind = m[2] === 'field' ? 'Field' : 'Directive';
      const name = (node && index.arguments.get(node)?.parentName) ?? m[3];
      return rubyError(`${kind} '${name}' doesn't accept argument '${m[1]}'`, node, path, {
        code: 'argumentNotAccepted',
        name,
        typeName: kind,
        argumentName: m[1],
      });
    },
  ],
  [
    /^Field "([^"]+)" is not defined by type "([^"]+)"\./,
    simple((m) => [
      `InputObject '${m[2]}' doesn't accept argument '${m[1]}'`,
      { code: 'argumentNotAccepted', name: m[2], typeName: 'InputObject', argumentName: m[1] },
    ]),
  ],
  [
    /^Field "([^".]+)\.([^"]+)" of required type "([^"]+)" was not provided\./,
    ({ m, node, index }) => {
      const holder = index.closest(node, [Kind.ARGUMENT, Kind.OBJECT_FIELD]);
      return rubyError(
        `Argument '${m[2]}' on InputObject '${m[1]}' is required. Expected type ${m[3]}`,
        node,
        [...index.path(holder), m[2]],
        {
          code: 'missingRequiredInputObjectAttribute',
          argumentName: m[2],
          argumentType: m[3],
          inputObjectType: m[1],
        },
      );
    },
  ],
  [
    /^Field "([^"]+)" of type "([^"]+)" must have (?:a selection of subfields|at least one field)/,
    simple((m) => {
      const type = m[2].replace(/[[\]!]/g, '');
      const nodeName = `field '${m[1]}'`;
      return [
        `Field must have selections (${nodeName} returns ${type} but has no selections. Did you mean '${m[1]} { ... }'?)`,
        { code: 'selectionMismatch', nodeName, typeName: type },
      ];
    }),
  ],
  [
    /^Field "([^"]+)" must not have a selection since type "([^"]+)" has no subfields\./,
    ({ m, node, index }) => {
      // graphql-js points at the selection set; graphql-ruby at the field.
      const field = (node?.kind === Kind.SELECTION_SET ? index.parents.get(node) : node) as
        | FieldNode
        | undefined;
      return leafSelectionError(m[1], field, index, index.path(field));
    },
  ],
  [
    /^Unknown type "([^"]+)"\./,
    ({ m, node, index, path }) => {
      const definition = index.closest(node, [Kind.VARIABLE_DEFINITION]) as
        | VariableDefinitionNode
        | undefined;
      if (!definition) {
        return rubyError(`No such type ${m[1]}, so it can't be a fragment condition`, node, path, {
          code: 'undefinedType',
          typeName: m[1],
        });
      }
      const variableName = definition.variable.name.value;
      return rubyError(`${m[1]} isn't a defined input type (on $${variableName})`, node, path, {
        code: 'variableRequiresValidType',
        typeName: m[1],
        variableName,
      });
    },
  ],
  [
    /^Variable "\$([^"]+)" is never used/,
    ({ m, node, index }) => {
      const operation = index.closest(node, [Kind.OPERATION_DEFINITION]) as
        | OperationDefinitionNode
        | undefined;
      return rubyError(
        `Variable $${m[1]} is declared by ${operationName(operation)} but not used`,
        operation,
        index.path(operation),
        { code: 'variableNotUsed', variableName: m[1] },
      );
    },
  ],
  [
    /^Variable "\$([^"]+)" is not defined/,
    ({ m, node, path, error }) => {
      const operation = error.nodes?.[1] as OperationDefinitionNode | undefined;
      return rubyError(
        `Variable $${m[1]} is used by ${operationName(operation)} but not declared`,
        node,
        path,
        {
          code: 'variableNotDefined',
          variableName: m[1],
        },
      );
    },
  ],
  [
    /^Variable "\$([^"]+)" of type "([^"]+)" used in position expecting type "([^"]+)"\./,
    ({ m, error, index }) => variableMismatch(m[1], m[2], m[3], error, index),
  ],
  [
    /^(Expected value of type|Enum "|Value "|.* cannot represent)/,
    ({ node, index, path }) =>
      node
        ? literalError(node, index)
        : rubyError('Invalid value', node, path, { code: 'argumentLiteralsIncompatible' }),
  ],
  [
    /^Unknown fragment "([^"]+)"\./,
    simple((m) => [
      `Fragment ${m[1]} was used, but not defined`,
      { code: 'useAndDefineFragment', fragmentName: m[1] },
    ]),
  ],
  [
    /^Fragment "([^"]+)" is never used\./,
    simple((m) => [
      `Fragment ${m[1]} was defined, but not used`,
      { code: 'useAndDefineFragment', fragmentName: m[1] },
    ]),
  ],
  [
    /^Unknown directive "@([^"]+)"\./,
    simple((m) => [`Directive @${m[1]} is not defined`, { code: 'undefinedDirective', directiveName: m[1] }]),
  ],
  [
    /^Fragment (?:"([^"]+)" )?cannot be spread here as objects of type "([^"]+)" can never be of type "([^"]+)"\./,
    simple((m) => [
      `Fragment${m[1] ? ` ${m[1]}` : ''} on ${m[3]} can't be spread inside ${m[2]}`,
      { code: 'cannotSpreadFragment', typeName: m[3], fragmentName: m[1] ?? 'unknown', parentName: m[2] },
    ]),
  ],
  [
    /^There can be only one operation named "([^"]+)"\./,
    simple((m) => [`Operation name "${m[1]}" must be unique`, { code: 'uniquelyNamedOperations' }]),
  ],
  [
    /^This anonymous operation must be the only defined operation\./,
    simple(() => [
      'Operation name is required when multiple operations are present',
      { code: 'uniquelyNamedOperations' },
    ]),
  ],
  [
    /^Variable "\$([^"]+)" cannot be non-input type "([^"]+)"\./,
    simple((m) => [
      `${m[2].replace(/[[\]!]/g, '')} isn't a valid input type (on $${m[1]})`,
      { code: 'variableRequiresValidType', typeName: m[2], variableName: m[1] },
    ]),
  ],
  [
    /^Fragment (?:"[^"]+" )?cannot condition on non composite type "([^"]+)"\./,
    simple((m) => [
      `Invalid fragment on type ${m[1]} (must be Union, Interface or Object)`,
      { code: 'fragmentOnNonCompositeType', typeName: m[1] },
    ]),
  ],
  [
    /^There can be only one argument named "([^"]+)"\./,
    simple((m) => [
      `There can be only one argument named "${m[1]}"`,
      { code: 'argumentNotUnique', name: m[1] },
    ]),
  ],
  [
    /^There can be only one variable named "\$([^"]+)"\./,
    simple((m) => [
      `There can only be one variable named "${m[1]}"`,
      { code: 'variableNotUnique', variableName: m[1] },
    ]),
  ],
  [
    /^There can be only one fragment named "([^"]+)"\./,
    simple((m) => [
      `Fragment name "${m[1]}" must be unique`,
      { code: 'fragmentNotUnique', fragmentName: m[1] },
    ]),
  ],
  [
    /^Cannot spread fragment "([^"]+)" within itself/,
    simple((m) => [
      `Fragment ${m[1]} contains an infinite loop`,
      { code: 'infiniteLoop', fragmentName: m[1] },
    ]),
  ],
  [
    /^There can be only one input field named "([^"]+)"\./,
    simple((m) => [
      `There can be only one input field named "${m[1]}"`,
      { code: 'inputFieldNotUnique', name: m[1] },
    ]),
  ],
  [
    /^The directive "@([^"]+)" can only be used once at this location\./,
    simple((m) => [
      `The directive "${m[1]}" can only be used once at this location.`,
      { code: 'directiveNotUniqueForLocation', directiveName: m[1] },
    ]),
  ],
  [
    /^The .* definition is not executable\./,
    simple(() => ['Query cannot contain schema definitions', { code: 'queryContainsSchemaDefinitions' }]),
  ],
  [
    /^Fields "([^"]+)" conflict because/,
    ({ m, error, node, path }) => {
      const [message, extensions] = fieldConflict(m[1], error);
      return rubyError(message, node, path, extensions);
    },
  ],
];
