import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { type Observable, tap } from 'rxjs';
import { Clock } from '#lib/clock';
import { ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import type { ShopRequest } from './admin-access.guard.js';
import { outcomeOf } from './admin-request-log.js';

/** Records merchant REST calls in the shop's Admin request log (`api: "rest"`). */
@Injectable()
export class RestRequestLogInterceptor implements NestInterceptor {
  constructor(private readonly clock: Clock) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<ShopRequest>();
    const response = context.switchToHttp().getResponse<Response>();
    const record = (httpStatus: number) =>
      request.shop?.adminRequests.add({
        at: new Date(this.clock.now()).toISOString(),
        api: 'rest',
        method: request.method,
        path: request.path,
        operationType: null,
        operationName: null,
        rootFields: [],
        variables: null,
        outcome: outcomeOf(httpStatus),
        httpStatus,
        requestedQueryCost: null,
        actualQueryCost: null,
      });
    return next.handle().pipe(
      tap({
        next: () => record(response.statusCode),
        error: (error: unknown) => record(error instanceof ShopifySandboxError ? error.status : 500),
      }),
    );
  }
}
