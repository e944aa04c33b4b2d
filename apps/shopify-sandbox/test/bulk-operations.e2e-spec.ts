import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { cancelBulk, createProducts, download, readBulk, runBulkQuery } from './bulk-support.js';

const PRODUCTS = '{ products { edges { node { id title } } } }';
const STEP = 200;

describe('bulkOperationRunQuery: the rules of a bulk query', () => {
  let h: ShopifySandboxHarness;
  afterEach(() => h.close());

  const refusal = async (query: string) => {
    const payload = await runBulkQuery(h, query);
    expect(payload.bulkOperation).toBeNull();
    return payload.userErrors;
  };
  const invalid = (message: string) => ({ field: ['query'], message, code: 'INVALID' });

  it('accepts a products query without `first`, answers CREATED with no userErrors, and costs 10', async () => {
    h = await startShopifySandbox({ clock: new ManualClock() });
    const payload = await runBulkQuery(h, PRODUCTS);
    expect(payload.userErrors).toEqual([]);
    expect(payload.bulkOperation).toMatchObject({
      id: expect.stringMatching(/^gid:\/\/shopify\/BulkOperation\/\d+$/),
      status: 'CREATED',
      type: 'QUERY',
      errorCode: null,
      completedAt: null,
      objectCount: '0',
      rootObjectCount: '0',
      fileSize: null,
      url: null,
      partialDataUrl: null,
      query: PRODUCTS,
    });
    expect(payload.cost).toMatchObject({ requestedQueryCost: 10, actualQueryCost: 10 });
    // The acceptance probe's exact document.
    const probe = await h.graphql(
      'mutation { bulkOperationRunQuery(query: "{ products { edges { node { id title } } } }") { bulkOperation { id status } userErrors { field message } } }',
    );
    expect(JSON.stringify(probe.data)).toMatch(
      /"bulkOperation":\{"id":"gid:[^"]+","status":"CREATED"\},"userErrors":\[\]/,
    );
  });

  it('refuses what Shopify refuses, in its words, with code INVALID', async () => {
    h = await startShopifySandbox({ clock: new ManualClock() });
    expect(await refusal('{ shop { id } }')).toEqual([
      invalid('Bulk queries must contain at least one connection.'),
    ]);
    expect(await refusal('{ node(id: "gid://shopify/Product/1") { id } }')).toEqual([
      invalid('Bulk queries cannot contain a top level `node` field.'),
      invalid('Bulk queries must contain at least one connection.'),
    ]);
    expect(await refusal('{ products { nodes { id title } } }')).toEqual([
      invalid(
        "All connection fields in a bulk query must select their contents using 'edges' > 'node', e.g: 'products { edges { node {'. Selecting via 'nodes' is not supported. Invalid connection fields: 'products'.",
      ),
    ]);
    const six = `{ products { edges { node { id
      variants { edges { node { id } } } metafields { edges { node { id } } } collections { edges { node { id } } }
      media { edges { node { id } } } sellingPlanGroups { edges { node { id } } } } } } }`;
    expect(await refusal(six)).toEqual([invalid('Bulk queries cannot contain more than 5 connections.')]);
    const deep =
      '{ products { edges { node { id variants { edges { node { id metafields { edges { node { id } } } } } } } } } }';
    expect(await refusal(deep)).toEqual([
      invalid('Bulk queries cannot contain connections with a nesting depth greater than 2.'),
    ]);
    expect(
      await refusal('{ products { edges { node { title variants { edges { node { id } } } } } } }'),
    ).toEqual([
      invalid(
        "The parent 'node' field for a nested connection must select the 'id' field without an alias and must be of 'ID' return type. Connection fields without 'id': products.",
      ),
    ]);
    expect(
      await refusal('{ orders { edges { node { id fulfillments { events { edges { node { id } } } } } } } }'),
    ).toEqual([
      invalid('Queries that contain a connection field within a list field are not currently supported.'),
    ]);
    expect(
      await refusal(
        'mutation { productDelete(input: { id: "gid://shopify/Product/1" }) { deletedProductId } }',
      ),
    ).toEqual([invalid('Invalid operation type. Only `query` operations are supported.')]);
    expect(await refusal('')).toEqual([invalid('Invalid bulk query: syntax error, unexpected end of file')]);
    expect(await refusal('{ products { edges { node { id nope } } } }')).toEqual([
      invalid("Invalid bulk query: Field 'nope' doesn't exist on type 'Product'"),
    ]);
    // A root the schema has but the sandbox does not emulate is refused by name.
    expect(await refusal('{ orders { edges { node { id } } } }')).toEqual([
      invalid("Bulk query root 'orders' is not implemented by shopify-sandbox."),
    ]);
  });

  it('runs up to five bulk queries at once per shop (2026-01 and later); the sixth is OPERATION_IN_PROGRESS', async () => {
    h = await startShopifySandbox({ clock: new ManualClock() });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const payload = await runBulkQuery(h, PRODUCTS);
      expect(payload.userErrors).toEqual([]);
      ids.push(payload.bulkOperation?.id as string);
    }
    const sixth = await runBulkQuery(h, PRODUCTS);
    expect(sixth.bulkOperation).toBeNull();
    expect(sixth.userErrors).toEqual([
      {
        field: null,
        message: `A bulk query operation for this app and shop is already in progress: ${ids.join(', ')}.`,
        code: 'OPERATION_IN_PROGRESS',
      },
    ]);
  });

  it('allows one at a time when configured as before 2026-01', async () => {
    h = await startShopifySandbox({ clock: new ManualClock(), bulk: { maxConcurrentQueries: 1 } });
    const first = await runBulkQuery(h, PRODUCTS);
    const second = await runBulkQuery(h, PRODUCTS);
    expect(second.userErrors.map((e) => e.code)).toEqual(['OPERATION_IN_PROGRESS']);
    expect(second.userErrors[0].message).toContain(first.bulkOperation?.id);
  });
});

describe('a bulk operation runs on the sandbox clock', () => {
  let h: ShopifySandboxHarness;
  let clock: ManualClock;
  afterEach(() => h.close());

  it('goes CREATED → RUNNING → COMPLETED with counts, a file size and a link; currentBulkOperation follows it', async () => {
    clock = new ManualClock(Date.UTC(2026, 6, 1, 12));
    h = await startShopifySandbox({ clock });
    await createProducts(h, 3);
    const { bulkOperation } = await runBulkQuery(h, PRODUCTS);
    const id = bulkOperation?.id as string;
    expect((await readBulk(h, id))?.status).toBe('CREATED');
    await clock.advance(STEP);
    expect(await readBulk(h, id)).toMatchObject({ status: 'RUNNING', objectCount: '0', url: null });
    await clock.advance(STEP);
    const done = await readBulk(h, id);
    expect(done).toMatchObject({
      status: 'COMPLETED',
      objectCount: '3',
      rootObjectCount: '3',
      completedAt: '2026-07-01T12:00:00Z',
      createdAt: '2026-07-01T12:00:00Z',
      partialDataUrl: null,
    });
    const file = await download(done?.url as string);
    expect(file.status).toBe(200);
    expect(file.contentType).toContain('application/jsonl');
    expect(String(file.bytes)).toBe(done?.fileSize);
    expect(file.records.map((r) => r.title)).toEqual(['Bulk 0', 'Bulk 1', 'Bulk 2']);
    const current = await h.graphql<{ q: { id: string } | null; m: unknown }>(
      '{ q: currentBulkOperation { id status } m: currentBulkOperation(type: MUTATION) { id } }',
    );
    expect(current.data).toEqual({ q: { id, status: 'COMPLETED' }, m: null });
    expect((await h.graphql('{ bulkOperation(id: "gid://shopify/BulkOperation/1") { id } }')).data).toEqual({
      bulkOperation: null,
    });
  });

  it('answers a COMPLETED run that found nothing with no url', async () => {
    clock = new ManualClock();
    h = await startShopifySandbox({ clock });
    const { bulkOperation } = await runBulkQuery(h, PRODUCTS);
    await clock.advance(STEP * 2);
    expect(await readBulk(h, bulkOperation?.id as string)).toMatchObject({
      status: 'COMPLETED',
      objectCount: '0',
      url: null,
      fileSize: null,
    });
  });

  it('cancels: CANCELING at once, CANCELED at the next step; a finished run cannot be canceled', async () => {
    clock = new ManualClock();
    h = await startShopifySandbox({ clock, bulk: { objectsPerStep: 2 } });
    await createProducts(h, 5);
    const { bulkOperation } = await runBulkQuery(h, PRODUCTS);
    const id = bulkOperation?.id as string;
    await clock.advance(STEP * 2);
    expect(await readBulk(h, id)).toMatchObject({ status: 'RUNNING', objectCount: '2' });
    const canceling = await cancelBulk(h, id);
    expect(canceling).toMatchObject({ userErrors: [], bulkOperation: { id, status: 'CANCELING' } });
    // Asking again while it cancels is not an error.
    expect(await cancelBulk(h, id)).toMatchObject({ userErrors: [], bulkOperation: { status: 'CANCELING' } });
    await clock.advance(STEP);
    const canceled = await readBulk(h, id);
    expect(canceled).toMatchObject({
      status: 'CANCELED',
      objectCount: '2',
      completedAt: null,
      fileSize: null,
    });
    expect((await download(canceled?.url as string)).records).toHaveLength(2);
    expect(await cancelBulk(h, id)).toEqual({
      bulkOperation: expect.objectContaining({ id, status: 'CANCELED' }),
      userErrors: [{ field: null, message: 'A bulk operation cannot be canceled when it is canceled' }],
    });
    expect(await cancelBulk(h, 'gid://shopify/BulkOperation/1')).toEqual({
      bulkOperation: null,
      userErrors: [{ field: ['id'], message: 'Bulk operation does not exist' }],
    });
  });
});
