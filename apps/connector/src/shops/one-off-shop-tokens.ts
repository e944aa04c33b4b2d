import type { ShopConfig } from '../platform/config/shop-config.js';
import { ShopAuthError, ShopAuthErrorCode } from './shop-auth.error.js';
import { ShopTokenSource } from './shop-token-source.js';
import type { TokenGrants } from './token-grants.service.js';

/**
 * Why: the command line checks shops without the server's database. A static token is used as
 * is; client credentials get one token for the run (a grant leaves the server's tokens valid);
 * an installed shop's rotating refresh token is never used here (the running connector owns it).
 */
export class OneOffShopTokens extends ShopTokenSource {
  private readonly granted = new Map<string, Promise<string>>();

  constructor(
    private readonly shops: readonly ShopConfig[],
    private readonly grants: TokenGrants,
    private readonly now: () => number,
  ) {
    super();
  }

  accessToken(domain: string): Promise<string> {
    const shop = this.shops.find((s) => s.domain === domain);
    if (shop === undefined) return Promise.reject(new Error(`No shop ${domain}`));
    if (shop.auth.kind === 'static') return Promise.resolve(shop.auth.accessToken.reveal());
    if (shop.auth.kind === 'installed') {
      const message = `${domain} is installed: its tokens belong to the running connector (see GET /admin/shops)`;
      return Promise.reject(new ShopAuthError(ShopAuthErrorCode.NEEDS_REAUTH, message, null));
    }
    let token = this.granted.get(domain);
    if (token === undefined) {
      token = this.grants.clientCredentials(shop, this.now()).then((tokens) => tokens.accessToken);
      this.granted.set(domain, token);
    }
    return token;
  }

  async afterUnauthorized(): Promise<string | null> {
    return null;
  }
}
