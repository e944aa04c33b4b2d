import { isIP } from 'node:net';
import type { DoctorCheckDto } from './doctor.dto.js';

/** How long the public URL has to answer. */
const PUBLIC_URL_TIMEOUT_MS = 10_000;
const GUIDE = 'docs/production.md, "Deploying: compose, Caddy, HTTPS"';
const SHOPIFY_NEEDS =
  'Shopify delivers webhooks and sends installs back only to HTTPS on a name the internet resolves';

/**
 * Why: Shopify reaches the connector only at `CONNECTOR_PUBLIC_URL`, over HTTPS (issue 43). This
 * fetches `<public URL>/health/live` by that outside name, as the proxy in front forwards it
 * (deploy/Caddyfile): 200 over HTTPS on a public name passes; no answer, a TLS refusal or another
 * status fails with what to look at. An `http://` URL (warn) or a loopback or private name
 * (unknown) cannot tell whether Shopify gets through: the answer says why, and what Shopify needs.
 */
export async function checkPublicUrl(
  publicUrl: string | null,
  fetchFn: typeof fetch = fetch,
): Promise<DoctorCheckDto> {
  const answer = (status: DoctorCheckDto['status'], detail: string, fix: string | null): DoctorCheckDto => ({
    check: 'public-url',
    shop: null,
    status,
    detail,
    fix,
    command: null,
    href: null,
  });
  if (publicUrl === null) {
    return answer(
      'fail',
      'CONNECTOR_PUBLIC_URL is not set: no webhook subscription is made and no install can come back.',
      `Set CONNECTOR_PUBLIC_URL to the HTTPS address Shopify reaches (https://connector.example.com; ${GUIDE}).`,
    );
  }
  const url = new URL(publicUrl);
  const probe = `${publicUrl.replace(/\/+$/, '')}/health/live`;
  let status: number;
  try {
    const response = await fetchFn(probe, { signal: AbortSignal.timeout(PUBLIC_URL_TIMEOUT_MS) });
    status = response.status;
    await response.body?.cancel();
  } catch (error) {
    const cause = causeOf(error);
    const tls = /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(cause);
    return answer(
      'fail',
      `${probe} does not answer (${cause}).`,
      tls
        ? `The certificate for ${url.hostname} is refused: let the proxy obtain one (Caddy does, once ports 80 and 443 reach it and the name's DNS points at this host; ${GUIDE}).`
        : `Make ${url.hostname} reach the connector: its DNS, the proxy in front (ports 80 and 443 open) and the connector's public port (${GUIDE}).`,
    );
  }
  if (status !== 200) {
    return answer(
      'fail',
      `${probe} answered ${status}, not 200.`,
      `Forward /webhooks/shopify, /auth/shopify* and /health/live from ${url.hostname} to the connector's public port (deploy/Caddyfile; ${GUIDE}).`,
    );
  }
  if (url.protocol !== 'https:') {
    return answer(
      'warn',
      `${probe} answers over HTTP, but ${SHOPIFY_NEEDS}: whether Shopify gets through cannot be told.`,
      `Put an HTTPS proxy in front (Caddy in docker-compose.yml) and set CONNECTOR_PUBLIC_URL=https://<its name> (${GUIDE}).`,
    );
  }
  const inside = insideName(url.hostname);
  if (inside !== null) {
    return answer(
      'unknown',
      `${probe} answers, but ${url.hostname} is ${inside}: whether Shopify reaches it from the internet cannot be told from here (${SHOPIFY_NEEDS}).`,
      `Set CONNECTOR_PUBLIC_URL to the public HTTPS name Shopify reaches (${GUIDE}).`,
    );
  }
  return answer('pass', `${probe} answers 200 over HTTPS by its outside name.`, null);
}

/** Why a name only resolves here (loopback, a private network, a name without a domain), or null. */
function insideName(host: string): string | null {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return 'a loopback name';
  const version = isIP(name);
  if (version === 4) {
    const [a = 0, b = 0] = name.split('.').map(Number);
    if (a === 127) return 'a loopback address';
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'a private address';
    if (a === 169 && b === 254) return 'a link-local address';
    return null;
  }
  if (version === 6) {
    if (name === '::1') return 'a loopback address';
    if (/^f[cd]/.test(name)) return 'a private address';
    if (/^fe[89ab]/.test(name)) return 'a link-local address';
    return null;
  }
  if (!name.includes('.')) return 'a name without a domain (a container or host name)';
  if (/\.(local|internal|lan|home\.arpa)$/.test(name)) return 'a name of a local network';
  return null;
}

/** The network error's code under fetch's "fetch failed" (`ECONNREFUSED`, a certificate error, a time-out). */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (error instanceof Error && error.name === 'TimeoutError')
    return `no answer in ${PUBLIC_URL_TIMEOUT_MS / 1000} s`;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
