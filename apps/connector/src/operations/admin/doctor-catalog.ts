import { apiKeyFingerprint, CatalogClient, CatalogClientError } from '#lib/catalog-client';
import type { Clock } from '#lib/clock';
import { CAUSES, type CauseCode } from '../../platform/causes/causes.js';
import type { ShopConfig } from '../../platform/config/shop-config.js';
import type { DoctorCheckDto } from './doctor.dto.js';

/** How long the catalog has to answer the probe. */
const CATALOG_TIMEOUT_MS = 15_000;

/** A check's answer, its fix taken from the causes table when one fits. */
export function doctorAnswer(
  check: DoctorCheckDto['check'],
  shop: string | null,
  status: DoctorCheckDto['status'],
  detail: string,
  fix: string | null | CauseCode,
): DoctorCheckDto {
  if (fix !== null && fix in CAUSES) {
    const next = CAUSES[fix as CauseCode].next(shop);
    return { check, shop, status, detail, fix: next.text, command: next.command, href: next.href };
  }
  return { check, shop, status, detail, fix, command: null, href: null };
}

/**
 * Why: a catalog key that reads but cannot write (the catalog sandbox seeds one:
 * `demo-readonly-key-0002`) passes every read at boot and fails the first sync. The probe is a
 * `PATCH /v1/products` naming no record (an empty `supplierSku`): a PATCH never creates, and the
 * body is refused before anything is written. The catalog checks the key's permission first: 403
 * (no write permission) or 401 (refused) fail; a refusal of the body itself (400, or 404) means
 * the key may write. Its own client (one attempt), so a refusal opens no breaker of the shop's syncs.
 */
export async function checkCatalogKey(
  shop: ShopConfig,
  configured: boolean,
  clock: Clock,
): Promise<DoctorCheckDto> {
  const domain = shop.domain;
  // A configured shop's key is its environment's; an installed shop's is set through the admin API.
  const keyFix = configured
    ? `Set CONNECTOR_SHOP_${shop.key}_CATALOG_API_KEY (or CONNECTOR_CATALOG_API_KEY) to a key the catalog accepts with products read and write permission, then restart the connector.`
    : 'catalog_key_refused';
  const answer = (status: DoctorCheckDto['status'], detail: string, fix: string | null | CauseCode) =>
    doctorAnswer('catalog-key', domain, status, detail, fix === 'catalog_key_refused' ? keyFix : fix);
  if (shop.catalog.apiKeyProblem !== undefined)
    return answer('fail', shop.catalog.apiKeyProblem, 'catalog_key_unusable');
  const key = shop.catalog.apiKey.reveal();
  if (key === '')
    return answer('fail', `${domain} has no catalog API key yet: its syncs wait.`, 'catalog_key_refused');
  const name = `the catalog key ${apiKeyFingerprint(key)} at ${shop.catalog.baseUrl}`;
  const client = new CatalogClient({
    baseUrl: shop.catalog.baseUrl,
    apiKey: key,
    clock,
    rate: { ratePerSecond: 1, burst: 1 },
    retry: { maxAttempts: 1 },
    timeouts: { readMs: CATALOG_TIMEOUT_MS, writeMs: CATALOG_TIMEOUT_MS },
    logger: { debug: () => undefined, warn: () => undefined },
  });
  try {
    await client.updateProduct({ product: { supplierSku: '', attributes: [] } });
    return answer(
      'warn',
      `${name}: the write probe (PATCH /v1/products without a supplierSku) was accepted; it should have been refused.`,
      'Tell the catalog team: a PATCH without a supplierSku should be refused.',
    );
  } catch (error) {
    if (!(error instanceof CatalogClientError) || error.status === null)
      return answer(
        'fail',
        `${name}: the catalog does not answer (${describe(error)}).`,
        'catalog_unreachable',
      );
    if (error.status === 403)
      return answer(
        'fail',
        `${name} cannot write: the catalog refused the write probe with 403 (${error.code}). It reads, so the boot's checks pass, and every sync would fail.`,
        'catalog_key_refused',
      );
    if (error.status === 401)
      return answer('fail', `${name} is refused (401 ${error.code}).`, 'catalog_key_refused');
    if (error.status === 400 || error.status === 404 || error.status === 422)
      return answer(
        'pass',
        `${name} may write: the write probe was refused for its body (${error.status} ${error.code}), not for the key; nothing was written.`,
        null,
      );
    if (error.status === 429)
      return answer(
        'unknown',
        `${name}: the catalog answered 429 to the write probe.`,
        'catalog_rate_limited',
      );
    return answer(
      'fail',
      `${name}: the write probe got ${error.status} ${error.code}.`,
      'catalog_server_errors',
    );
  } finally {
    await client.close();
  }
}

/**
 * Why: the catalog's clock, for the skew check: any answer of its server carries a `Date` header
 * (RFC 9110). A `HEAD` of its base address, without the key: no budget spent, nothing read.
 * Null when it does not answer or sends no date.
 */
export async function catalogClock(
  baseUrl: string,
  clock: Clock,
  fetchFn: typeof fetch = fetch,
): Promise<{ serverMs: number; localMs: number } | null> {
  try {
    const response = await fetchFn(`${baseUrl}/`, {
      method: 'HEAD',
      signal: AbortSignal.timeout(CATALOG_TIMEOUT_MS),
    });
    const localMs = clock.now();
    const serverMs = Date.parse(response.headers.get('date') ?? '');
    return Number.isFinite(serverMs) ? { serverMs, localMs } : null;
  } catch {
    return null;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
