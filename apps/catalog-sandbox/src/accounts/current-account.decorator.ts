import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { SandboxRequest } from '../http/sandbox-request.js';
import type { Account } from './account.js';

/** The account the request's API key belongs to (set by ApiKeyGuard). */
export const CurrentAccount = createParamDecorator((_: unknown, context: ExecutionContext): Account => {
  const req = context.switchToHttp().getRequest<SandboxRequest>();
  if (!req.catalog) throw new Error('CurrentAccount used on a route without ApiKeyGuard');
  return req.catalog.account;
});
