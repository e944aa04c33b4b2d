import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';

interface RestVariant {
  id: number;
  sku: string | null;
  option1: string | null;
  option2: string | null;
  position: number;
  updated_at: string;
  image_id: number | null;
}

interface RestProduct {
  id: number;
  handle: string;
  tags: string;
  options: Array<{ name: string; values: string[] }>;
  variants: RestVariant[];
  images: Array<{ id: number; src: string; variant_ids: number[] }>;
}

describe('merchant product API (REST semantics)', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
  let h: ShopifySandboxHarness;
  beforeAll(async () => {
    h = await startShopifySandbox({ clock });
  });
  afterAll(() => h.close());

  const create = async (product: Record<string, unknown>) =>
    (await h.merchant('POST', 'products.json', { product })).body.product as RestProduct;
  const update = async (id: number, product: Record<string, unknown>) => {
    const reply = await h.merchant('PUT', `products/${id}.json`, { product });
    return { status: reply.status, product: reply.body.product as RestProduct, errors: reply.body.errors };
  };

  it('gives a product without variants one Default Title variant', async () => {
    const product = await create({ title: 'Simple' });
    expect(product.options).toEqual([expect.objectContaining({ name: 'Title', values: ['Default Title'] })]);
    expect(product.variants).toMatchObject([{ option1: 'Default Title', position: 1 }]);
  });

  it('makes handles unique and keeps tags sorted', async () => {
    const a = await create({ title: 'Café Crème', tags: ['b', 'A', 'a'] });
    const b = await create({ title: 'Café Crème' });
    expect(a.handle).toBe('cafe-creme');
    expect(b.handle).toBe('cafe-creme-1');
    expect(a.tags).toBe('A, b');
  });

  it('on PUT, updates listed variants, creates new ones and deletes the missing', async () => {
    const product = await create({
      title: 'Hoodie',
      options: [{ name: 'Size' }, { name: 'Colour' }],
      variants: [
        { option1: 'S', option2: 'Grey', sku: 'H-S' },
        { option1: 'M', option2: 'Grey', sku: 'H-M' },
        { option1: 'L', option2: 'Grey', sku: 'H-L' },
      ],
    });
    const [small, medium] = product.variants;
    await clock.advance(10_000);
    const { product: after } = await update(product.id, {
      variants: [
        { id: small.id },
        { id: medium.id, sku: 'H-M2' },
        { option1: 'XL', option2: 'Black', sku: 'H-XL' },
      ],
    });
    expect(after.variants.map((v) => v.sku)).toEqual(['H-S', 'H-M2', 'H-XL']);
    expect(after.variants[0].updated_at).toBe(small.updated_at);
    expect(after.variants[1].updated_at).not.toBe(medium.updated_at);
    expect(after.options).toMatchObject([
      { name: 'Size', values: ['S', 'M', 'XL'] },
      { name: 'Colour', values: ['Grey', 'Black'] },
    ]);
  });

  it('refuses duplicate option combinations and foreign variant ids with 422', async () => {
    const product = await create({
      title: 'Cap',
      options: [{ name: 'Size' }],
      variants: [{ option1: 'One' }],
    });
    const duplicate = await update(product.id, { variants: [{ option1: 'A' }, { option1: 'A' }] });
    expect(duplicate.status).toBe(422);
    expect(duplicate.errors).toEqual({ base: ["The variant 'A' already exists."] });
    const foreign = await update(product.id, { variants: [{ id: 1 }] });
    expect(foreign.status).toBe(422);
  });

  it('links images to variants and drops links to removed images', async () => {
    const product = await create({
      title: 'Poster',
      options: [{ name: 'Size' }],
      variants: [{ option1: 'A4' }, { option1: 'A3' }],
      images: [{ src: 'https://example.com/a4.jpg' }],
    });
    const { product: linked } = await update(product.id, {
      images: [
        { id: product.images[0].id, variant_ids: [product.variants[1].id] },
        { src: 'https://example.com/a3.jpg' },
      ],
    });
    expect(linked.images[0].variant_ids).toEqual([product.variants[1].id]);
    expect(linked.variants[1].image_id).toBe(product.images[0].id);
    expect((await fetch(linked.images[0].src)).status).toBe(200);
    const { product: unlinked } = await update(product.id, { images: [{ id: linked.images[1].id }] });
    expect(unlinked.variants[1].image_id).toBeNull();
    expect((await fetch(linked.images[0].src)).status).toBe(404);
  });

  it('drops the metafields of deleted variants', async () => {
    const product = await create({
      title: 'Scarf',
      options: [{ name: 'Colour' }],
      variants: [{ option1: 'Red' }, { option1: 'Blue' }],
    });
    const set = await h.graphql<{ metafieldsSet: { metafields: Array<{ id: string }> } }>(
      'mutation($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { metafields { id } userErrors { message } } }',
      {
        m: [
          {
            ownerId: `gid://shopify/ProductVariant/${product.variants[1].id}`,
            namespace: 'custom',
            key: 'shade',
            type: 'single_line_text_field',
            value: 'navy',
          },
        ],
      },
    );
    const metafieldId = set.data?.metafieldsSet.metafields[0].id;
    const node = () =>
      h.graphql<{ node: { id: string } | null }>('query($id: ID!) { node(id: $id) { id } }', {
        id: metafieldId,
      });
    expect((await node()).data?.node).toEqual({ id: metafieldId });
    await update(product.id, { variants: [{ id: product.variants[0].id }] });
    expect((await node()).data?.node).toBeNull();
  });

  it('answers 404 for an unknown product and an unsupported path', async () => {
    expect((await h.merchant('GET', 'products/123.json')).status).toBe(404);
    expect((await h.merchant('GET', 'products/abc.json')).status).toBe(404);
    const badVersion = await fetch(`${h.url}/admin/api/latest/products.json`, {
      headers: { 'X-Shopify-Access-Token': h.accessToken },
    });
    expect(badVersion.status).toBe(404);
  });
});
