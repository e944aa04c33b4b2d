import type { Request } from 'express';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { readAdminJson } from './admin-json-body.js';

/**
 * Why: the run routes (`POST /admin/resync`, `POST /admin/reconcile`) take their parameters from
 * the query string or a JSON body alike (the query wins); a name not in `allowed` is a 400
 * naming it.
 */
export async function parameters(
  query: Record<string, unknown>,
  req: Request,
  allowed: readonly string[],
): Promise<Record<string, unknown>> {
  const hasBody =
    Number(req.header('content-length') ?? 0) > 0 || req.header('transfer-encoding') !== undefined;
  const body = hasBody ? await readAdminJson(req) : {};
  const given = { ...body, ...query };
  const unknown = Object.keys(given).filter((name) => !allowed.includes(name));
  if (unknown.length > 0) throw invalid(unknown[0] as string, `Unknown parameter ${unknown.join(', ')}.`);
  return given;
}

/** `dryRun`: true or false (a boolean in a body, a string in a query); absent: false. */
export function dryRunOf(given: Record<string, unknown>): boolean {
  const dryRun = given.dryRun ?? false;
  if (![true, false, 'true', 'false'].includes(dryRun as string | boolean))
    throw invalid('dryRun', 'dryRun must be true or false.');
  return dryRun === true || dryRun === 'true';
}

function invalid(parameter: string, message: string): ConnectorError {
  return new ConnectorError(ConnectorErrorCode.BAD_REQUEST, message, { parameter });
}
