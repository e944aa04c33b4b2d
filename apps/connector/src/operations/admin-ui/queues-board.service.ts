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

/** bull-board's page loads its fonts from Google's CDN: left out (the system fonts serve). */
const EXTERNAL_FONTS = /<link[^>]+href="https:\/\/fonts\.(?:googleapis|gstatic)\.com[^"]*"[^>]*>\s*/g;

/**
 * The queues view's policy: everything from this origin (bull-board's scripts, styles, API), so
 * the page makes no external request (it works offline, and leaks nothing of who looks).
 */
const QUEUES_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

/** A way back to the web view, outside bull-board's own (React) root, so always shown. */
const BACK_LINK =
  '<a href="/admin/ui" style="position:fixed;right:1rem;bottom:1rem;z-index:1000;padding:.4rem .8rem;background:#fff;color:#0b4f9c;border:1px solid #0b4f9c;border-radius:4px;font:14px sans-serif">Back to the web view</a>\n';

/** Serves bull-board's HTML page without its external font link and with `BACK_LINK`, under `QUEUES_CSP`. */
function keepLocal(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', QUEUES_CSP);
  const send = res.send.bind(res);
  res.send = (body?: unknown) =>
    send(
      typeof body === 'string' && body.includes('<div id="root">')
        ? body.replace(EXTERNAL_FONTS, '').replace('<div id="root">', `${BACK_LINK}<div id="root">`)
        : body,
    );
  next();
}

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
      keepLocal,
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
      options: {
        uiConfig: {
          boardTitle: 'connector queues',
          // The way back to the web view; no link out to bull-board's own site.
          miscLinks: [{ text: 'Back to the web view', url: '/admin/ui' }],
          hideDocsLink: true,
        },
      },
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
