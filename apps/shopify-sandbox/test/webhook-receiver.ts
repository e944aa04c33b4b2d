import '@shopify/shopify-api/adapters/node';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiVersion, shopifyApi, type WebhookValidation } from '@shopify/shopify-api';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: Record<string, unknown>;
  /** What `@shopify/shopify-api`'s `webhooks.validate` said about this request. */
  validation: WebhookValidation;
  /** 1-based arrival number. */
  arrival: number;
}

/** How the receiver answers its n-th request (1-based): a status, optionally after a delay. */
export type Responder = (arrival: number, webhook: ReceivedWebhook) => { status: number; delayMs?: number };

/**
 * A real HTTP server receiving webhooks in tests. Every request is checked with Shopify's own
 * library, as a connector would, and recorded.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly waiters: Array<() => void> = [];
  private readonly pending = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /**
   * `verify: 'reserialized'` makes a receiver with the usual `express.json()` mistake: it checks
   * the signature over `JSON.stringify(JSON.parse(raw))` instead of the raw bytes.
   */
  static async start(
    appSecret: string,
    respond: Responder = () => ({ status: 200 }),
    options: { verify?: 'raw' | 'reserialized' } = {},
  ): Promise<WebhookReceiver> {
    const shopify = shopifyApi({
      apiSecretKey: appSecret,
      adminApiAccessToken: 'unused-in-tests',
      isCustomStoreApp: true,
      isEmbeddedApp: false,
      hostName: 'localhost',
      apiVersion: ApiVersion.July26,
      logger: { level: 0, log: async () => {} },
    });
    let receiver: WebhookReceiver | undefined;
    const server = createServer((req, res) => {
      void (async () => {
        const rawBody = await readBody(req);
        const checked = options.verify === 'reserialized' ? JSON.stringify(JSON.parse(rawBody)) : rawBody;
        const validation = await shopify.webhooks.validate({
          rawBody: checked,
          rawRequest: req,
          rawResponse: res,
        });
        const self = receiver as WebhookReceiver;
        const webhook: ReceivedWebhook = {
          headers: req.headers,
          rawBody,
          body: JSON.parse(rawBody) as Record<string, unknown>,
          validation,
          arrival: self.received.length + 1,
        };
        self.received.push(webhook);
        self.answer(res, respond(webhook.arrival, webhook));
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new WebhookReceiver(
      server,
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    );
    return receiver;
  }

  /** Resolves once `count` requests have arrived; fails after `timeoutMs`. */
  async waitFor(count: number, timeoutMs = 5_000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} webhooks, got ${this.received.length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 10);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.received.slice(0, count);
  }

  topics(): string[] {
    return this.received.map((w) => String(w.headers['x-shopify-topic']));
  }

  async close(): Promise<void> {
    for (const timer of this.pending) clearTimeout(timer);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(res: ServerResponse, reply: { status: number; delayMs?: number }): void {
    const send = () => {
      res.writeHead(reply.status, { 'Content-Type': 'text/plain' }).end('ok');
      for (const wake of this.waiters.splice(0)) wake();
    };
    if (!reply.delayMs) {
      send();
      return;
    }
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      send();
    }, reply.delayMs);
    this.pending.add(timer);
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
