/** A parsed Admin GraphQL request body. */
export interface GraphqlRequest {
  query: string;
  variables: Record<string, unknown> | null;
  operationName: string | null;
}

/**
 * `{query, variables?, operationName?}` (variables may come as a JSON string), or the document
 * itself (`Content-Type: application/graphql`). Undefined when unusable.
 */
export function readBody(body: unknown): GraphqlRequest | undefined {
  if (typeof body === 'string')
    return body.trim() === '' ? undefined : { query: body, variables: null, operationName: null };
  if (typeof body !== 'object' || body === null) return undefined;
  const { query, variables, operationName } = body as Record<string, unknown>;
  if (typeof query !== 'string' || query.trim() === '') return undefined;
  let vars: unknown = variables ?? null;
  if (typeof vars === 'string') {
    try {
      vars = JSON.parse(vars);
    } catch {
      return undefined;
    }
  }
  if (vars !== null && (typeof vars !== 'object' || Array.isArray(vars))) return undefined;
  return {
    query,
    variables: vars as Record<string, unknown> | null,
    operationName: typeof operationName === 'string' && operationName !== '' ? operationName : null,
  };
}
