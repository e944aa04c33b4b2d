import { readFileSync } from 'node:fs';
import type { Env, EnvReader } from '#lib/config';
import { Secret } from './secret.js';

/** Reads a secret file's text; injectable so tests need no files. */
export type SecretFileReader = (path: string) => string;

export const readSecretFile: SecretFileReader = (path) => readFileSync(path, 'utf8');

/**
 * Reads a secret from `NAME` or from the file named by `NAME_FILE` (Docker and Kubernetes
 * secrets), never both. The file's trailing newline is dropped. Problems name the variable,
 * never the value.
 */
export function readSecret(
  read: EnvReader,
  env: Env,
  name: string,
  readFile: SecretFileReader,
): Secret | undefined {
  const direct = nonEmpty(env[name]);
  const file = nonEmpty(env[`${name}_FILE`]);
  if (direct !== undefined && file !== undefined) {
    read.problems.push(`${name} and ${name}_FILE are both set; set only one`);
    return undefined;
  }
  if (direct !== undefined) return new Secret(direct);
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = readFile(file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    read.problems.push(`${name}_FILE names a file that cannot be read (${reason}): ${file}`);
    return undefined;
  }
  const value = text.replace(/\r?\n$/, '');
  if (value === '') {
    read.problems.push(`${name}_FILE names an empty file: ${file}`);
    return undefined;
  }
  return new Secret(value);
}

/** A list of secrets (comma- or newline-separated), e.g. webhook secrets during a rotation. */
export function readSecretList(
  read: EnvReader,
  env: Env,
  name: string,
  readFile: SecretFileReader,
): Secret[] | undefined {
  const joined = readSecret(read, env, name, readFile);
  if (joined === undefined) return undefined;
  const parts = joined
    .reveal()
    .split(/[\n,]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length === 0) {
    read.problems.push(`${name} holds no secret`);
    return undefined;
  }
  return parts.map((part) => new Secret(part));
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
