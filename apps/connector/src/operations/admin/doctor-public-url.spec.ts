import { describe, expect, it } from 'vitest';
import { checkPublicUrl } from './doctor-public-url.js';

const answering =
  (status: number): typeof fetch =>
  async () =>
    new Response('{}', { status });
const failing =
  (code: string): typeof fetch =>
  async () => {
    throw Object.assign(new TypeError('fetch failed'), { cause: { code } });
  };

describe('checkPublicUrl', () => {
  it('passes a public HTTPS name that answers 200', async () => {
    const check = await checkPublicUrl('https://connector.example.com', answering(200));
    expect(check).toMatchObject({ status: 'pass', fix: null, shop: null });
    expect(check.detail).toBe(
      'https://connector.example.com/health/live answers 200 over HTTPS by its outside name.',
    );
  });

  it('cannot tell for a private or loopback name, and warns for plain HTTP', async () => {
    for (const url of ['https://10.1.2.3', 'https://localhost:8443', 'https://connector', 'https://[::1]'])
      expect((await checkPublicUrl(url, answering(200))).status, url).toBe('unknown');
    const http = await checkPublicUrl('http://connector.example.com', answering(200));
    expect(http.status).toBe('warn');
    expect(http.detail).toContain('only to HTTPS');
  });

  it('fails when unset, unanswered, refused for its certificate or answering another status', async () => {
    expect((await checkPublicUrl(null)).status).toBe('fail');
    const refused = await checkPublicUrl('https://connector.example.com', failing('ECONNREFUSED'));
    expect(refused).toMatchObject({ status: 'fail' });
    expect(refused.fix).toContain('its DNS, the proxy in front');
    const tls = await checkPublicUrl('https://connector.example.com', failing('DEPTH_ZERO_SELF_SIGNED_CERT'));
    expect(tls.fix).toContain('The certificate for connector.example.com is refused');
    const notFound = await checkPublicUrl('https://connector.example.com', answering(404));
    expect(notFound.detail).toBe('https://connector.example.com/health/live answered 404, not 200.');
  });
});
