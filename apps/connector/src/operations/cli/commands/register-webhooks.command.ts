import { Command } from 'commander';
import { SystemClock } from '#lib/clock';
import { oneOffShopifyAdmin } from '../../../clients/shopify/one-off-shopify-admin.js';
import {
  ensureWebhookSubscriptions,
  topicsForScope,
  WEBHOOK_PATH,
} from '../../../intake/webhook-subscriptions.js';
import { loadMappingFile } from '../../../mapping/parse-mapping-file.js';
import type { ContextOf } from '../context/cli-context.js';
import { CliError, ExitCode } from '../context/cli-error.js';

/**
 * `register-webhooks`: subscribes each shop's product topics (and its collections' when its
 * mapping's scope names collections) to `<public URL>/webhooks/shopify`
 * with the same calls the connector makes at boot (`ensureWebhookSubscriptions`): idempotent, a
 * second run finds every topic subscribed and creates nothing. The public URL is
 * `CONNECTOR_PUBLIC_URL`, or `--public-url`.
 */
export function registerWebhooksCommand(contextOf: ContextOf): Command {
  return new Command('register-webhooks')
    .description(
      "subscribe each shop's products/create, /update, /delete and app/uninstalled webhooks (and collections/* for a scope naming collections) to the connector (idempotent)",
    )
    .option('--shop <domain>', 'only this shop')
    .option('--public-url <url>', 'where Shopify reaches the connector (default CONNECTOR_PUBLIC_URL)')
    .action(async (options: { shop?: string; publicUrl?: string }, command: Command) => {
      const context = contextOf(command);
      const base = (options.publicUrl ?? context.config.http.publicUrl)?.replace(/\/+$/, '');
      if (!base) {
        throw new CliError('no public URL: set CONNECTOR_PUBLIC_URL or pass --public-url', ExitCode.USAGE);
      }
      if (!/^https?:\/\/[^/]+/.test(base))
        throw new CliError(`--public-url must be an http(s) URL, got ${base}`, ExitCode.USAGE);
      const uri = `${base}${WEBHOOK_PATH}`;
      const { shopify, close } = oneOffShopifyAdmin(context.config, new SystemClock());
      let failed = 0;
      try {
        for (const shop of context.shops(options.shop)) {
          try {
            // A scope naming collections needs their topics too, as the connector's own check does.
            const scope = shop.mappingFile === null ? null : (await loadMappingFile(shop.mappingFile)).scope;
            const outcome = await ensureWebhookSubscriptions(
              shopify.forShop(shop.domain),
              uri,
              topicsForScope(scope),
            );
            const created =
              outcome.created.length > 0 ? `created ${outcome.created.join(', ')}` : 'created none';
            const kept =
              outcome.existing.length > 0 ? `; already subscribed ${outcome.existing.join(', ')}` : '';
            context.out.line(`${shop.domain}: webhooks go to ${uri}: ${created}${kept}`);
          } catch (error) {
            failed += 1;
            context.out.line(
              `${shop.domain}: FAILED: ${error instanceof Error ? error.message : String(error)}`,
            );
          }
        }
      } finally {
        close();
      }
      if (failed > 0)
        throw new CliError(`register-webhooks: ${failed} shop${failed === 1 ? '' : 's'} not subscribed`);
    });
}
