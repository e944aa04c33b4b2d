import { describe, expect, it } from 'vitest';
import { nameProblem, resolveNamespace, SANDBOX_APP_ID } from './metafield-namespace.js';

describe('metafield namespaces and keys', () => {
  it('resolves $app to this app’s reserved namespace', () => {
    expect(resolveNamespace(undefined)).toBe(`app--${SANDBOX_APP_ID}`);
    expect(resolveNamespace('$app')).toBe('app--5717453');
    expect(resolveNamespace('$app:reviews')).toBe('app--5717453--reviews');
    expect(resolveNamespace('custom')).toBe('custom');
  });

  it('accepts 3-255 character namespaces and 2-64 character keys of letters, digits, - and _', () => {
    for (const [namespace, key] of [
      ['custom', 'material'],
      ['abc', 'ab'],
      ['my-app_data', 'fit-2'],
      ['n'.repeat(255), 'k'.repeat(64)],
      [resolveNamespace('$app:reviews'), 'score'],
    ]) {
      expect(nameProblem(namespace, key), `${namespace}.${key}`).toBeUndefined();
    }
  });

  it('refuses bad lengths and characters with Shopify’s codes', () => {
    expect(nameProblem('ab', 'key')).toEqual({
      field: 'namespace',
      code: 'TOO_SHORT',
      message: 'Namespace is too short (minimum is 3 characters)',
    });
    expect(nameProblem('n'.repeat(256), 'key')).toMatchObject({ field: 'namespace', code: 'TOO_LONG' });
    expect(nameProblem('my space', 'key')).toMatchObject({ field: 'namespace', code: 'INVALID' });
    expect(nameProblem('custom', 'k')).toEqual({
      field: 'key',
      code: 'TOO_SHORT',
      message: 'Key is too short (minimum is 2 characters)',
    });
    expect(nameProblem('custom', 'k'.repeat(65))).toMatchObject({ field: 'key', code: 'TOO_LONG' });
    expect(nameProblem('custom', 'ma.terial')).toMatchObject({ field: 'key', code: 'INVALID' });
  });

  it('refuses shopify and other apps’ namespaces with APP_NOT_AUTHORIZED', () => {
    for (const namespace of ['shopify', 'app--123', 'app--123--reviews']) {
      expect(nameProblem(namespace, 'key'), namespace).toEqual({
        field: 'namespace',
        code: 'APP_NOT_AUTHORIZED',
        message: 'Access to this namespace and key on Metafields for this resource type is not allowed.',
      });
    }
    expect(nameProblem('app--5717453', 'key')).toBeUndefined();
    expect(nameProblem('shopify_extras', 'key')).toBeUndefined();
  });
});
