import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { type Observable, tap } from 'rxjs';
import type { WebhookAnswer } from '../../intake/webhook-answer.dto.js';
import { WebhooksController } from '../../intake/webhooks.controller.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import type { ConnectorRequest } from '../../platform/http/request-id.js';
import { ConnectorMetrics } from './connector-metrics.service.js';

/**
 * Counts the door's answers (received, replayed, refused by reason) from outside it, so intake
 * holds no metrics code. Every other route passes through untouched.
 */
@Injectable()
export class WebhookMetricsInterceptor implements NestInterceptor {
  constructor(private readonly metrics: ConnectorMetrics) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getClass() !== WebhooksController) return next.handle();
    const req = context.switchToHttp().getRequest<ConnectorRequest>();
    const topic = req.header('x-shopify-topic');
    return next.handle().pipe(
      tap({
        next: (answer) => {
          const { status } = answer as WebhookAnswer;
          // A collection delivery was taken (a walk asked for or not): counted as accepted.
          this.metrics.webhook(topic, status === 'collection' ? 'accepted' : status);
        },
        error: (error: unknown) =>
          this.metrics.webhookRefused(
            error instanceof ConnectorError ? error.code : ConnectorErrorCode.INTERNAL_ERROR,
          ),
      }),
    );
  }
}
