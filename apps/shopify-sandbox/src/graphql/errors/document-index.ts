import {
  type ASTNode,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql';

/** What graphql-ruby says of an argument or input field: `Argument 'x' on <kind> '<parentName>'`. */
export interface ArgumentInfo {
  name: string;
  kind: 'Field' | 'Directive' | 'InputObject';
  parentName: string;
  /** The node graphql-ruby locates errors at: the field, directive or input object holding it. */
  parentNode: ASTNode;
  /** The declared type; undefined when unknown (validation reports that separately). */
  type: GraphQLInputType | undefined;
  /** For a field argument, `Type.field` of the field (for the expected-gid table). */
  fieldCoordinate?: string;
}

/**
 * One pass over a document recording, for every node, what graphql-ruby's validator would
 * know there: its parent, its error `path` (`["query Q", "product", "… on Product", "id"]`),
 * the parent type of fields, and what an argument or input field is.
 */
export class DocumentIndex {
  readonly parents = new Map<ASTNode, ASTNode>();
  readonly paths = new Map<ASTNode, string[]>();
  readonly arguments = new Map<ASTNode, ArgumentInfo>();
  readonly fieldParents = new Map<ASTNode, GraphQLNamedType>();
  readonly fieldTypes = new Map<ASTNode, GraphQLOutputType>();

  constructor(schema: GraphQLSchema, document: DocumentNode) {
    const typeInfo = new TypeInfo(schema);
    const path: string[] = [];
    const pushes: boolean[] = [];
    visit(
      document,
      visitWithTypeInfo(typeInfo, {
        enter: (node, _key, parent, _path, ancestors) => {
          const owner = [...ancestors, parent].reverse().find((a) => a && !Array.isArray(a));
          if (owner) this.parents.set(node, owner as ASTNode);
          const segment = this.segment(node, typeInfo);
          pushes.push(segment !== undefined);
          if (segment !== undefined) path.push(segment);
          this.paths.set(node, [...path]);
        },
        leave: () => {
          if (pushes.pop()) path.pop();
        },
      }),
    );
  }

  /** The node's path, or that of its nearest ancestor with one. */
  path(node: ASTNode | undefined): string[] {
    return (node && this.paths.get(node)) ?? [];
  }

  /** The nearest ancestor (or the node itself) of one of these kinds. */
  closest(node: ASTNode | undefined, kinds: readonly Kind[]): ASTNode | undefined {
    let current = node;
    while (current && !kinds.includes(current.kind)) current = this.parents.get(current);
    return current;
  }

  private segment(node: ASTNode, typeInfo: TypeInfo): string | undefined {
    switch (node.kind) {
      case Kind.OPERATION_DEFINITION:
        return `${node.operation}${node.name ? ` ${node.name.value}` : ''}`;
      case Kind.FRAGMENT_DEFINITION:
        return `fragment ${node.name.value}`;
      case Kind.INLINE_FRAGMENT:
        return node.typeCondition ? `... on ${node.typeCondition.name.value}` : '...';
      case Kind.FIELD: {
        const parent = typeInfo.getParentType();
        if (parent) this.fieldParents.set(node, parent);
        const type = typeInfo.getType();
        if (type) this.fieldTypes.set(node, type);
        return node.alias?.value ?? node.name.value;
      }
      case Kind.ARGUMENT: {
        const directive = typeInfo.getDirective();
        const field = typeInfo.getFieldDef();
        const owner = this.parents.get(node);
        const parentType = typeInfo.getParentType();
        this.arguments.set(node, {
          name: node.name.value,
          kind: directive ? 'Directive' : 'Field',
          parentName: directive
            ? directive.name
            : owner?.kind === Kind.FIELD
              ? (owner.alias?.value ?? owner.name.value)
              : (field?.name ?? ''),
          parentNode: owner ?? node,
          type: typeInfo.getArgument()?.type,
          fieldCoordinate: !directive && field && parentType ? `${parentType.name}.${field.name}` : undefined,
        });
        return node.name.value;
      }
      case Kind.OBJECT_FIELD: {
        const holder = this.parents.get(node);
        const objectType = typeInfo.getParentInputType();
        this.arguments.set(node, {
          name: node.name.value,
          kind: 'InputObject',
          parentName: objectType ? getNamedType(objectType).name : '',
          parentNode: holder ?? node,
          type: typeInfo.getInputType() ?? undefined,
        });
        return node.name.value;
      }
      default:
        return undefined;
    }
  }
}
