import {
  WRITE_BACK_METAFIELDS_DELETE,
  WRITE_BACK_METAFIELDS_SET,
  WRITE_BACK_PRODUCT_QUERY,
  WRITE_BACK_PRODUCT_UPDATE,
  WRITE_BACK_TAGS_ADD,
  WRITE_BACK_TAGS_REMOVE,
  WRITE_BACK_VARIANTS_QUERY,
} from './documents/write-back.documents.js';

/**
 * How the write-back sends one of its documents: the caller paces the call (the bucket must hold
 * `cost` points first), waits out `THROTTLED` itself and answers with Shopify's body as sent
 * (data, GraphQL errors, `userErrors` and `extensions.cost` untouched).
 */
export type SendWriteBackCall<Answer> = (
  document: string,
  variables: Record<string, unknown>,
  cost: number,
) => Promise<Answer>;

/** What an Admin mutation costs: Shopify charges 10 points per mutation root field. */
export const WRITE_BACK_MUTATION_COST = 10;

/** The mutations of the write-back, by root field. */
export type WriteBackRoot = 'productUpdate' | 'tagsAdd' | 'tagsRemove' | 'metafieldsSet' | 'metafieldsDelete';

/** Variables of the product read: the mapped product metafields as `namespace.key`. */
export type WriteBackProductVariables = {
  id: string;
  keys: string[];
  /** `keys.length`, at least 1 (the connection's `first`). */
  keyCount: number;
  /** False when the mapping has no product metafield (the connection is left out). */
  withMetafields: boolean;
};

/** Variables of one page of the variant read: the mapped variant metafields as `namespace.key`. */
export type WriteBackVariantsVariables = {
  id: string;
  keys: string[];
  keyCount: number;
  first: number;
  after: string | null;
};

/** A metafield as the write-back's documents select it. */
export interface WriteBackMetafieldNode {
  id: string;
  namespace: string;
  key: string;
  type: string;
  value: string;
  compareDigest: string;
}

/** `data` of the product read; `product` null when it does not exist. */
export interface WriteBackProductData {
  product: {
    id: string;
    title: string;
    descriptionHtml: string;
    tags: string[];
    seo: { title: string | null; description: string | null };
    metafields?: { nodes: WriteBackMetafieldNode[] };
  } | null;
}

/** `data` of one page of the variant read. */
export interface WriteBackVariantsData {
  product: {
    id: string;
    variants: {
      nodes: Array<{ id: string; metafields: { nodes: WriteBackMetafieldNode[] } }>;
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
    };
  } | null;
}

/** One of Shopify's refusals in a mutation's payload. */
export interface WriteBackUserError {
  field?: string[] | null;
  message: string;
  code?: string | null;
}

/** A write-back mutation's payload (under its root field): what it answered it holds, and its refusals. */
export interface WriteBackMutationPayload {
  product?: {
    id: string;
    title?: string;
    descriptionHtml?: string;
    seo?: { title?: string | null; description?: string | null } | null;
  } | null;
  metafields?: Array<Partial<WriteBackMetafieldNode>> | null;
  userErrors?: WriteBackUserError[];
}

/** `data` of a write-back mutation: its payload under its root field. */
export type WriteBackMutationData = Partial<Record<WriteBackRoot, WriteBackMutationPayload | null>>;

/** An answer whose `data` has the shape its document asks for (when Shopify answered data). */
export type Answered<Answer, Data> = Answer & { data?: Data | null };

const MUTATIONS: Readonly<Record<WriteBackRoot, string>> = {
  productUpdate: WRITE_BACK_PRODUCT_UPDATE,
  tagsAdd: WRITE_BACK_TAGS_ADD,
  tagsRemove: WRITE_BACK_TAGS_REMOVE,
  metafieldsSet: WRITE_BACK_METAFIELDS_SET,
  metafieldsDelete: WRITE_BACK_METAFIELDS_DELETE,
};

/**
 * Why: the one place `WRITE_BACK_PRODUCT_QUERY` runs: the product's write-back targets (fields,
 * SEO, tags, mapped product metafields), about 5 + the number of keys points.
 */
export async function readWriteBackProduct<Answer>(
  send: SendWriteBackCall<Answer>,
  variables: WriteBackProductVariables,
): Promise<Answered<Answer, WriteBackProductData>> {
  return (await send(WRITE_BACK_PRODUCT_QUERY, { ...variables }, 5 + variables.keyCount)) as Answered<
    Answer,
    WriteBackProductData
  >;
}

/**
 * Why: the one place `WRITE_BACK_VARIANTS_QUERY` runs: one page of the product's variants with
 * their mapped metafields, 3 + `first` × (3 + the number of keys) points.
 */
export async function readWriteBackVariants<Answer>(
  send: SendWriteBackCall<Answer>,
  variables: WriteBackVariantsVariables,
): Promise<Answered<Answer, WriteBackVariantsData>> {
  const cost = 3 + variables.first * (3 + variables.keyCount);
  return (await send(WRITE_BACK_VARIANTS_QUERY, { ...variables }, cost)) as Answered<
    Answer,
    WriteBackVariantsData
  >;
}

/**
 * Why: the one place the write-back's mutations run (`productUpdate`, `tagsAdd`, `tagsRemove`,
 * `metafieldsSet`, `metafieldsDelete`): `root`'s document with the variables the write-back
 * built, 10 points.
 */
export async function runWriteBackMutation<Answer>(
  send: SendWriteBackCall<Answer>,
  root: WriteBackRoot,
  variables: Record<string, unknown>,
): Promise<Answered<Answer, WriteBackMutationData>> {
  return (await send(MUTATIONS[root], variables, WRITE_BACK_MUTATION_COST)) as Answered<
    Answer,
    WriteBackMutationData
  >;
}

/** Why: a shadow push's planned write names the mutation it would send by its operation name (`WriteBackProductUpdate`). */
export function writeBackOperationName(root: WriteBackRoot): string {
  return /\bmutation\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(MUTATIONS[root])?.[1] ?? root;
}
