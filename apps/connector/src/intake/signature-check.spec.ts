import '@shopify/shopify-api/adapters/node';
import { createHmac } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { ApiVersion, shopifyApi } from '@shopify/shopify-api';
import { describe, expect, it } from 'vitest';
import { Secret } from '../platform/config/secret.js';
import { SignatureCheck } from './signature-check.js';

const sign = (body: Buffer, secret: string) => createHmac('sha256', secret).update(body).digest('base64');

function check(secrets: string[], chunks: Buffer[], header: string): number {
  const signature = new SignatureCheck(secrets.map((s) => new Secret(s)));
  for (const chunk of chunks) signature.update(chunk);
  return signature.verify(header);
}

describe('SignatureCheck', () => {
  const body = Buffer.from('{"id":1,"body_html":"<p>a<\\/p>","title":"caf\\u00e9 ☕"}');

  it('accepts the body signed with any configured secret, and says which', () => {
    expect(check(['new', 'old'], [body], sign(body, 'new'))).toBe(0);
    expect(check(['new', 'old'], [body], sign(body, 'old'))).toBe(1);
    expect(check(['new', 'old'], [body.subarray(0, 7), body.subarray(7)], sign(body, 'old'))).toBe(1);
  });

  it('refuses another secret, other bytes and a malformed header', () => {
    expect(check(['new'], [body], sign(body, 'other'))).toBe(-1);
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(body.toString())));
    expect(check(['new'], [reserialised], sign(body, 'new'))).toBe(-1);
    expect(check(['new'], [body], 'not base64 at all')).toBe(-1);
    expect(check(['new'], [body], '')).toBe(-1);
  });

  it("agrees with @shopify/shopify-api's own webhook validation", async () => {
    const shopify = shopifyApi({
      apiSecretKey: 'app-secret',
      apiKey: 'unused',
      isCustomStoreApp: true,
      adminApiAccessToken: 'unused',
      isEmbeddedApp: false,
      hostName: 'connector.example.com',
      apiVersion: ApiVersion.July26,
      logger: { level: 0, log: async () => undefined },
    });
    const validate = async (header: string) => {
      const req = new IncomingMessage(new Socket());
      req.headers = {
        'x-shopify-hmac-sha256': header,
        'x-shopify-topic': 'products/update',
        'x-shopify-shop-domain': 'demo.myshopify.com',
        'x-shopify-api-version': '2026-07',
        'x-shopify-webhook-id': 'w-1',
      };
      const result = await shopify.webhooks.validate({
        rawBody: body.toString('utf8'),
        rawRequest: req,
        rawResponse: new ServerResponse(req),
      });
      return result.valid;
    };
    for (const secret of ['app-secret', 'another']) {
      const header = sign(body, secret);
      expect(check(['app-secret'], [body], header) === 0).toBe(await validate(header));
    }
  });
});
