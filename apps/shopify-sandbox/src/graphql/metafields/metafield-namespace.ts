import { KEY_LENGTH, METAFIELD_MESSAGES, NAME_CHARACTERS, NAMESPACE_LENGTH } from './metafield-types.data.js';

/**
 * The id the sandbox gives the one app that talks to it (every access token is this app's):
 * `$app` namespaces resolve to `app--5717453`, and other `app--<id>` namespaces belong to
 * other apps.
 */
export const SANDBOX_APP_ID = 5_717_453;

/** `$app` → `app--5717453`, `$app:reviews` → `app--5717453--reviews`; absent means `$app`. */
export function resolveNamespace(namespace: string | null | undefined): string {
  const given = namespace ?? '$app';
  if (given === '$app') return `app--${SANDBOX_APP_ID}`;
  if (given.startsWith('$app:')) return `app--${SANDBOX_APP_ID}--${given.slice('$app:'.length)}`;
  return given;
}

/** A refusal of a namespace or key: the input field, a `MetafieldsSetUserErrorCode` and the message. */
export interface NameProblem {
  field: 'namespace' | 'key';
  code: 'TOO_SHORT' | 'TOO_LONG' | 'INVALID' | 'APP_NOT_AUTHORIZED';
  message: string;
}

/**
 * Checks a resolved namespace and a key: 3-255 and 2-64 characters of letters, digits, `-`
 * and `_`; `shopify` and another app's `app--<id>` namespaces are not this app's to write.
 */
export function nameProblem(namespace: string, key: string): NameProblem | undefined {
  const M = METAFIELD_MESSAGES;
  if (namespace.length < NAMESPACE_LENGTH.min)
    return { field: 'namespace', code: 'TOO_SHORT', message: M.namespaceTooShort };
  if (namespace.length > NAMESPACE_LENGTH.max)
    return { field: 'namespace', code: 'TOO_LONG', message: M.namespaceTooLong };
  if (!NAME_CHARACTERS.test(namespace))
    return { field: 'namespace', code: 'INVALID', message: M.namespaceCharacters };
  if (key.length < KEY_LENGTH.min) return { field: 'key', code: 'TOO_SHORT', message: M.keyTooShort };
  if (key.length > KEY_LENGTH.max) return { field: 'key', code: 'TOO_LONG', message: M.keyTooLong };
  if (!NAME_CHARACTERS.test(key)) return { field: 'key', code: 'INVALID', message: M.keyCharacters };
  if (isReserved(namespace))
    return { field: 'namespace', code: 'APP_NOT_AUTHORIZED', message: M.notAuthorized };
  return undefined;
}

/** `shopify`, or `app--<id>[--...]` of an app other than this one. */
function isReserved(namespace: string): boolean {
  if (namespace === 'shopify') return true;
  const app = /^app--(\d+)(--|$)/.exec(namespace);
  return app !== null && Number(app[1]) !== SANDBOX_APP_ID;
}
