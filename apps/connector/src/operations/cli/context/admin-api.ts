import type { Secret } from '../../../platform/config/secret.js';
import { CliError, ExitCode } from './cli-error.js';

/** Query parameters of an admin call; undefined ones are left out. */
export type AdminQuery = Record<string, string | number | boolean | undefined>;

interface ErrorBody {
  error?: { code?: string; message?: string; details?: Record<string, unknown>; hint?: string };
}

/**
 * The connector's admin API (`/admin`, bearer `CONNECTOR_ADMIN_TOKEN`) as the command line calls
 * it. Every refusal becomes a `CliError` carrying the API's own error message and code (a 400 is
 * a usage error, exit 2); a connector that cannot be reached says where it was looked for. The
 * token is only ever sent, never printed.
 */
export class AdminApi {
  constructor(
    readonly baseUrl: string,
    private readonly token: Secret | null,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  get<T>(path: string, query: AdminQuery = {}): Promise<T> {
    return this.call<T>('GET', path, query);
  }

  post<T>(path: string, query: AdminQuery = {}): Promise<T> {
    return this.call<T>('POST', path, query);
  }

  /** `POST path` with a JSON body (a route that reads its choice from the body: drift repairs). */
  postJson<T>(path: string, body: Record<string, unknown>): Promise<T> {
    return this.call<T>('POST', path, {}, body);
  }

  /** `DELETE path` (a 204 answers `{}`). */
  delete<T>(path: string): Promise<T> {
    return this.call<T>('DELETE', path, {});
  }

  /** `PUT path` with a JSON body (a secret in it is sent, never printed). */
  put<T>(path: string, body: Record<string, unknown>): Promise<T> {
    return this.call<T>('PUT', path, {}, body);
  }

  private async call<T>(
    method: string,
    path: string,
    query: AdminQuery,
    body?: Record<string, unknown>,
  ): Promise<T> {
    if (this.token === null) {
      throw new CliError(
        'CONNECTOR_ADMIN_TOKEN (or CONNECTOR_ADMIN_TOKEN_FILE) is not set: the admin API cannot be called.',
      );
    }
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    let response: Response;
    try {
      response = await this.fetchFn(url, {
        method,
        headers: {
          Authorization: `Bearer ${this.token.reveal()}`,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
    } catch (error) {
      const cause = causeOf(error);
      throw new CliError(`cannot reach the connector at ${this.baseUrl} (${cause}): is it running? (--url)`);
    }
    const text = await response.text();
    let answer: unknown;
    try {
      answer = text === '' ? {} : JSON.parse(text);
    } catch {
      answer = undefined;
    }
    if (response.ok && answer !== undefined) return answer as T;
    const error = (answer as ErrorBody | undefined)?.error;
    const message = error?.message ?? `${method} ${url.pathname} answered ${response.status}`;
    const code = error?.code ? ` (${error.code}, HTTP ${response.status})` : ` (HTTP ${response.status})`;
    // The API's next step, when its code has one (the causes table's words).
    const hint = error?.hint ? `\n  next: ${error.hint}` : '';
    throw new CliError(
      `${message}${code}${hint}`,
      response.status === 400 ? ExitCode.USAGE : ExitCode.FAILURE,
    );
  }
}

/** The network error's code (`ECONNREFUSED`, ...) under fetch's "fetch failed". */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string; errors?: Array<{ code?: string }> } })
    .cause;
  return cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (error as Error).message;
}
