import type { Request } from 'express';
import type { Account } from '../accounts/account.js';
import type { ApiKey } from '../accounts/api-key.js';

/** An Express request as the sandbox's middleware and guards leave it. */
export interface SandboxRequest extends Request {
  /** Set by the API-key guard on authenticated `/v1` calls. */
  catalog?: { account: Account; key: ApiKey };
  /** The raw JSON body, when there was one. */
  rawBody?: Buffer;
  /** Correlation id: the caller's X-Request-Id, or a generated one. */
  requestId?: string;
  /** Epoch ms at arrival (the sandbox clock). */
  receivedAt?: number;
  /** Set by the commit-then-drop fault: answer nothing once the handler succeeded. */
  dropAfterCommit?: boolean;
}
