import type { Request } from 'express';
import type { AdminSessionInfo } from './admin-session.service.js';

const FORM_LIMIT_BYTES = 16 * 1024;

/** An `/admin/ui` request once the session guard has read it. */
export interface UiRequest extends Request {
  uiSession?: AdminSessionInfo;
  uiForm?: Record<string, string>;
}

/** One cookie's value from the `Cookie` header (the first of that name). */
export function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.header('cookie') ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

/**
 * Reads an `application/x-www-form-urlencoded` body (the connector parses no body globally: the
 * webhook door needs the raw bytes). At most 16 KiB; anything else is an empty form.
 */
export async function readForm(req: Request): Promise<Record<string, string>> {
  const type = req.header('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded')) return {};
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT_BYTES) return {};
    chunks.push(chunk);
  }
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

/** A list's time filter: the last 1 to 720 hours, 24 by default. */
export function hoursOf(hours: string | undefined): number {
  return Math.min(720, Math.max(1, Number.parseInt(hours ?? '24', 10) || 24));
}
