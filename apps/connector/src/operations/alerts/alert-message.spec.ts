import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type AlertEvent, alertSignature, slackBody, webhookBody } from './alert-message.js';

const event: AlertEvent = {
  id: '17',
  shop: 'demo.myshopify.com',
  from: 'healthy',
  to: 'failing',
  cause: 'syncing is paused by an operator (<b>maintenance</b> & more)',
  reasons: ['syncing is paused by an operator (<b>maintenance</b> & more)', 'open failures: 2 sync-product'],
  changedAt: new Date('2026-03-01T10:00:00Z'),
  at: new Date('2026-03-01T10:02:00Z'),
  link: 'https://connector.example.com/admin/ui',
};

describe('alert messages', () => {
  it('gives Slack {"text"} with the shop, the new state, its cause and a link, Slack\'s specials escaped', () => {
    const body = JSON.parse(slackBody(event)) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['text']);
    expect(body.text).toBe(
      [
        ':red_circle: *demo.myshopify.com* is *failing* (was healthy): syncing is paused by an operator (&lt;b&gt;maintenance&lt;/b&gt; &amp; more)',
        'Also: open failures: 2 sync-product',
        "<https://connector.example.com/admin/ui|Open the connector's web view>",
      ].join('\n'),
    );
  });

  it('gives a webhook the event as JSON, the same bytes each time', () => {
    expect(JSON.parse(webhookBody(event))).toEqual({
      type: 'shop.state_changed',
      id: '17',
      shop: 'demo.myshopify.com',
      from: 'healthy',
      to: 'failing',
      cause: event.cause,
      reasons: event.reasons,
      changedAt: '2026-03-01T10:00:00.000Z',
      at: '2026-03-01T10:02:00.000Z',
      link: 'https://connector.example.com/admin/ui',
    });
    expect(webhookBody(event)).toBe(webhookBody({ ...event }));
  });

  it('signs the timestamp and the raw body with the secret', () => {
    const body = webhookBody(event);
    const expected = createHmac('sha256', 's3cret-s3cret-s3cret').update(`1767000000.${body}`).digest('hex');
    expect(alertSignature('s3cret-s3cret-s3cret', 1767000000, body)).toBe(`sha256=${expected}`);
    expect(alertSignature('s3cret-s3cret-s3cret', 1767000001, body)).not.toBe(`sha256=${expected}`);
  });
});
