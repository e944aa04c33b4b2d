/** The id the sandbox gives the one app that talks to it, for app-reserved metafield namespaces. */
export const SANDBOX_APP_ID = 5_717_453;

/** `$app` → `app--5717453`, `$app:reviews` → `app--5717453--reviews`; absent means `$app`. */
export function resolveNamespace(namespace: string | null | undefined): string {
  const given = namespace ?? '$app';
  if (given === '$app') return `app--${SANDBOX_APP_ID}`;
  if (given.startsWith('$app:')) return `app--${SANDBOX_APP_ID}--${given.slice('$app:'.length)}`;
  return given;
}
