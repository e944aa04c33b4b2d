import { getQueueToken } from '@nestjs/bullmq';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ALL_QUEUES } from '../../platform/queues/queue-names.js';
import { AdminUiGuard } from './admin-ui.guard.js';
import { UiDisabled } from './ui-errors.js';
import { page, signInPage } from './ui-html.js';

/** Where bull-board is served. */
export const QUEUES_PATH = '/admin/ui/queues';

/**
 * The queues view: bull-board (a maintained BullMQ dashboard) over every queue, on Redis or on
 * BullMQ's PostgreSQL backend alike, mounted at `/admin/ui/queues` behind the UI's session
 * cookie. Read-only: its own actions (retry, clean, pause) would be POSTs without the UI's
 * CSRF token, so they are off and refused; replays go through the failures inbox. bull-board
 * (with its validation, templating and lodash) is loaded on the view's first request, not at
 * boot: most processes never serve it, and its code held memory in every one.
 */
@Injectable()
export class QueuesBoard implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly moduleRef: ModuleRef,
    private readonly guard: AdminUiGuard,
  ) {}

  private board: Promise<RequestHandler> | null = null;

  onModuleInit(): void {
    const express = this.adapterHost.httpAdapter.getInstance<{
      use(path: string, ...handlers: unknown[]): void;
    }>();
    express.use(
      QUEUES_PATH,
      (req: Request, res: Response, next: NextFunction) => this.admit(req, res, next),
      (req: Request, res: Response, next: NextFunction) => {
        this.board ??= this.build();
        this.board.then((router) => router(req, res, next), next);
      },
    );
  }

  /** bull-board's router over every queue (loaded once, on first use). */
  private async build(): Promise<RequestHandler> {
    const [{ createBullBoard }, { BullMQAdapter }, { ExpressAdapter }] = await Promise.all([
      import('@bull-board/api'),
      import('@bull-board/api/bullMQAdapter'),
      import('@bull-board/express'),
    ]);
    const serverAdapter = new ExpressAdapter();
    serverAdapter.setBasePath(QUEUES_PATH);
    createBullBoard({
      queues: ALL_QUEUES.map(
        (name) =>
          new BullMQAdapter(this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }), {
            readOnlyMode: true,
            allowRetries: false,
          }),
      ),
      // @bull-board/express pins its own copy of @bull-board/api (a patch version apart): same shape.
      serverAdapter: serverAdapter as unknown as Parameters<typeof createBullBoard>[0]['serverAdapter'],
      options: { uiConfig: { boardTitle: 'connector queues' } },
    });
    return serverAdapter.getRouter() as RequestHandler;
  }

  /** A valid session, and reading only; else the sign-in page (401), 405, or 503. */
  private admit(req: Request, res: Response, next: NextFunction): void {
    try {
      this.guard.sessionOf(req);
    } catch (error) {
      const disabled = error instanceof UiDisabled;
      res
        .status(disabled ? 503 : 401)
        .type('html')
        .setHeader('Cache-Control', 'no-store')
        .end(disabled ? page('Disabled', '<p>The admin UI is disabled.</p>', null) : signInPage(null));
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.status(405).setHeader('Allow', 'GET, HEAD').type('text').end('The queues view is read-only.');
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    next();
  }
}
