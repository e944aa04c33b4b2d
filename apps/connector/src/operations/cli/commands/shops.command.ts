import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import type { ReencryptDto, ShopListDto, ShopListEntryDto } from '../../admin/shop-list.dto.js';
import type { ContextOf } from '../context/cli-context.js';
import { CliError, ExitCode } from '../context/cli-error.js';

/**
 * `shops`: the shops from the admin API (`GET /admin/shops`: worst auth state first, 50 a page;
 * `--state`, `--q`, `--limit`, `--offset` or `--page` choose them), a few lines each: how it
 * authenticates, its state (and why, when not active), its token expiry and scopes, its last
 * token refresh, its catalog key and the operator's next step. `--json` prints the answer whole.
 * `shops catalog-key <shop>` and `shops mapping <shop>` set a self-installed shop's catalog key
 * (read from `--key-file` or standard input, never from the command line) and mapping file;
 * `shops migrate-token <shop>` moves a static shop to expiring tokens; `shops mode <shop>
 * <live|shadow>` switches whether its writes are sent or only planned (issue 31); `shops
 * reencrypt` moves every stored secret under the newest encryption key (a key rotation).
 */
export function shopsCommand(contextOf: ContextOf): Command {
  const shops = new Command('shops')
    .description(
      'list the shops: auth kind, state, token expiry, scopes, last refresh, catalog key, next step',
    )
    .option('--json', 'print the API answer as JSON')
    .option(
      '--state <state>',
      'only the shops in this auth state (active, needs_reauth, uninstalled, redacted)',
    )
    .option('--q <text>', 'only the shops whose domain contains this')
    .option('--limit <n>', 'at most this many shops (default 50)')
    .option('--offset <n>', 'skip this many shops')
    .option('--page <n>', 'the page of --limit shops, from 1')
    .action(async (options: ShopsOptions, command: Command) => {
      const { admin, out } = contextOf(command);
      const { state, q, limit, offset, page } = options;
      const answer = await admin.get<ShopListDto>('/admin/shops', { state, q, limit, offset, page });
      if (options.json) {
        out.line(JSON.stringify(answer, null, 2));
        return;
      }
      for (const shop of answer.shops) for (const line of describe(shop)) out.line(line);
      out.line(pageLine(answer));
      const { encryption } = answer;
      out.line(
        `encryption key ${encryption.currentKey ?? '-'}: ${encryption.secretsUnderOldKeys} secrets under old keys, ${encryption.unreadableSecrets} unreadable`,
      );
    });
  shops
    .command('reencrypt')
    .description(
      'encrypt every stored secret under the first of CONNECTOR_ENCRYPTION_KEYS (drop an old key once none is left under it)',
    )
    .action(async (_options: unknown, command: Command) => {
      const { admin, out } = contextOf(command);
      const answer = await admin.post<ReencryptDto>('/admin/shops/reencrypt');
      out.line(
        `${answer.reencrypted} secrets re-encrypted under key ${answer.currentKey ?? '-'}; ${answer.secretsUnderOldKeys} left under old keys, ${answer.unreadableSecrets} unreadable`,
      );
      if (answer.secretsUnderOldKeys > 0)
        throw new CliError('secrets are still under old keys: run it again', ExitCode.FAILURE);
    });
  shops
    .command('catalog-key')
    .description("set a self-installed shop's catalog API key (from --key-file, or standard input)")
    .argument('<shop>', '<name>.myshopify.com')
    .option('--key-file <path>', 'a file holding the key (else it is read from standard input)')
    .action(async (shop: string, options: { keyFile?: string }, command: Command) => {
      const { admin, out } = contextOf(command);
      const apiKey = (options.keyFile ? await readFile(options.keyFile, 'utf8') : await readStdin()).trim();
      if (apiKey === '')
        throw new CliError('no catalog API key given (--key-file, or standard input)', ExitCode.USAGE);
      const entry = await admin.put<ShopListEntryDto>(
        `/admin/shops/${encodeURIComponent(shop)}/catalog-key`,
        {
          apiKey,
        },
      );
      for (const line of describe(entry)) out.line(line);
    });
  shops
    .command('mapping')
    .description("set a self-installed shop's mapping file (a path on the connector), or --default")
    .argument('<shop>', '<name>.myshopify.com')
    .argument('[file]', 'the mapping file')
    .option('--default', 'go back to CONNECTOR_DEFAULT_MAPPING_FILE')
    .action(
      async (shop: string, file: string | undefined, options: { default?: boolean }, command: Command) => {
        const { admin, out } = contextOf(command);
        if ((file === undefined) === (options.default !== true)) {
          throw new CliError('give the mapping file, or --default', ExitCode.USAGE);
        }
        const entry = await admin.put<ShopListEntryDto>(`/admin/shops/${encodeURIComponent(shop)}/mapping`, {
          file: file ?? null,
        });
        for (const line of describe(entry)) out.line(line);
      },
    );
  shops
    .command('mode')
    .description('switch a shop to live (its writes are sent) or shadow (they are only planned, see preview)')
    .argument('<shop>', '<name>.myshopify.com')
    .argument('<mode>', 'live or shadow')
    .action(async (shop: string, mode: string, _options: unknown, command: Command) => {
      const { admin, out } = contextOf(command);
      if (mode !== 'live' && mode !== 'shadow')
        throw new CliError('the mode is live or shadow', ExitCode.USAGE);
      const entry = await admin.put<ShopListEntryDto>(`/admin/shops/${encodeURIComponent(shop)}/mode`, {
        mode,
      });
      for (const line of describe(entry)) out.line(line);
    });
  shops
    .command('migrate-token')
    .description(
      "exchange a static shop's legacy non-expiring token for expiring ones (Shopify revokes the old one)",
    )
    .argument('<shop>', '<name>.myshopify.com')
    .action(async (shop: string, _options: unknown, command: Command) => {
      const { admin, out } = contextOf(command);
      const entry = await admin.post<ShopListEntryDto>(
        `/admin/shops/${encodeURIComponent(shop)}/migrate-token`,
      );
      for (const line of describe(entry)) out.line(line);
    });
  return shops;
}

/** The list's choice of shops (passed to the API as given: it checks them). */
interface ShopsOptions {
  json?: boolean;
  state?: string;
  q?: string;
  limit?: string;
  offset?: string;
  page?: string;
}

/** "shops 1 to 50 of 200 (3 needs_reauth, 1 uninstalled, 0 redacted, 196 active)". */
function pageLine(answer: ShopListDto): string {
  const first = answer.total === 0 ? 0 : answer.offset + 1;
  const last = Math.min(answer.total, answer.offset + answer.limit);
  const counts = Object.entries(answer.stateCounts)
    .map(([state, count]) => `${count} ${state}`)
    .join(', ');
  return `shops ${first} to ${last} of ${answer.total} (${counts})`;
}

function describe(shop: ShopListEntryDto): string[] {
  const state = shop.stateReason === null ? shop.state : `${shop.state} (${shop.stateReason})`;
  const lines = [
    `${shop.shop}: ${shop.authKind} (${shop.source}), ${state}, ${shop.mode}${shop.modePinned ? ' (pinned)' : ''}`,
    `  token expires ${shop.tokenExpiresAt ?? 'never'}, scopes ${shop.scopes?.join(',') ?? '-'}, last refresh ${shop.lastRefreshAt ?? '-'} (${shop.refreshCount} tokens)`,
    `  subscriptions ${shop.subscriptions?.join(',') ?? 'not checked yet'} (${shop.subscriptionsRecreated} recreated), catalog key ${shop.catalogKeySet ? 'set' : 'not set'}, mapping ${shop.mappingFile ?? '-'}`,
  ];
  if (shop.catalogKeyProblem !== null) lines.push(`  failing: ${shop.catalogKeyProblem}`);
  if (shop.secretsUnderOldKeys > 0)
    lines.push(`  ${shop.secretsUnderOldKeys} stored secrets under an old encryption key`);
  if (shop.ignoredDeliveries > 0)
    lines.push(
      `  ${shop.ignoredDeliveries} lifecycle deliveries ignored (older than its installation); last: ${shop.lastIgnoredDelivery}`,
    );
  if (shop.nextStep !== null) lines.push(`  next: ${shop.nextStep}`);
  return lines;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY)
    throw new CliError('pipe the catalog API key in, or give --key-file', ExitCode.USAGE);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
