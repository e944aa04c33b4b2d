import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { mergeMap, NEVER, type Observable } from 'rxjs';
import type { SandboxRequest } from '../http/sandbox-request.js';

/**
 * The "commit then drop" fault: once the handler has succeeded (the write is done), cut the
 * connection instead of answering. The client sees a dropped connection after a committed
 * write: the ambiguous failure it must survive without creating duplicates.
 */
@Injectable()
export class DropAfterCommitInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<SandboxRequest>();
    if (!req.dropAfterCommit) return next.handle();
    return next.handle().pipe(
      mergeMap(() => {
        req.socket.destroy();
        return NEVER;
      }),
    );
  }
}
