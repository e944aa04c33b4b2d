/**
 * The connector's naming and ownership rules beyond the import graph: a file says its role in its
 * name, and each Shopify GraphQL document has one executing place in `clients/shopify`.
 */

/** The roles a file that holds an `@Injectable()` class may end its name with. */
export const ROLE_SUFFIXES = [
  'repository',
  'service',
  'controller',
  'job',
  'guard',
  'interceptor',
  'filter',
  'pipe',
  'client',
  'reader',
  'command',
  'listener',
] as const;

/** A decorator at the start of a line (a comment naming it is not one). */
const decorated = (text: string, name: string) => new RegExp(`^\\s*@${name}\\(`, 'm').test(text);

/**
 * Why: a reader finds a class's role from its file name. A class given a TypeORM repository (or
 * the data source) lives in `*.repository.ts`, a `@Processor` in `*.job.ts`, a `@Controller` in
 * `*.controller.ts`, with no exception; any other `@Injectable()` ends its name with one of
 * `ROLE_SUFFIXES`, unless `exceptions` lists it. An exception that no longer applies (the file
 * is gone or now follows the rule) is reported too, so the list only shrinks.
 */
export function roleViolations(
  sources: ReadonlyMap<string, string>,
  exceptions: readonly string[],
): string[] {
  const problems: string[] = [];
  const roleOf = (file: string) => /\.([a-z]+)\.ts$/.exec(file)?.[1] ?? '';
  for (const [file, text] of sources) {
    const role = roleOf(file);
    if (/@Inject(?:Repository|DataSource|EntityManager)\(/.test(text) && role !== 'repository')
      problems.push(`${file}: injects a TypeORM repository, not a *.repository.ts`);
    if (decorated(text, 'Processor') && role !== 'job')
      problems.push(`${file}: a @Processor, not a *.job.ts`);
    if (decorated(text, 'Controller') && role !== 'controller')
      problems.push(`${file}: a @Controller, not a *.controller.ts`);
    const named = (ROLE_SUFFIXES as readonly string[]).includes(role);
    if (decorated(text, 'Injectable') && !named && !exceptions.includes(file))
      problems.push(`${file}: an @Injectable() whose file name says no role (${ROLE_SUFFIXES.join(', ')})`);
  }
  for (const file of exceptions) {
    const text = sources.get(file);
    if (
      text === undefined ||
      !decorated(text, 'Injectable') ||
      (ROLE_SUFFIXES as readonly string[]).includes(roleOf(file))
    )
      problems.push(`${file}: listed as an exception, but needs none`);
  }
  return problems;
}

/** The code of a file, its comments left out (a comment naming a document runs nothing). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

const SHOPIFY = 'clients/shopify/';
const DOCUMENTS = `${SHOPIFY}documents/`;

/** The GraphQL documents `clients/shopify/documents` exports (a query or mutation text, or one built). */
export function shopifyDocuments(sources: ReadonlyMap<string, string>): string[] {
  const names = new Set<string>();
  const document =
    /export const (\w+)\s*=\s*(?:\/\*\s*GraphQL\s*\*\/\s*)?(?:[`'"]\s*(?:query|mutation)\b|\w+Document\()/g;
  for (const [file, text] of sources) {
    if (!file.startsWith(DOCUMENTS)) continue;
    for (const match of text.matchAll(document)) names.add(match[1] as string);
  }
  return [...names].sort();
}

/**
 * Why: one place runs each Shopify document, so its variables, cost and answer are read one way.
 * Each document is named by one file of `clients/shopify` (outside `documents/`), and by none
 * outside `clients/shopify`; `exceptions` lists, per document, the files that still do.
 */
export function documentViolations(
  sources: ReadonlyMap<string, string>,
  exceptions: Readonly<Record<string, readonly string[]>> = {},
): string[] {
  const problems: string[] = [];
  for (const name of shopifyDocuments(sources)) {
    const word = new RegExp(`\\b${name}\\b`);
    const users = [...sources]
      .filter(([file, text]) => !file.startsWith(DOCUMENTS) && word.test(withoutComments(text)))
      .map(([file]) => file);
    const allowed = exceptions[name] ?? [];
    const counted = users.filter((file) => !allowed.includes(file));
    for (const file of counted.filter((f) => !f.startsWith(SHOPIFY)))
      problems.push(`${name}: used by ${file}, outside clients/shopify`);
    const executors = counted.filter((f) => f.startsWith(SHOPIFY));
    if (executors.length > 1) problems.push(`${name}: run by ${executors.join(', ')}, not one function`);
    for (const file of allowed)
      if (!users.includes(file)) problems.push(`${name}: ${file} is listed as an exception, but needs none`);
  }
  return problems;
}
