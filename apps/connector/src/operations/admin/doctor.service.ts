import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { readGrantedScopes } from '../../clients/shopify/shop-reads.js';
import { ShopifyAdminError, ShopifyErrorCode } from '../../clients/shopify/shopify-admin.error.js';
import { ShopifyAdmin } from '../../clients/shopify/shopify-admin.service.js';
import { subscribedTopics } from '../../clients/shopify/webhook-subscription-calls.js';
import { SubscriptionRepair } from '../../intake/subscription-repair.service.js';
import { WEBHOOK_PATH } from '../../intake/webhook-subscriptions.js';
import { ShopMappings } from '../../mapping/shop-mappings.service.js';
import type { CauseCode } from '../../platform/causes/causes.js';
import { HttpSettings, ShopifySettings } from '../../platform/config/settings.js';
import type { ShopConfig } from '../../platform/config/shop-config.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { missingScopes, REQUIRED_SCOPES } from '../../shops/install/install-scopes.js';
import { ShopAuthError, ShopAuthErrorCode } from '../../shops/shop-auth.error.js';
import { ShopSessionRepository } from '../../shops/shop-sessions.repository.js';
import { ShopTokenSource } from '../../shops/shop-token-source.js';
import { Shops } from '../../shops/shops.js';
import type { DoctorCheckDto, DoctorReportDto } from './doctor.dto.js';
import { catalogClock, checkCatalogKey, doctorAnswer } from './doctor-catalog.js';
import { checkMappingGaps } from './doctor-mapping.js';
import { checkPublicUrl } from './doctor-public-url.js';
import { MappingEvaluations } from './mapping-evaluations.service.js';

/** Clock skew above this fails (Shopify refuses webhooks' and grants' times that far off; the runs' times lie). */
export const MAX_CLOCK_SKEW_MS = 60_000;

type Answer = (
  status: DoctorCheckDto['status'],
  detail: string,
  fix: string | null | CauseCode,
) => DoctorCheckDto;

/**
 * Why: before the first webhook, an operator learns whether the deployment can work (issue 43):
 * the public URL over HTTPS, then for each shop its token renewal, the scopes granted against
 * `REQUIRED_SCOPES`, the webhook subscriptions at this connector's callback (`SubscriptionRepair`'s
 * topics), a catalog key that can write, the mapping's gaps on a sample of its products
 * (`MappingEvaluations`) and the clock's skew against Shopify's and the catalog's. Each check
 * passes or names its fix (the causes table's words where one fits). Reads only: nothing is
 * repaired, created or synced (`GET /admin/doctor`, `connector doctor`, the shop's web page).
 */
@Injectable()
export class Doctor {
  constructor(
    private readonly http: HttpSettings,
    private readonly shopifySettings: ShopifySettings,
    private readonly shops: Shops,
    private readonly shopify: ShopifyAdmin,
    private readonly tokens: ShopTokenSource,
    private readonly sessions: ShopSessionRepository,
    private readonly subscriptions: SubscriptionRepair,
    private readonly evaluations: MappingEvaluations,
    private readonly mappings: ShopMappings,
    private readonly clock: Clock,
  ) {}

  /** Every check of the deployment and of one shop (`shop`) or of every shop served. */
  async examine(shop?: string): Promise<DoctorReportDto> {
    let shops: readonly ShopConfig[] = this.shops.all;
    if (shop !== undefined) {
      const found = this.shops.find(shop);
      if (!found) {
        const name = shop.toLowerCase();
        throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No shop ${name}.`, { shop: name });
      }
      shops = [found];
    }
    const checks: DoctorCheckDto[] = [await checkPublicUrl(this.http.publicUrl)];
    for (const each of shops) checks.push(...(await this.examineShop(each)));
    return {
      checkedAt: new Date(this.clock.now()).toISOString(),
      shops: shops.map((s) => s.domain),
      checks,
      failed: checks.filter((c) => c.status === 'fail').length,
    };
  }

  private async examineShop(shop: ShopConfig): Promise<DoctorCheckDto[]> {
    const renewal = await this.tokenRenewal(shop);
    // Without a token, Shopify cannot be asked: its checks say so rather than fail twice.
    const shopifyChecks =
      renewal.status === 'fail'
        ? (['scopes', 'webhooks'] as const).map((check) =>
            doctorAnswer(
              check,
              shop.domain,
              'unknown',
              `Not checked: ${shop.domain} has no working token.`,
              null,
            ),
          )
        : [await this.scopes(shop), await this.webhooks(shop)];
    return [
      renewal,
      ...shopifyChecks,
      await checkCatalogKey(shop, this.shops.configured.includes(shop), this.clock),
      await checkMappingGaps(shop.domain, this.mappings, this.evaluations),
      await this.clockSkew(shop),
    ];
  }

  /** The shop's token: a static one is never renewed; a granted one is renewed when due, and must be live. */
  private async tokenRenewal(shop: ShopConfig): Promise<DoctorCheckDto> {
    const answer: Answer = (status, detail, fix) =>
      doctorAnswer('token-renewal', shop.domain, status, detail, fix);
    const row = await this.sessions.find(shop.domain);
    if (row !== null && row.state === 'needs_reauth')
      return answer(
        'fail',
        `${shop.domain} needs to authorise the app again: ${row.stateReason ?? 'its grant was refused'}.`,
        'shopify_token_refused',
      );
    if (row !== null && row.state !== 'active' && shop.auth.kind !== 'client-credentials')
      return answer(
        'fail',
        `${shop.domain} is ${row.state}${row.stateReason ? ` (${row.stateReason})` : ''}.`,
        'app_uninstalled',
      );
    try {
      await this.tokens.accessToken(shop.domain);
    } catch (error) {
      const cause: CauseCode =
        error instanceof ShopAuthError && error.code === ShopAuthErrorCode.UNINSTALLED
          ? 'app_uninstalled'
          : error instanceof ShopAuthError && error.code === ShopAuthErrorCode.TOKEN_UNAVAILABLE
            ? 'shopify_unavailable'
            : 'shopify_token_refused';
      return answer('fail', `No token for ${shop.domain}: ${describe(error)}.`, cause);
    }
    if (shop.auth.kind === 'static' && !(row?.authKind === 'installed' && row.refreshToken !== null))
      return answer(
        'pass',
        `${shop.domain} uses a static access token (a legacy custom app's): nothing to renew.`,
        null,
      );
    const fresh = await this.sessions.find(shop.domain);
    const now = this.clock.now();
    const expiresAt = fresh?.expiresAt?.getTime() ?? null;
    if (fresh === null || fresh.state !== 'active' || (expiresAt !== null && expiresAt <= now))
      return answer('fail', `${shop.domain}'s token expired and was not renewed.`, 'shopify_token_refused');
    const refreshEnds = fresh.refreshTokenExpiresAt?.getTime() ?? null;
    const renewed =
      fresh.refreshedAt === null
        ? 'not renewed yet'
        : `renewed ${fresh.refreshCount} time${fresh.refreshCount === 1 ? '' : 's'}, last at ${fresh.refreshedAt.toISOString()}`;
    const until =
      expiresAt === null ? 'does not expire' : `is valid until ${new Date(expiresAt).toISOString()}`;
    const refresh =
      refreshEnds === null ? '' : `; its refresh token until ${new Date(refreshEnds).toISOString()}`;
    return answer(
      'pass',
      `${shop.domain}'s ${shop.auth.kind === 'client-credentials' ? 'client credentials' : 'expiring'} token ${until} (${renewed})${refresh}.`,
      null,
    );
  }

  /** The scopes Shopify says the token carries, against those the connector needs. */
  private async scopes(shop: ShopConfig): Promise<DoctorCheckDto> {
    const answer: Answer = (status, detail, fix) => doctorAnswer('scopes', shop.domain, status, detail, fix);
    let granted: string[];
    try {
      granted = await readGrantedScopes(this.shopify.forShop(shop.domain));
    } catch (error) {
      return answer(
        'unknown',
        `Shopify did not say which scopes ${shop.domain} granted (${describe(error)}).`,
        shopifyCause(error),
      );
    }
    const missing = missingScopes(REQUIRED_SCOPES, granted.join(','));
    if (missing.length === 0)
      return answer(
        'pass',
        `${shop.domain} granted ${REQUIRED_SCOPES.join(', ')} (of ${granted.join(', ') || 'none'}).`,
        null,
      );
    const fix =
      shop.auth.kind === 'client-credentials'
        ? `Add ${missing.join(', ')} to the app's access scopes in the Dev Dashboard and release a new version: the next token grant carries them.`
        : `Add ${missing.join(', ')} to the app's access scopes in the Dev Dashboard, release a new version, then have ${shop.domain} approve them (open the install link again; docs/production.md, "Scopes").`;
    return answer(
      'fail',
      `${shop.domain} did not grant ${missing.join(', ')} (granted: ${granted.join(', ') || 'none'}).`,
      fix,
    );
  }

  /** Every topic the connector needs subscribed at this connector's callback URL. */
  private async webhooks(shop: ShopConfig): Promise<DoctorCheckDto> {
    const answer: Answer = (status, detail, fix) =>
      doctorAnswer('webhooks', shop.domain, status, detail, fix);
    if (this.http.publicUrl === null)
      return answer(
        'fail',
        'No webhook subscription is made without CONNECTOR_PUBLIC_URL.',
        'Set CONNECTOR_PUBLIC_URL (see the public-url check).',
      );
    const uri = `${this.http.publicUrl}${WEBHOOK_PATH}`;
    let have: Set<string>;
    try {
      have = await subscribedTopics(this.shopify.forShop(shop.domain), uri);
    } catch (error) {
      return answer(
        'unknown',
        `Shopify did not list ${shop.domain}'s webhook subscriptions (${describe(error)}).`,
        shopifyCause(error),
      );
    }
    const needed = this.subscriptions.topicsOf(shop.domain).map((t) => t.toUpperCase().replace('/', '_'));
    const missing = needed.filter((topic) => !have.has(topic));
    if (missing.length === 0)
      return answer('pass', `${needed.length} subscriptions (${needed.join(', ')}) point at ${uri}.`, null);
    const every = Math.round(this.shopifySettings.subscriptionCheckMs / 60_000);
    const fix = `Subscribe them now: npm run connector -- register-webhooks --shop ${shop.domain} (the scheduled check recreates them within ${every} min).`;
    return {
      ...answer(
        'fail',
        `${missing.length} of ${needed.length} subscriptions missing at ${uri}: ${missing.join(', ')}; their changes never reach the connector.`,
        fix,
      ),
      command: `npm run connector -- register-webhooks --shop ${shop.domain}`,
    };
  }

  /** This process's clock against the `Date` of Shopify's last answer for the shop and of the catalog's. */
  private async clockSkew(shop: ShopConfig): Promise<DoctorCheckDto> {
    const answer: Answer = (status, detail, fix) => doctorAnswer('clock', shop.domain, status, detail, fix);
    const samples: Array<[string, { serverMs: number; localMs: number } | null]> = [
      ['Shopify', this.shopify.forShop(shop.domain).lastAnswerDate],
      ['the catalog', await catalogClock(shop.catalog.baseUrl, this.clock)],
    ];
    const known = samples.filter((s): s is [string, { serverMs: number; localMs: number }] => s[1] !== null);
    if (known.length === 0)
      return answer('unknown', 'Neither Shopify nor the catalog answered with a Date header.', null);
    // A Date header has whole seconds: up to 1 s of the difference is its rounding.
    const skews = known.map(([name, s]) => ({ name, ms: s.localMs - s.serverMs }));
    const words = skews.map((s) => `${s.name}'s by ${signed(s.ms)}`).join(', from ');
    const worst = skews.reduce((a, b) => (Math.abs(b.ms) > Math.abs(a.ms) ? b : a));
    if (Math.abs(worst.ms) > MAX_CLOCK_SKEW_MS)
      return answer(
        'fail',
        `This host's clock is off by more than ${MAX_CLOCK_SKEW_MS / 1000} s: it differs from ${words}.`,
        "Synchronise the host clock (NTP: timedatectl set-ntp true, or chrony); containers take the host's clock.",
      );
    const unknown = samples.filter((s) => s[1] === null).map((s) => s[0]);
    return answer(
      'pass',
      `This host's clock differs from ${words} (at most ${MAX_CLOCK_SKEW_MS / 1000} s allowed)${unknown.length > 0 ? `; ${unknown.join(', ')} sent no date` : ''}.`,
      null,
    );
  }
}

/** The causes table's row for a Shopify failure. */
function shopifyCause(error: unknown): CauseCode {
  if (error instanceof ShopAuthError) return 'shopify_token_refused';
  if (!(error instanceof ShopifyAdminError)) return 'shopify_unavailable';
  if (error.code === ShopifyErrorCode.UNAUTHORIZED) return 'shopify_token_refused';
  if (error.code === ShopifyErrorCode.ACCESS_DENIED) return 'shopify_scopes_missing';
  return 'shopify_unavailable';
}

function signed(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return `${seconds > 0 ? '+' : ''}${seconds} s`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
