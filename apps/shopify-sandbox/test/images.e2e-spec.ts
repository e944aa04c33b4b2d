import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';

describe('image URLs', () => {
  let h: ShopifySandboxHarness;
  let srcs: string[];

  beforeAll(async () => {
    h = await startShopifySandbox();
    const tinyGif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const created = await h.merchant('POST', 'products.json', {
      product: {
        title: 'Pictured',
        images: [
          { src: 'https://example.com/front.jpg', alt: 'front' },
          { src: 'https://example.com/back.jpg' },
          { attachment: tinyGif.toString('base64'), filename: 'dot.gif' },
        ],
      },
    });
    srcs = (created.body.product as { images: Array<{ src: string }> }).images.map((i) => i.src);
  });
  afterAll(() => h.close());

  const breakImage = (src: string, fault: string | null) =>
    h.control('PUT', `shops/${h.shopDomain}/image-faults`, { src, fault });

  it('serves image bytes at the src URLs the sandbox hands out, without a token', async () => {
    const response = await fetch(srcs[0]);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    const other = Buffer.from(await (await fetch(srcs[1])).arrayBuffer());
    expect(other.equals(bytes)).toBe(false);
    const gif = await fetch(srcs[2]);
    expect(gif.headers.get('content-type')).toBe('image/gif');
  });

  it('can make one URL answer 404, and mend it', async () => {
    expect((await breakImage(srcs[0], '404')).status).toBe(200);
    expect((await fetch(srcs[0])).status).toBe(404);
    expect((await fetch(srcs[1])).status).toBe(200);
    await breakImage(srcs[0], null);
    expect((await fetch(srcs[0])).status).toBe(200);
  });

  it('can make one URL serve bytes that are not an image', async () => {
    await breakImage(srcs[1], 'not-an-image');
    const response = await fetch(srcs[1]);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(await response.text()).toContain('not an image');
  });

  it('refuses to break an unknown URL', async () => {
    const reply = await breakImage(`${h.url}/cdn/shops/${h.shopDomain}/files/1/nope.png`, '404');
    expect(reply.status).toBe(404);
  });
});
