/**
 * The definition of one metafield (owner type, namespace, key): its type and access, to tell a
 * definition to create from one that exists, and one of another type. Cost: 3.
 */
export const METAFIELD_DEFINITION_QUERY = /* GraphQL */ `
  query ConnectorMetafieldDefinition($ownerType: MetafieldOwnerType!, $namespace: String!, $key: String!) {
    metafieldDefinitions(first: 1, ownerType: $ownerType, namespace: $namespace, key: $key) {
      nodes {
        id
        name
        type {
          name
        }
        access {
          admin
          storefront
        }
      }
    }
  }
`;

/**
 * Creates a write-back metafield's definition: the mapping's type, name and description, merchant
 * read and write in the admin, storefront access as the mapping says. Cost: 10.
 */
export const METAFIELD_DEFINITION_CREATE_MUTATION = /* GraphQL */ `
  mutation ConnectorMetafieldDefinitionCreate($definition: MetafieldDefinitionInput!) {
    metafieldDefinitionCreate(definition: $definition) {
      createdDefinition {
        id
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;
