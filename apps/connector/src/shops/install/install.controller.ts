import { Controller, Get, Logger, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Clock } from '#lib/clock';
import { HttpSettings, InstallSettings, ShopifySettings } from '../../platform/config/settings.js';
import { SHOP_DOMAIN, type ShopConfig } from '../../platform/config/shop-config.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { InstalledShopDirectory } from '../installed-shop-directory.service.js';
import { prospectiveShop } from '../installed-shop-loader.js';
import { ShopFetchRoutes } from '../shop-fetch-routes.service.js';
import type { ShopState } from '../shop-session.entity.js';
import { ShopTokens } from '../shop-tokens.service.js';
import { Shops } from '../shops.js';
import { grantedTokensOf, TokenGrants } from '../token-grants.service.js';
import { missingScopes, REQUIRED_SCOPES } from './install-scopes.js';

/**
 * The shop query parameter of both routes. The rest of Shopify's redirect is read and checked by
 * `@shopify/shopify-api` (its HMAC covers every parameter), so no DTO whitelists it.
 */
const SHOP_QUERY = ApiQuery({
  name: 'shop',
  required: true,
  description: 'The shop installing the app: `<name>.myshopify.com`.',
});

/** Where Shopify sends the merchant back (an allowed redirection URL of the app). */
export const CALLBACK_PATH = '/auth/shopify/callback';

/**
 * Why: a shop of kind `installed` gets its tokens by the merchant installing the app, through
 * `@shopify/shopify-api`'s own OAuth (`auth.begin`, `auth.callback` with expiring offline tokens):
 * the state nonce in a signed cookie, the callback's HMAC, timestamp and shop host checked by the
 * library; then the granted scopes against `REQUIRED_SCOPES`. Too few, or any refusal: nothing is
 * stored. A success stores the pair and runs the subscription check at once (the shop's webhooks).
 * With `CONNECTOR_SHOPIFY_ADMIN_ORIGIN` (the sandbox), the merchant is sent there.
 */
@ApiTags('install')
@Controller('auth/shopify')
export class InstallController {
  private readonly logger = new Logger('Install');

  constructor(
    private readonly shops: Shops,
    private readonly grants: TokenGrants,
    private readonly tokens: ShopTokens,
    private readonly settings: ShopifySettings,
    private readonly http: HttpSettings,
    private readonly installs: InstallSettings,
    private readonly directory: InstalledShopDirectory,
    private readonly routes: ShopFetchRoutes,
    private readonly clock: Clock,
  ) {}

  /** `GET /auth/shopify?shop=<name>.myshopify.com`: to the shop's authorize page. */
  @Get()
  @ApiOperation({
    operationId: 'beginInstall',
    summary:
      "Start an install: a signed state cookie, then a redirect to the shop's authorize page (shops of kind installed)",
    description:
      '410 bot_refused: the User-Agent looks like a bot (the isbot rule of @shopify/shopify-api, which begins no OAuth for bots); open the link in a browser. Nothing is stored.',
  })
  @SHOP_QUERY
  @ApiResponse({ status: 302, description: "To the shop's authorize page" })
  @ApiConnectorErrors(400, 404, 410)
  async begin(@Req() req: Request, @Res() res: Response): Promise<void> {
    const shop = this.installable(req.query.shop);
    const answer = heldGone(res);
    await this.grants.api(shop).auth.begin({
      shop: shop.domain,
      callbackPath: CALLBACK_PATH,
      isOnline: false,
      rawRequest: req,
      rawResponse: this.redirectedTo(answer.res),
    });
    // The library answers a bot-like User-Agent (its `isbot` rule) 410 with no body: say why.
    if (answer.gone()) {
      throw new ConnectorError(
        ConnectorErrorCode.BOT_REFUSED,
        'The User-Agent of this request looks like a bot, and @shopify/shopify-api does not begin an install for bots: open the link in a browser. Nothing was stored.',
      );
    }
  }

  /** `GET /auth/shopify/callback`: checks Shopify's redirect, exchanges the code, stores the pair. */
  @Get('callback')
  @ApiOperation({
    operationId: 'completeInstall',
    summary:
      "Shopify's redirect: HMAC, timestamp, state and shop checked, the code exchanged for an expiring token pair (stored encrypted)",
    description:
      'Query: code, hmac, host, shop, state, timestamp (as Shopify signs them). 400 install_refused: a forged or stale redirect, a wrong state, no state cookie; 403 insufficient_scopes: too few scopes granted. Nothing is stored on a refusal.',
  })
  @SHOP_QUERY
  @ApiProduces('text/plain')
  @ApiResponse({ status: 200, description: 'Installed', schema: { type: 'string' } })
  @ApiConnectorErrors(400, 403, 404)
  async callback(@Req() req: Request, @Res() res: Response): Promise<void> {
    const shop = this.installable(req.query.shop);
    let granted: ReturnType<typeof grantedTokensOf>;
    try {
      const { session } = await this.grants
        .api(shop)
        .auth.callback({ rawRequest: req, rawResponse: res, expiring: true });
      granted = grantedTokensOf(session, this.clock.now());
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      this.logger.warn(`Install of ${shop.domain} refused: ${reason}`);
      throw new ConnectorError(
        ConnectorErrorCode.INSTALL_REFUSED,
        `The install of ${shop.domain} could not be completed (${reason.slice(0, 200)}); nothing was stored. Start again from the Shopify admin.`,
      );
    }
    const missing = missingScopes(REQUIRED_SCOPES, granted.scope);
    if (missing.length > 0) {
      throw new ConnectorError(
        ConnectorErrorCode.INSUFFICIENT_SCOPES,
        `${shop.domain} granted too few access scopes: the connector needs ${missing.join(', ')} too; nothing was stored.`,
        { missing },
      );
    }
    // A shop not served yet joins first (it has no session row, nothing to purge). One coming back
    // after a shop/redact joins under its session row's lock, with the install: a redact's purge
    // holding that lock (the earlier installation's data) ends first and never takes its rows.
    let joined = this.shops.find(shop.domain) === undefined;
    if (joined) await this.directory.join(shop.domain);
    // Active: its webhooks are subscribed now (`SubscriptionCheckRequests`), not at the next scheduled check.
    await this.tokens.installed(shop.domain, granted, async (row) => {
      if (joined || !this.returnsAfterRedact(shop.domain, row.state)) return;
      joined = true;
      await this.directory.join(shop.domain);
    });
    const served = this.shops.find(shop.domain) ?? shop;
    const next =
      served.catalog.apiKey.reveal() === ''
        ? ` Next, the operator sets its catalog API key (PUT /admin/shops/${shop.domain}/catalog-key, or \`connector shops catalog-key ${shop.domain}\`); its syncs wait until then. Then a first resync: POST /admin/resync?shop=${shop.domain}.`
        : '';
    if (joined) this.logger.log(`${shop.domain} installed the app and joined the connector.${next}`);
    res
      .status(200)
      .type('text/plain')
      .send(
        `${shop.domain} is installed: the connector syncs its products (scopes ${granted.scope ?? ''}).${next}`,
      );
  }

  /**
   * Whether the install is a join (the shop's mode set to `CONNECTOR_NEW_SHOP_MODE` before it is
   * active) of a shop already served: one that installed itself and comes back after a
   * `shop/redact` (its row kept only its domain: it starts as a new shop). A shop not served yet
   * joins too; a configured shop is set in its environment.
   */
  private returnsAfterRedact(domain: string, state: ShopState): boolean {
    const served = this.shops.find(domain);
    if (served === undefined || this.shops.configured.includes(served)) return false;
    return state === 'redacted';
  }

  /**
   * The shop named by `?shop=`: a `*.myshopify.com` host this connector serves with kind
   * `installed`, or any such host when installs are open (it joins at its callback).
   */
  private installable(value: unknown): ShopConfig {
    const domain = typeof value === 'string' ? value.trim().toLowerCase() : '';
    if (!SHOP_DOMAIN.test(domain)) {
      throw new ConnectorError(
        ConnectorErrorCode.INSTALL_REFUSED,
        'shop must be a <name>.myshopify.com domain; nothing was stored.',
        { parameter: 'shop' },
      );
    }
    const shop =
      this.shops.find(domain) ?? (this.installs.open ? prospectiveShop(domain, this.installs) : undefined);
    if (shop === undefined || shop.auth.kind !== 'installed' || this.http.publicUrl === null) {
      throw new ConnectorError(
        ConnectorErrorCode.INSTALL_UNAVAILABLE,
        `This connector does not take installs of ${domain} (CONNECTOR_SHOPIFY_INSTALLS=open lets any shop install; otherwise it must be in CONNECTOR_SHOPS with CONNECTOR_SHOP_<KEY>_AUTH=installed; and CONNECTOR_PUBLIC_URL set).`,
      );
    }
    // Its token request goes where this connector's Shopify requests go (the sandbox, a test).
    this.routes.route(shop.domain);
    return shop;
  }

  /** The response, its `Location` sent to the configured admin origin (the sandbox) when set. */
  private redirectedTo(res: Response): Response {
    const origin = this.settings.adminOrigin;
    if (origin === null) return res;
    return new Proxy(res, {
      get(target, property) {
        if (property === 'setHeader') {
          return (name: string, value: string | string[]) => {
            if (name.toLowerCase() !== 'location' || typeof value !== 'string')
              return target.setHeader(name, value);
            const url = new URL(value);
            url.searchParams.set('shop', url.hostname);
            return target.setHeader(name, `${origin}${url.pathname}${url.search}`);
          };
        }
        const member = Reflect.get(target, property, target);
        return typeof member === 'function' ? member.bind(target) : member;
      },
      set(target, property, value) {
        return Reflect.set(target, property, value, target);
      },
    });
  }
}

/**
 * The response, except that a 410 the library ends (its bot refusal, no body) is held back: the
 * caller answers it in the connector's error shape instead.
 */
function heldGone(res: Response): { res: Response; gone: () => boolean } {
  let held = false;
  const proxy = new Proxy(res, {
    get(target, property) {
      if (property === 'end') {
        return (...args: unknown[]) => {
          if (target.statusCode === 410 && !target.headersSent) {
            held = true;
            return proxy;
          }
          return (target.end as (...a: unknown[]) => Response)(...args);
        };
      }
      const member = Reflect.get(target, property, target);
      return typeof member === 'function' ? member.bind(target) : member;
    },
    set(target, property, value) {
      return Reflect.set(target, property, value, target);
    },
  });
  return { res: proxy, gone: () => held };
}
