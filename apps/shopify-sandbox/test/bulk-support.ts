import type { ShopifySandboxHarness } from '#testing/shopify-sandbox';

/** The fields a bulk test reads from `BulkOperation`. */
export interface BulkOperationView {
  id: string;
  status: string;
  type: string;
  errorCode: string | null;
  createdAt: string;
  completedAt: string | null;
  objectCount: string;
  rootObjectCount: string;
  fileSize: string | null;
  url: string | null;
  partialDataUrl: string | null;
  query: string;
}

export interface BulkUserErrorView {
  field: string[] | null;
  message: string;
  code: string | null;
}

const FIELDS =
  'id status type errorCode createdAt completedAt objectCount rootObjectCount fileSize url partialDataUrl query';

/** Runs `bulkOperationRunQuery` as the first shop; resolves to its payload and the request's cost. */
export async function runBulkQuery(h: ShopifySandboxHarness, query: string, groupObjects?: boolean) {
  const reply = await h.graphql<{
    bulkOperationRunQuery: { bulkOperation: BulkOperationView | null; userErrors: BulkUserErrorView[] };
  }>(
    `mutation($query: String!, $group: Boolean!) {
      bulkOperationRunQuery(query: $query, groupObjects: $group) {
        bulkOperation { ${FIELDS} }
        userErrors { field message code }
      }
    }`,
    { query, group: groupObjects ?? false },
  );
  if (!reply.data) throw new Error(`bulkOperationRunQuery failed: ${JSON.stringify(reply.errors)}`);
  return { ...reply.data.bulkOperationRunQuery, cost: reply.extensions.cost };
}

/** `bulkOperation(id)`. */
export async function readBulk(h: ShopifySandboxHarness, id: string): Promise<BulkOperationView | null> {
  const reply = await h.graphql<{ bulkOperation: BulkOperationView | null }>(
    `query($id: ID!) { bulkOperation(id: $id) { ${FIELDS} } }`,
    { id },
  );
  if (reply.errors) throw new Error(`bulkOperation failed: ${JSON.stringify(reply.errors)}`);
  return reply.data?.bulkOperation ?? null;
}

/** `bulkOperationCancel(id)`. */
export async function cancelBulk(h: ShopifySandboxHarness, id: string) {
  const reply = await h.graphql<{
    bulkOperationCancel: { bulkOperation: BulkOperationView | null; userErrors: BulkUserErrorView[] };
  }>(
    `mutation($id: ID!) { bulkOperationCancel(id: $id) { bulkOperation { ${FIELDS} } userErrors { field message } } }`,
    { id },
  );
  if (!reply.data) throw new Error(`bulkOperationCancel failed: ${JSON.stringify(reply.errors)}`);
  return reply.data.bulkOperationCancel;
}

/** Polls `bulkOperation(id)` until its status is one of `statuses` (generous deadline, no fixed wait). */
export async function waitForStatus(
  h: ShopifySandboxHarness,
  id: string,
  statuses: string[],
  timeoutMs = 20_000,
): Promise<BulkOperationView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const operation = await readBulk(h, id);
    if (operation && statuses.includes(operation.status)) return operation;
    if (Date.now() > deadline) throw new Error(`bulk operation ${id} still ${operation?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Downloads a result link: status, content type and parsed lines. */
export async function download(url: string) {
  const response = await fetch(url);
  const text = await response.text();
  const lines = response.ok ? text.split('\n').filter((line) => line !== '') : [];
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text,
    bytes: Buffer.byteLength(text),
    records: lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** Creates `count` products through the merchant API, `parallel` at a time; resolves to their ids. */
export async function createProducts(
  h: ShopifySandboxHarness,
  count: number,
  product: (i: number) => Record<string, unknown> = (i) => ({ title: `Bulk ${i}` }),
  parallel = 25,
): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < count; start += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - start) }, (_, k) => start + k);
    const created = await Promise.all(
      batch.map((i) => h.merchant('POST', 'products.json', { product: product(i) })),
    );
    for (const reply of created) ids.push((reply.body.product as { id: number }).id);
  }
  return ids;
}
