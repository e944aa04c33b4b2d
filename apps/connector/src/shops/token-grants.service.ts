import '@shopify/shopify-api/adapters/node';
import { Injectable, Logger } from '@nestjs/common';
import {
  HttpResponseError,
  HttpRetriableError,
  LogSeverity,
  type Session,
  type Shopify,
  shopifyApi,
} from '@shopify/shopify-api';
import { HttpSettings, ShopifySettings } from '../platform/config/settings.js';
import type { ShopConfig } from '../platform/config/shop-config.js';

/** A token pair as Shopify granted it. */
export interface GrantedTokens {
  accessToken: string;
  expiresAt: Date | null;
  refreshToken: string | null;
  refreshTokenExpiresAt: Date | null;
  scope: string | null;
}

/** What a failed grant means: Shopify said no (a person must act), or try again later. */
export type GrantFailure = { refused: true; reason: string } | { refused: false; reason: string };

/**
 * Why: every token comes from `@shopify/shopify-api`'s own auth (`auth.clientCredentials`,
 * `auth.refreshToken`), never hand-made OAuth; one library instance per app credentials.
 */
@Injectable()
export class TokenGrants {
  private readonly logger = new Logger('TokenGrants');
  private readonly apis = new Map<string, Shopify>();

  constructor(
    private readonly http: HttpSettings,
    private readonly shopify: ShopifySettings,
  ) {}

  /** The client credentials grant (an app of the merchant's own organization): a 24-hour token. */
  async clientCredentials(shop: ShopConfig, now: number): Promise<GrantedTokens> {
    const { session } = await this.api(shop).auth.clientCredentials({ shop: shop.domain });
    return grantedTokensOf(session, now);
  }

  /** A new pair for an installed shop's refresh token (the given one stays usable until the new one is used). */
  async refresh(shop: ShopConfig, refreshToken: string, now: number): Promise<GrantedTokens> {
    const { session } = await this.api(shop).auth.refreshToken({ shop: shop.domain, refreshToken });
    return grantedTokensOf(session, now);
  }

  /**
   * A legacy non-expiring offline token exchanged for an expiring pair (`auth.migrateToExpiringToken`).
   * Shopify revokes the old token for the Admin API; asked again with it (a lost answer), it
   * gives the same pair for seven days, until that pair is refreshed.
   */
  async migrate(shop: ShopConfig, nonExpiringToken: string, now: number): Promise<GrantedTokens> {
    const { session } = await this.api(shop).auth.migrateToExpiringToken({
      shop: shop.domain,
      nonExpiringOfflineAccessToken: nonExpiringToken,
    });
    return grantedTokensOf(session, now);
  }

  /** The `@shopify/shopify-api` instance of the shop's app (its OAuth routes use it too). */
  api(shop: ShopConfig): Shopify {
    const app = shop.auth.app;
    if (app === null) throw new Error(`${shop.domain} has no app credentials`);
    const id = `${app.clientId}\n${shop.apiVersion}`;
    let api = this.apis.get(id);
    if (api === undefined) {
      const publicUrl = new URL(this.http.publicUrl ?? 'http://localhost');
      api = shopifyApi({
        apiKey: app.clientId,
        apiSecretKey: app.clientSecret.reveal(),
        scopes: this.shopify.scopes,
        hostName: publicUrl.host,
        hostScheme: publicUrl.protocol === 'http:' ? 'http' : 'https',
        isEmbeddedApp: false,
        apiVersion: shop.apiVersion,
        logger: {
          level: LogSeverity.Warning,
          log: async (severity, message) => {
            if (severity <= LogSeverity.Error) this.logger.error(message);
            else this.logger.warn(message);
          },
        },
      });
      this.apis.set(id, api);
    }
    return api;
  }
}

/** The session's pair; its times (the library's wall clock) moved onto the injected clock's `now`. */
export function grantedTokensOf(session: Session, now: number): GrantedTokens {
  const onClock = (date: Date | undefined) =>
    date === undefined ? null : new Date(now + (date.getTime() - Date.now()));
  return {
    accessToken: session.accessToken ?? '',
    expiresAt: onClock(session.expires),
    refreshToken: session.refreshToken ?? null,
    refreshTokenExpiresAt: onClock(session.refreshTokenExpires),
    scope: session.scope ?? null,
  };
}

/**
 * Shopify's refusals (`invalid_client`, `invalid_grant`, `shop_not_permitted`, the app not
 * installed: any 4xx but 429) need a person; network errors, 429 and 5xx are tried again.
 */
export function grantFailure(error: unknown): GrantFailure {
  if (error instanceof HttpResponseError && !(error instanceof HttpRetriableError)) {
    const status = error.response.code;
    const body = error.response.body as { error?: unknown; error_description?: unknown } | undefined;
    const code = typeof body?.error === 'string' ? body.error : `HTTP ${status}`;
    const description = typeof body?.error_description === 'string' ? `: ${body.error_description}` : '';
    const reason = `${code}${description}`.slice(0, 300);
    return status === 429 ? { refused: false, reason } : { refused: true, reason };
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { refused: false, reason: message.slice(0, 300) };
}
