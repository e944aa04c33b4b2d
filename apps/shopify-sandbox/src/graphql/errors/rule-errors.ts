import {
  type ASTNode,
  type FieldNode,
  type GraphQLError,
  type GraphQLFormattedError,
  getNamedType,
  isEnumType,
  Kind,
  type OperationDefinitionNode,
  print,
} from 'graphql';
import type { DocumentIndex } from './document-index.js';
import { rubyError } from './ruby-error.js';

type Extensions = Record<string, unknown>;

/* The graphql-ruby errors that need more than a message rewrite (see validation-rules.ts). */
/** `Selections can't be made on scalars (field 'id' returns ID but has selections ["x"])`. */
export function leafSelectionError(
  field: string,
  node: FieldNode | undefined,
  index: DocumentIndex,
  path: string[],
) {
  const type = node ? index.fieldTypes.get(node) : undefined;
  const named = type ? getNamedType(type) : undefined;
  const selections = (node?.selectionSet?.selections ?? []).map((s) =>
    s.kind === Kind.INLINE_FRAGMENT ? `"... on ${s.typeCondition?.name.value} { ... }"` : `"${s.name.value}"`,
  );
  const nodeName = `field '${field}'`;
  const kind = named && isEnumType(named) ? 'enums' : 'scalars';
  return rubyError(
    `Selections can't be made on ${kind} (${nodeName} returns ${named?.name} but has selections [${selections.join(', ')}])`,
    node,
    path,
    { code: 'selectionMismatch', nodeName, typeName: named?.name },
  );
}

export function operationName(operation: OperationDefinitionNode | undefined): string {
  return operation?.name?.value ?? `anonymous ${operation?.operation ?? 'query'}`;
}

/** `Type mismatch on variable $id and argument id (String / ID!)`, and its list and nullability kin. */
export function variableMismatch(
  name: string,
  varType: string,
  expected: string,
  error: GraphQLError,
  index: DocumentIndex,
) {
  const usage = error.nodes?.[1];
  const holder = index.closest(usage, [Kind.ARGUMENT, Kind.OBJECT_FIELD]);
  const argument = holder ? index.arguments.get(holder) : undefined;
  const strip = (t: string) => t.replace(/[[\]!]/g, '');
  const depth = (t: string) => (t.match(/\[/g) ?? []).length;
  const kind =
    strip(varType) !== strip(expected)
      ? 'Type mismatch'
      : depth(varType) !== depth(expected)
        ? 'List dimension mismatch'
        : 'Nullability mismatch';
  const argType = argument?.type ? String(argument.type) : expected;
  const argName = argument?.name ?? '';
  return rubyError(
    `${kind} on variable $${name} and argument ${argName} (${varType} / ${argType})`,
    holder ?? usage,
    index.path(holder ?? usage),
    {
      code: 'variableMismatch',
      variableName: name,
      typeName: varType,
      argumentName: argName,
      errorMessage: kind,
    },
  );
}

/** `Argument 'first' on Field 'products' has an invalid value ("ten"). Expected type 'Int'.` */
export function literalError(node: ASTNode, index: DocumentIndex): GraphQLFormattedError {
  const holder = index.closest(node, [Kind.ARGUMENT, Kind.OBJECT_FIELD]);
  const info = holder ? index.arguments.get(holder) : undefined;
  if (!info || (holder?.kind !== Kind.ARGUMENT && holder?.kind !== Kind.OBJECT_FIELD)) {
    return rubyError('Invalid value', node, index.path(node), { code: 'argumentLiteralsIncompatible' });
  }
  const type = info.type ? String(info.type) : '';
  return rubyError(
    `Argument '${info.name}' on ${info.kind} '${info.parentName}' has an invalid value (${print(holder.value)}). Expected type '${type}'.`,
    info.parentNode,
    index.path(holder),
    { code: 'argumentLiteralsIncompatible', typeName: info.kind, argumentName: info.name },
  );
}

/** `Field 'title' has a field conflict: title or handle?` / `... has an argument conflict: ...`. */
export function fieldConflict(responseName: string, error: GraphQLError): [string, Extensions] {
  const fields = (error.nodes ?? []).filter((n): n is FieldNode => n.kind === Kind.FIELD);
  const names = new Set(fields.map((f) => f.name.value));
  if (names.size > 1) {
    const conflicts = [...names].join(' or ');
    return [
      `Field '${responseName}' has a field conflict: ${conflicts}?`,
      { code: 'fieldConflict', fieldName: responseName, conflicts },
    ];
  }
  const conflicts = fields
    .map((f) => `{${(f.arguments ?? []).map((a) => `${a.name.value}:${print(a.value)}`).join(',')}}`)
    .join(' or ');
  return [
    `Field '${responseName}' has an argument conflict: ${conflicts}?`,
    { code: 'fieldConflict', fieldName: responseName, conflicts },
  ];
}
