import { timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { ShopifySandboxConfig } from '../config/shopify-sandbox.config.js';
import { ShopifyErrorCode, ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import { SANDBOX_CONFIG } from '../shopify-sandbox.tokens.js';

export const CONTROL_TOKEN_HEADER = 'X-Sandbox-Control-Token';

/** The control API (no Shopify equivalent) requires `X-Sandbox-Control-Token`. */
@Injectable()
export class ControlTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(SANDBOX_CONFIG) config: ShopifySandboxConfig) {
    this.expected = Buffer.from(config.controlToken);
  }

  canActivate(context: ExecutionContext): boolean {
    const given = Buffer.from(
      context.switchToHttp().getRequest<Request>().header(CONTROL_TOKEN_HEADER) ?? '',
    );
    if (given.length === this.expected.length && timingSafeEqual(given, this.expected)) return true;
    throw new ShopifySandboxError(
      ShopifyErrorCode.UNAUTHORIZED,
      `Invalid or missing ${CONTROL_TOKEN_HEADER} header`,
    );
  }
}
