import { sampleImage } from '#testing/catalog-sandbox';
import { startBenchStack, waitFor } from './support/bench-stack.js';
import type { BenchContext, Benchmark, BenchResult } from './support/benchmark.js';
import { callsSince, catalogRecords, productIdOf } from './support/catalog-state.js';
import { requireQueue } from './support/features.js';
import { ratio, round } from './support/figures.js';
import { productBody } from './support/shop-fixtures.js';

const FEATURE =
  'media sync in the connector (product images uploaded to the catalog after the attribute sync)';

/**
 * `media`: 100 products with 3 distinct images each. Catalog calls per image, uploads / distinct
 * images (target 1.00), and the time until every product's `media` gallery in the catalog is
 * complete. Stops with "needs media sync" when the connector has no media queue. The naive peer syncs no images: not compared.
 */
export const media: Benchmark = {
  name: 'media',
  summary:
    'products with images: catalog calls per image, uploads / distinct images, time to complete galleries',
  async run(context: BenchContext): Promise<BenchResult> {
    requireQueue(/media/i, FEATURE);
    const productCount = context.smoke ? 3 : 100;
    const perProduct = 3;
    const catalogRate = 40;
    const stack = await startBenchStack({
      catalogRate,
      peer: false,
      connectorNodeArgs: context.connectorNodeArgs,
    });
    try {
      const started = Date.now();
      const t0 = performance.now();
      for (let i = 0; i < productCount; i++) {
        const images = Array.from({ length: perProduct }, (_, k) => {
          const bytes = sampleImage('image/png', 2_048);
          bytes.writeUInt32BE(i * perProduct + k, 64); // distinct bytes per image
          return { attachment: bytes.toString('base64'), alt: `image ${k}` };
        });
        await stack.merchant('POST', 'products.json', { product: { ...productBody(i, 1), images } });
      }
      const galleries = () => {
        let complete = 0;
        for (const record of catalogRecords(stack.catalog, stack.connectorAccount).values()) {
          const gallery = record.attributes.media;
          if (productIdOf(record) && Array.isArray(gallery) && gallery.length === perProduct) complete++;
        }
        return complete;
      };
      await stack.settle();
      await waitFor(
        'every gallery',
        async () => galleries() === productCount,
        context.smoke ? 120_000 : 900_000,
      );
      const elapsedMs = Math.round(performance.now() - t0);
      const calls = await callsSince(stack.connectorAccount, started);
      const images = productCount * perProduct;
      const uploads = calls.filter((c) => c.method === 'POST' && c.path === '/v1/upload/prepare').length;
      const mediaCalls = calls.filter((c) => c.path.startsWith('/v1/upload')).length;
      const figures = {
        products: productCount,
        imagesPerProduct: perProduct,
        distinctImages: images,
        catalogRatePerSecond: catalogRate,
        infrastructure: stack.infrastructure,
        connector: {
          calls: calls.length,
          uploadCalls: mediaCalls,
          callsPerImage: ratio(calls.length, images),
          uploadCallsPerImage: ratio(mediaCalls, images),
          uploads,
          uploadsPerDistinctImage: ratio(uploads, images),
          elapsedMs,
        },
        naive: null,
      };
      return {
        figures,
        table: {
          head: ['figure', 'connector'],
          rows: [
            ['catalog calls (all) per image', figures.connector.callsPerImage],
            ['upload calls per image', figures.connector.uploadCallsPerImage],
            ['uploads / distinct images (target 1.00)', figures.connector.uploadsPerDistinctImage],
            ['s until every gallery is complete', round(elapsedMs / 1000)],
          ],
        },
      };
    } finally {
      await stack.close();
    }
  },
};
