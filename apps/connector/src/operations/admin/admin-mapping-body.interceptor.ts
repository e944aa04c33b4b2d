import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { readAdminJson } from './admin-json-body.js';
import { MAX_MAPPING_BYTES } from './mapping-setup.dto.js';

/**
 * Why: a mapping file sent to be evaluated is larger than the 16 KiB the other admin bodies may
 * be (a real catalog's value maps); this reads the body of the mapping routes as
 * `AdminJsonBodyInterceptor` does, up to twice the mapping's limit (its escapes in JSON).
 */
@Injectable()
export class AdminMappingBodyInterceptor implements NestInterceptor {
  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<Request>();
    const hasBody =
      Number(req.header('content-length') ?? 0) > 0 || req.header('transfer-encoding') !== undefined;
    req.body = hasBody ? await readAdminJson(req, 2 * MAX_MAPPING_BYTES) : {};
    return next.handle();
  }
}
