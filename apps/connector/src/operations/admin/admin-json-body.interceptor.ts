import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { readAdminJson } from './admin-json-body.js';

/**
 * Why: the connector parses no body globally (the webhook door needs the raw bytes); on the admin
 * routes that take a JSON body this reads it (after the admin-token guard, before the validation
 * pipe checks it against the route's `@Body()` DTO). No body at all reads as `{}`.
 */
@Injectable()
export class AdminJsonBodyInterceptor implements NestInterceptor {
  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<Request>();
    const hasBody =
      Number(req.header('content-length') ?? 0) > 0 || req.header('transfer-encoding') !== undefined;
    req.body = hasBody ? await readAdminJson(req) : {};
    return next.handle();
  }
}
