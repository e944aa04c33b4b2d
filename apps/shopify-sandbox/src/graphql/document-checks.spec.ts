import { type GraphQLFormattedError, getOperationAST } from 'graphql';
import { describe, expect, it } from 'vitest';
import { type Leniency, NO_LENIENCY } from '../config/shopify-sandbox.config.js';
import { adminSchema } from './admin-schema.js';
import { coerceVariables, parseDocument, validateDocument } from './document-checks.js';

const schema = adminSchema();

function check(query: string, leniency: Leniency = NO_LENIENCY): GraphQLFormattedError[] {
  const parsed = parseDocument(query);
  if ('errors' in parsed) return parsed.errors;
  return validateDocument(schema, parsed.document, leniency).errors;
}

function variables(query: string, values: Record<string, unknown>, leniency: Leniency = NO_LENIENCY) {
  const parsed = parseDocument(query);
  if ('errors' in parsed) throw new Error('unparsable');
  const { index, errors } = validateDocument(schema, parsed.document, leniency);
  expect(errors).toEqual([]);
  const operation = getOperationAST(parsed.document);
  if (!operation) throw new Error('no operation');
  return coerceVariables(schema, operation, values, index, leniency);
}

describe('validation errors in graphql-ruby’s words (as Shopify answers)', () => {
  it('names an unknown field', () => {
    expect(check('{ product(id: "gid://shopify/Product/1") { id colour } }')).toEqual([
      {
        message: "Field 'colour' doesn't exist on type 'Product'",
        locations: [{ line: 1, column: 47 }],
        path: ['query', 'product', 'colour'],
        extensions: { code: 'undefinedField', typeName: 'Product', fieldName: 'colour' },
      },
    ]);
  });

  it('names an unknown argument and an unknown input field', () => {
    expect(check('query Q { products(first: 1, quer: "x") { nodes { id } } }')).toEqual([
      {
        message: "Field 'products' doesn't accept argument 'quer'",
        locations: [{ line: 1, column: 30 }],
        path: ['query Q', 'products', 'quer'],
        extensions: {
          code: 'argumentNotAccepted',
          name: 'products',
          typeName: 'Field',
          argumentName: 'quer',
        },
      },
    ]);
    const [unknownInput] = check(
      'mutation { productUpdate(product: { id: "gid://shopify/Product/1", colour: "red" }) { userErrors { message } } }',
    );
    expect(unknownInput).toMatchObject({
      message: "InputObject 'ProductUpdateInput' doesn't accept argument 'colour'",
      path: ['mutation', 'productUpdate', 'product', 'colour'],
      extensions: { code: 'argumentNotAccepted', typeName: 'InputObject' },
    });
  });

  it('lists missing required arguments of a field in one error', () => {
    expect(check('mutation { tagsAdd { node { id } } }')).toEqual([
      {
        message: "Field 'tagsAdd' is missing required arguments: id, tags",
        locations: [{ line: 1, column: 12 }],
        path: ['mutation', 'tagsAdd'],
        extensions: {
          code: 'missingRequiredArguments',
          className: 'Field',
          name: 'tagsAdd',
          arguments: 'id, tags',
        },
      },
    ]);
    const [missingInput] = check(
      'mutation { metafieldsSet(metafields: [{ ownerId: "gid://shopify/Product/1", key: "ab" }]) { userErrors { message } } }',
    );
    expect(missingInput).toMatchObject({
      message: "Argument 'value' on InputObject 'MetafieldsSetInput' is required. Expected type String!",
      path: ['mutation', 'metafieldsSet', 'metafields', 'value'],
      extensions: {
        code: 'missingRequiredInputObjectAttribute',
        argumentName: 'value',
        argumentType: 'String!',
        inputObjectType: 'MetafieldsSetInput',
      },
    });
  });

  it('refuses literals of the wrong type, at the argument', () => {
    expect(check('{ products(first: "ten") { nodes { id } } }')).toEqual([
      {
        message: `Argument 'first' on Field 'products' has an invalid value ("ten"). Expected type 'Int'.`,
        locations: [{ line: 1, column: 3 }],
        path: ['query', 'products', 'first'],
        extensions: { code: 'argumentLiteralsIncompatible', typeName: 'Field', argumentName: 'first' },
      },
    ]);
    const [badEnum] = check(
      'mutation { productUpdate(product: { id: "gid://shopify/Product/1", status: SOLD }) { userErrors { message } } }',
    );
    expect(badEnum).toMatchObject({
      message:
        "Argument 'status' on InputObject 'ProductUpdateInput' has an invalid value (SOLD). Expected type 'ProductStatus'.",
      path: ['mutation', 'productUpdate', 'product', 'status'],
      extensions: { code: 'argumentLiteralsIncompatible', typeName: 'InputObject', argumentName: 'status' },
    });
  });

  it('words selection mistakes', () => {
    expect(check('{ product(id: "gid://shopify/Product/1") }')[0]).toMatchObject({
      message:
        "Field must have selections (field 'product' returns Product but has no selections. Did you mean 'product { ... }'?)",
      path: ['query', 'product'],
      extensions: { code: 'selectionMismatch', nodeName: "field 'product'", typeName: 'Product' },
    });
    expect(check('{ shop { name { first } } }')[0]).toMatchObject({
      message: `Selections can't be made on scalars (field 'name' returns String but has selections ["first"])`,
      extensions: { code: 'selectionMismatch' },
    });
    expect(check('{ shop { currencyCode { x } } }')[0].message).toMatch(/^Selections can't be made on enums/);
  });

  it('words variable mistakes', () => {
    expect(check('query($id: ID!) { shop { name } }')[0]).toMatchObject({
      message: 'Variable $id is declared by anonymous query but not used',
      extensions: { code: 'variableNotUsed', variableName: 'id' },
    });
    expect(check('query Q { product(id: $id) { id } }')[0]).toMatchObject({
      message: 'Variable $id is used by Q but not declared',
      path: ['query Q', 'product', 'id'],
      extensions: { code: 'variableNotDefined', variableName: 'id' },
    });
    expect(check('query($id: String!) { product(id: $id) { id } }')[0]).toMatchObject({
      message: 'Type mismatch on variable $id and argument id (String! / ID!)',
      extensions: {
        code: 'variableMismatch',
        variableName: 'id',
        typeName: 'String!',
        argumentName: 'id',
        errorMessage: 'Type mismatch',
      },
    });
    expect(check('query($id: ID) { product(id: $id) { id } }')[0].message).toBe(
      'Nullability mismatch on variable $id and argument id (ID / ID!)',
    );
    expect(check('query($x: Colour) { shop { name(x: $x) } }')[0]).toMatchObject({
      message: "Colour isn't a defined input type (on $x)",
      extensions: { code: 'variableRequiresValidType' },
    });
    expect(check('{ shop { ...F } }')[0]).toMatchObject({
      message: 'Fragment F was used, but not defined',
      extensions: { code: 'useAndDefineFragment' },
    });
  });

  it('reports parse errors as graphql-ruby’s parser, without extensions', () => {
    expect(check('{ shop { name } } }')).toEqual([
      { message: 'Parse error on "}" (RCURLY) at [1, 19]', locations: [{ line: 1, column: 19 }] },
    ]);
    expect(check('{ shop { name }')).toEqual([{ message: 'Unexpected end of document', locations: [] }]);
    expect(check('{ products(first: ) { nodes { id } } }')).toEqual([
      { message: 'Parse error on ")" (RPAREN) at [1, 19]', locations: [{ line: 1, column: 19 }] },
    ]);
  });
});

describe('global ids', () => {
  it('fail a request whose ID literal is not a gid, or not one of the expected type', () => {
    expect(check('{ product(id: "123") { id } }')).toEqual([
      {
        message: 'Invalid global id `123`',
        locations: [{ line: 1, column: 3 }],
        path: ['query', 'product', 'id'],
        extensions: { code: 'argumentLiteralsIncompatible', typeName: 'CoercionError' },
      },
    ]);
    expect(check('{ product(id: "gid://shopify/ProductVariant/1") { id } }')[0].message).toBe(
      'Invalid global id `gid://shopify/ProductVariant/1`',
    );
    expect(check('{ nodes(ids: ["gid://shopify/Product/1", "x"]) { id } }')[0]).toMatchObject({
      message: 'Invalid global id `x`',
      path: ['query', 'nodes', 'ids'],
    });
    const [nested] = check('mutation { productUpdate(product: { id: 7 }) { userErrors { message } } }');
    expect(nested).toMatchObject({
      message: 'Invalid global id `7`',
      locations: [{ line: 1, column: 35 }],
      path: ['mutation', 'productUpdate', 'product', 'id'],
    });
    expect(check('{ node(id: "gid://shopify/ProductVariant/1") { id } }')).toEqual([]);
    expect(check('{ product(id: "123") { id } }', { ...NO_LENIENCY, globalIds: true })).toEqual([]);
  });

  it('fail a request whose ID variable is not a gid of the expected type', () => {
    const query = 'query($id: ID!) { product(id: $id) { id } }';
    expect(variables(query, { id: '123' })).toEqual({
      errors: [
        {
          message: 'Variable $id of type ID! was provided invalid value',
          locations: [{ line: 1, column: 7 }],
          extensions: {
            value: '123',
            problems: [
              { path: [], explanation: 'Invalid global id `123`', message: 'Invalid global id `123`' },
            ],
          },
        },
      ],
    });
    expect(variables(query, { id: 'gid://shopify/Collection/1' })).toHaveProperty('errors');
    expect(variables(query, { id: 'gid://shopify/Product/1' })).toEqual({
      coerced: { id: 'gid://shopify/Product/1' },
    });
    expect(variables(query, { id: '123' }, { ...NO_LENIENCY, globalIds: true })).toEqual({
      coerced: { id: '123' },
    });
    expect(variables(query, {})).toMatchObject({
      errors: [
        {
          extensions: { value: null, problems: [{ path: [], explanation: 'Expected value to not be null' }] },
        },
      ],
    });
  });

  it('name every problem of an input object variable', () => {
    const query =
      'mutation($p: ProductUpdateInput!) { productUpdate(product: $p) { userErrors { message } } }';
    const result = variables(query, {
      p: { id: 'gid://shopify/ProductVariant/9', status: 'SOLD', colour: 'red' },
    });
    if (!('errors' in result)) throw new Error('accepted');
    const [error] = result.errors;
    expect(error.message).toMatch(
      /^Variable \$p of type ProductUpdateInput! was provided invalid value for /,
    );
    expect(error.message).toContain('colour (Field is not defined on ProductUpdateInput)');
    expect(error.message).toContain('id (Invalid global id `gid://shopify/ProductVariant/9`)');
    expect(error.message).toContain('status (Expected "SOLD" to be one of: ACTIVE, ARCHIVED, DRAFT');
    expect(error.extensions?.problems).toContainEqual({
      path: ['colour'],
      explanation: 'Field is not defined on ProductUpdateInput',
    });
    const list = variables(
      'mutation($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { userErrors { message } } }',
      {
        m: [
          { ownerId: 'gid://shopify/Product/1', key: 'ab', value: 'x' },
          { ownerId: 'nope', key: 'ab', value: 'x' },
        ],
      },
    );
    expect(list).toMatchObject({ errors: [{ extensions: { problems: [{ path: [1, 'ownerId'] }] } }] });
  });
});
