import { createHmac, randomUUID } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { type OpenLoopResult, openLoop } from './open-loop.js';

/** What `ingest` gives the load thread. */
export interface DeliveryLoadInput {
  url: string;
  rate: number;
  seconds: number;
  timeoutMs: number;
  shopDomain: string;
  secret: string;
  /** The bodies sent round robin, each with a fresh `updated_at`. */
  products: Array<Record<string, unknown>>;
}

/** What the load thread answers. */
export interface DeliveryLoadOutput {
  result: OpenLoopResult;
  /** The webhook ids answered 2xx. */
  acceptedIds: string[];
}

/**
 * The signed `products/update` deliveries of `ingest`, sent from a thread of their own. Why a
 * thread: in the bench's main thread the sends and the answers' timestamps waited behind both
 * sandboxes (the Shopify sandbox answering the syncs' GraphQL reads, the catalog its calls), and
 * that wait counted as the connector's latency; Shopify's sender is not on the connector's
 * machine at all.
 */
async function run(input: DeliveryLoadInput): Promise<DeliveryLoadOutput> {
  let n = 0;
  const acceptedIds: string[] = [];
  const result = await openLoop(input.url, input.rate, input.seconds, input.timeoutMs, () => {
    const webhookId = randomUUID();
    const product = input.products[n++ % input.products.length] as Record<string, unknown>;
    const now = new Date().toISOString();
    const body = JSON.stringify({ ...product, updated_at: now });
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': 'products/update',
        'x-shopify-shop-domain': input.shopDomain,
        'x-shopify-webhook-id': webhookId,
        'x-shopify-event-id': randomUUID(),
        'x-shopify-triggered-at': now,
        'x-shopify-api-version': '2026-07',
        'x-shopify-product-id': String(product.id),
        'x-shopify-hmac-sha256': createHmac('sha256', input.secret).update(body).digest('base64'),
      },
      onResponse: (status) => {
        if (status >= 200 && status < 300) acceptedIds.push(webhookId);
      },
    };
  });
  return { result, acceptedIds };
}

if (parentPort) {
  const port = parentPort;
  run(workerData as DeliveryLoadInput).then(
    (output) => port.postMessage(output),
    (error: unknown) => {
      throw error;
    },
  );
}
