import type { Env, EnvReader } from '#lib/config';
import type { Secret } from './secret.js';
import { readSecret, type SecretFileReader } from './secret-reader.js';

/** Shortest admin token accepted: a guessable token guards nothing. */
export const ADMIN_TOKEN_MIN_LENGTH = 16;

/** The operators' API and web view. */
export interface AdminConfig {
  /** Bearer token of `/admin`; null: every admin route answers 503 `admin_disabled` (never open). */
  token: Secret | null;
  /** Lifetime of an `/admin/ui` session (the cookie set by signing in with the token). */
  uiSessionTtlMs: number;
  /**
   * Failed sign-ins and wrong bearer tokens one client address may make within
   * `authFailureWindowMs`; then 429 until the oldest leaves the window (per process).
   */
  authFailureLimit: number;
  authFailureWindowMs: number;
}

/** `CONNECTOR_ADMIN_TOKEN` (or `_FILE`), `CONNECTOR_ADMIN_UI_SESSION_TTL_MS`, `CONNECTOR_AUTH_FAILURE_*`. */
export function readAdmin(read: EnvReader, env: Env, readFile: SecretFileReader): AdminConfig {
  return {
    token: readAdminToken(read, env, readFile),
    uiSessionTtlMs: read.int('CONNECTOR_ADMIN_UI_SESSION_TTL_MS', 8 * 3_600_000, { min: 1_000 }),
    authFailureLimit: read.int('CONNECTOR_AUTH_FAILURE_LIMIT', 10, { min: 1 }),
    authFailureWindowMs: read.int('CONNECTOR_AUTH_FAILURE_WINDOW_MS', 60_000, { min: 1_000 }),
  };
}

/** `CONNECTOR_ADMIN_TOKEN` (or `_FILE`): optional, but never shorter than `ADMIN_TOKEN_MIN_LENGTH`. */
function readAdminToken(read: EnvReader, env: Env, readFile: SecretFileReader): Secret | null {
  const token = readSecret(read, env, 'CONNECTOR_ADMIN_TOKEN', readFile) ?? null;
  if (token !== null && token.reveal().length < ADMIN_TOKEN_MIN_LENGTH) {
    read.problems.push(`CONNECTOR_ADMIN_TOKEN must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters long`);
  }
  return token;
}
