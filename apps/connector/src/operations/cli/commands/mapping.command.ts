import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import { decisionLine } from '../../../mapping/draft/draft-decision.js';
import type { MappingDraftDto } from '../../admin/mapping-setup.dto.js';
import type { ContextOf } from '../context/cli-context.js';
import { CliError, ExitCode } from '../context/cli-error.js';
import { integerOption } from './failures.command.js';

/**
 * Why: an operator connecting a real store starts from a mapping drafted from it (issue 43):
 * `mapping init` asks the connector for one (`POST /admin/shops/{shop}/mapping/draft`), writes
 * the commented file (`--out`, never over an existing file without `--force`; else stdout) and
 * prints what is left to decide, each marked TODO in the file, and how to check it.
 */
export function mappingCommand(contextOf: ContextOf): Command {
  const mapping = new Command('mapping').description("a shop's mapping file: draft a starting one");
  mapping
    .command('init')
    .description("draft a starting mapping from the shop's products and the catalog account")
    .option('--shop <domain>', 'the shop (default: the only configured shop)')
    .option('--out <file>', 'write the mapping here (default: print it on stdout, the summary on stderr)')
    .option('--force', 'write over an existing --out file')
    .option('--products <n>', 'products read, the first by id (1-2500)', integerOption, 250)
    .option('--json', 'print the API answer as JSON')
    .action(
      async (
        options: { shop?: string; out?: string; force?: boolean; products: number; json?: boolean },
        command: Command,
      ) => {
        const context = contextOf(command);
        const shop = options.shop?.toLowerCase() ?? context.shop(undefined).domain;
        const draft = await context.admin.postJson<MappingDraftDto>(
          `/admin/shops/${encodeURIComponent(shop)}/mapping/draft`,
          { products: options.products },
        );
        if (options.json) {
          context.out.line(JSON.stringify(draft, null, 2));
          return;
        }
        if (options.out === undefined) context.out.line(draft.file.trimEnd());
        else await save(options.out, draft.file, options.force === true);
        const say = (text: string) =>
          options.out === undefined ? context.out.warn(text) : context.out.line(text);
        for (const line of summary(draft, options.out)) say(line);
        if (draft.problems.length > 0)
          throw new CliError(
            `the draft does not fit the catalog account (${draft.problems.length} problems)`,
          );
      },
    );
  return mapping;
}

async function save(path: string, text: string, force: boolean): Promise<void> {
  try {
    await writeFile(path, text, { flag: force ? 'w' : 'wx' });
  } catch (error) {
    if ((error as { code?: string }).code === 'EEXIST')
      throw new CliError(`${path} exists: choose another --out, or --force to write over it`, ExitCode.USAGE);
    throw new CliError(`cannot write ${path}: ${(error as Error).message}`);
  }
}

/** What was read, what matched, what is left to decide, and the next step. */
function summary(draft: MappingDraftDto, out: string | undefined): string[] {
  const { productTypes, options, metafields } = draft.counts;
  const products = `${draft.products} product${draft.products === 1 ? '' : 's'}${draft.more ? ' (the first by id; the shop has more: --products)' : ''}`;
  const lines = [
    `${draft.shop}: mapping drafted from ${products} and the catalog account${out ? `, written to ${out}` : ''}`,
    `  matched by name: ${productTypes.matched} of ${productTypes.seen} product types, ${options.matched} of ${options.seen} options, ${metafields.matched} of ${metafields.seen} metafield definitions`,
    `  attributes fed: ${draft.attributes.join(', ')}`,
  ];
  if (draft.decisions.length === 0) lines.push('  nothing left to decide: read each entry all the same');
  else {
    lines.push(`  needs a decision (${draft.decisions.length}, each marked TODO in the file):`);
    for (const decision of draft.decisions) lines.push(`    ${decisionLine(decision)}`);
  }
  for (const problem of draft.problems)
    lines.push(`  FAIL  ${problem.path}${problem.line ? ` (line ${problem.line})` : ''}: ${problem.message}`);
  lines.push(
    `next: npm run connector -- check-config --shop ${draft.shop} --mapping ${out ?? '<file>'}   (how many products it cannot enrich, and why)`,
  );
  return lines;
}
