import { timingSafeEqual } from 'node:crypto';
import {
  type CanActivate,
  type ExecutionContext,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
} from '@nestjs/common';
import type { Request } from 'express';
import { SANDBOX_CONFIG } from '../config/sandbox-config.token.js';
import type { ShopifySandboxConfig } from '../config/shopify-sandbox.config.js';

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
    throw new HttpException(
      { errors: `Invalid or missing ${CONTROL_TOKEN_HEADER} header` },
      HttpStatus.UNAUTHORIZED,
    );
  }
}
