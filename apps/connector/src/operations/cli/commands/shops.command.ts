import { Command } from 'commander';
import type { ShopListDto } from '../../admin/shop-list.dto.js';
import type { ContextOf } from '../context/cli-context.js';

/**
 * `shops`: every shop from the admin API (`GET /admin/shops`), one line each: how it
 * authenticates, its state (and why, when not active), its token expiry and scopes, its last
 * token refresh, its catalog key. `--json` prints the answer whole.
 */
export function shopsCommand(contextOf: ContextOf): Command {
  return new Command('shops')
    .description('list the shops: auth kind, state, token expiry, scopes, last refresh, catalog key')
    .option('--json', 'print the API answer as JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const { admin, out } = contextOf(command);
      const answer = await admin.get<ShopListDto>('/admin/shops');
      if (options.json) {
        out.line(JSON.stringify(answer, null, 2));
        return;
      }
      for (const shop of answer.shops) {
        const state = shop.stateReason === null ? shop.state : `${shop.state} (${shop.stateReason})`;
        out.line(`${shop.shop}: ${shop.authKind}, ${state}`);
        out.line(
          `  token expires ${shop.tokenExpiresAt ?? 'never'}, scopes ${shop.scopes?.join(',') ?? '-'}, last refresh ${shop.lastRefreshAt ?? '-'} (${shop.refreshCount} tokens)`,
        );
        out.line(
          `  subscriptions ${shop.subscriptions?.join(',') ?? 'not checked yet'} (${shop.subscriptionsRecreated} recreated), catalog key ${shop.catalogKeySet ? 'set' : 'not set'}`,
        );
      }
    });
}
