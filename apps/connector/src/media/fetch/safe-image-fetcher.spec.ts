import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sampleImage } from '#testing/catalog-sandbox';
import { MediaError } from '../model/media-error.js';
import { parseAllowlist } from './allowlist.js';
import { SafeImageFetcher } from './safe-image-fetcher.js';

const PNG = sampleImage('image/png', 4_096);

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(handler: Handler): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

async function failure(work: Promise<unknown>): Promise<MediaError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof MediaError)) throw new Error(`expected a MediaError, got ${String(error)}`);
  return error;
}

describe('SafeImageFetcher', () => {
  let cdn: Server;
  let other: Server;
  let cdnUrl: string;
  let otherPort: number;
  let otherHits = 0;
  let cdnHits: string[] = [];
  let fetcher: SafeImageFetcher;

  beforeAll(async () => {
    // A server outside the allowlist that counts every request it ever receives.
    const outside = await listen((_req, res) => {
      otherHits += 1;
      res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    });
    other = outside.server;
    otherPort = outside.port;
    const allowed = await listen((req, res) => {
      cdnHits.push(req.url ?? '');
      const path = req.url?.split('?')[0];
      if (path === '/files/front.png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      else if (path === '/files/page.png')
        res.writeHead(200, { 'content-type': 'image/png' }).end('<!DOCTYPE html><p>not an image</p>');
      else if (path === '/files/gone.png') res.writeHead(404).end('Not Found');
      else if (path === '/files/busy.png') res.writeHead(503).end();
      else if (path === '/files/private.png') res.writeHead(403).end();
      else if (path === '/files/moved.png') res.writeHead(302, { location: '/files/front.png' }).end();
      else if (path === '/files/loop.png') res.writeHead(302, { location: '/files/loop.png' }).end();
      else if (path === '/files/no-target.png') res.writeHead(301).end();
      else if (path === '/files/escape.png')
        res.writeHead(302, { location: `http://localhost:${otherPort}/steal.png` }).end();
      else if (path === '/files/escape-port.png')
        res.writeHead(307, { location: `http://127.0.0.1:${otherPort}/steal.png` }).end();
      else if (path === '/files/announced-huge.png')
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(50_000_000) }).end();
      else if (path === '/files/endless.png') {
        // Chunked, no length: keeps sending until the client goes away.
        res.writeHead(200, { 'content-type': 'image/png' });
        const chunk = Buffer.alloc(64 * 1024, 1);
        res.write(PNG);
        const timer = setInterval(() => res.write(chunk), 1);
        res.on('close', () => clearInterval(timer));
      } else if (path === '/files/stalls.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(PNG.subarray(0, 100)); // then nothing, ever
      } else res.writeHead(404).end();
    });
    cdn = allowed.server;
    cdnUrl = `http://127.0.0.1:${allowed.port}`;
    fetcher = new SafeImageFetcher({
      allowlist: parseAllowlist([cdnUrl]),
      maxBytes: 1024 * 1024,
      timeoutMs: 500,
    });
  });
  afterAll(async () => {
    cdn.closeAllConnections();
    other.closeAllConnections();
    await new Promise((resolve) => cdn.close(resolve));
    await new Promise((resolve) => other.close(resolve));
  });
  beforeEach(() => {
    otherHits = 0;
    cdnHits = [];
  });

  it('fetches an allowed image, names its format and hashes its bytes', async () => {
    const image = await fetcher.fetch(`${cdnUrl}/files/front.png?v=1`);
    expect(image).toMatchObject({ format: 'image/png', extension: 'png', size: PNG.length });
    expect(image.bytes.equals(PNG)).toBe(true);
    expect(image.contentHash).toBe(createHash('sha256').update(PNG).digest('hex'));
  });

  it('never requests a URL on another host, or on another port of an allowed host', async () => {
    for (const url of [
      `http://localhost:${otherPort}/files/front.png`,
      `http://127.0.0.1:${otherPort}/files/front.png`,
      `https://127.0.0.1:${cdnUrl.split(':')[2]}/files/front.png`,
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const error = await failure(fetcher.fetch(url));
      expect(error).toMatchObject({ code: 'forbidden_host', retryable: false });
      expect(fetcher.allows(url)).toBe(false);
    }
    expect(otherHits).toBe(0);
  });

  it('refuses URLs with credentials and unparsable URLs without a request', async () => {
    const host = cdnUrl.replace('http://', '');
    expect(await failure(fetcher.fetch(`http://user:pw@${host}/files/front.png`))).toMatchObject({
      code: 'invalid_url',
    });
    expect(await failure(fetcher.fetch('not a url'))).toMatchObject({ code: 'invalid_url' });
    expect(cdnHits).toEqual([]);
  });

  it('follows a redirect to an allowed URL, and refuses one to another host before requesting it', async () => {
    expect((await fetcher.fetch(`${cdnUrl}/files/moved.png`)).finalUrl).toBe(`${cdnUrl}/files/front.png`);
    for (const name of ['escape', 'escape-port']) {
      const error = await failure(fetcher.fetch(`${cdnUrl}/files/${name}.png`));
      expect(error).toMatchObject({ code: 'redirect_refused', retryable: false });
    }
    expect(otherHits).toBe(0);
  });

  it('refuses redirect loops and redirects without a target; refuses every redirect when told to', async () => {
    expect(await failure(fetcher.fetch(`${cdnUrl}/files/loop.png`))).toMatchObject({
      code: 'redirect_refused',
    });
    expect(cdnHits.filter((h) => h === '/files/loop.png')).toHaveLength(4); // the first + 3 redirects
    expect(await failure(fetcher.fetch(`${cdnUrl}/files/no-target.png`))).toMatchObject({
      code: 'redirect_refused',
    });
    const strict = new SafeImageFetcher({ allowlist: parseAllowlist([cdnUrl]), maxRedirects: 0 });
    expect(await failure(strict.fetch(`${cdnUrl}/files/moved.png`))).toMatchObject({
      code: 'redirect_refused',
    });
  });

  it('tells bytes that are not an image (an HTML page labelled image/png) as permanent', async () => {
    const error = await failure(fetcher.fetch(`${cdnUrl}/files/page.png`));
    expect(error).toMatchObject({ code: 'not_an_image', retryable: false });
  });

  it('classifies answers: 404 permanent, 403 permanent, 503 retryable', async () => {
    expect(await failure(fetcher.fetch(`${cdnUrl}/files/gone.png`))).toMatchObject({
      code: 'not_found',
      retryable: false,
      details: { status: 404 },
    });
    expect(await failure(fetcher.fetch(`${cdnUrl}/files/private.png`))).toMatchObject({
      code: 'http_error',
      retryable: false,
    });
    expect(await failure(fetcher.fetch(`${cdnUrl}/files/busy.png`))).toMatchObject({
      code: 'server_error',
      retryable: true,
    });
  });

  it('refuses an announced size over the cap without reading, and stops a stream past the cap', async () => {
    expect(await failure(fetcher.fetch(`${cdnUrl}/files/announced-huge.png`))).toMatchObject({
      code: 'too_large',
      retryable: false,
      details: { size: 50_000_000 },
    });
    const error = await failure(fetcher.fetch(`${cdnUrl}/files/endless.png`));
    expect(error).toMatchObject({ code: 'too_large', retryable: false });
    expect(error.details.size).toBeGreaterThan(1024 * 1024);
    expect(error.details.size).toBeLessThan(1024 * 1024 + 128 * 1024);
  });

  it('gives up on a stalled answer with a retryable time-out', async () => {
    expect(await failure(fetcher.fetch(`${cdnUrl}/files/stalls.png`))).toMatchObject({
      code: 'timeout',
      retryable: true,
    });
  });

  it('reports a refused connection as a retryable network error', async () => {
    const closed = await listen(() => {});
    const port = closed.port;
    await new Promise((resolve) => closed.server.close(resolve));
    const local = new SafeImageFetcher({ allowlist: parseAllowlist([`http://127.0.0.1:${port}`]) });
    expect(await failure(local.fetch(`http://127.0.0.1:${port}/x.png`))).toMatchObject({
      code: 'network_error',
      retryable: true,
    });
  });
});
