import { Controller, Get, Param, Post, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock } from '#lib/clock';
import { AdminSettings } from '../../platform/config/settings.js';
import { FailureNotOpenError, FailuresService } from '../../platform/failures/failures.service.js';
import { AuthFailureLimit } from '../../platform/http/auth-failure-limit.service.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { Shops } from '../../shops/shops.js';
import { failureDto } from '../admin/failure.dto.js';
import { failureIdOf } from '../admin/failure-query.js';
import { ConnectorMetrics } from '../metrics/connector-metrics.service.js';
import { AdminSession, SESSION_COOKIE } from './admin-session.service.js';
import { AdminUiFilter } from './admin-ui.filter.js';
import { AdminUiGuard } from './admin-ui.guard.js';
import { UiDisabled, UiSignInRequired } from './ui-errors.js';
import { UiSignInForm } from './ui-forms.dto.js';
import { UiAction, UiPage, UiPathParam, UiQuery, UiSignIn } from './ui-openapi.decorators.js';
import { failuresPage } from './ui-pages.js';
import { UiProductTitles } from './ui-product-titles.service.js';
import { hoursOf, readForm, type UiRequest } from './ui-request.js';
import { csrfOf, sendHtml } from './ui-respond.js';

const STATES = new Set(['open', 'replayed', 'dismissed', 'resolved']);
const FAILURE_ID = UiPathParam('id', { pattern: '^[1-9][0-9]*$' });
const FAILURE_ERRORS = [403, 404, 409];

/**
 * `/admin/ui`: the operators' web view, server-rendered, no script. Signing in posts the admin
 * token once and gets an HttpOnly, SameSite=Strict session cookie (a token in a URL would land
 * in logs and histories); every action is a POST carrying the session's CSRF token. Pages: the
 * failures inbox with replay and dismiss (products: `AdminUiProductController`); the queues (bull-board) are
 * mounted beside, under the same session.
 */
@ApiTags('admin-ui')
@Controller('admin/ui')
@UseFilters(AdminUiFilter)
export class AdminUiController {
  constructor(
    private readonly settings: AdminSettings,
    private readonly shops: Shops,
    private readonly sessions: AdminSession,
    private readonly failures: FailuresService,
    private readonly metrics: ConnectorMetrics,
    private readonly clock: Clock,
    private readonly titles: UiProductTitles,
    private readonly limit: AuthFailureLimit,
  ) {}

  @Get('failures')
  @UseGuards(AdminUiGuard)
  @UiPage({ operationId: 'uiFailures', summary: 'The failures inbox, with replay and dismiss' })
  @UiQuery('state', 'Failures in this state.', { enum: [...STATES] })
  @UiQuery('shop', 'Failures of this shop.')
  @UiQuery('hours', 'Failed last within the last hours (1 to 720; absent: any time).')
  @UiQuery('done', 'The notice after an action: `replayed <id>` or `dismissed <id>`.')
  async failuresInbox(
    @Req() req: UiRequest,
    @Res() res: Response,
    @Query('state') state?: string,
    @Query('done') done?: string,
    @Query('shop') shop?: string,
    @Query('hours') hours?: string,
  ): Promise<void> {
    const shown = state !== undefined && STATES.has(state) ? state : 'open';
    const filter = {
      shop: shop && this.shops.find(shop) ? shop : null,
      hours: hours === undefined || hours === '' ? null : hoursOf(hours),
    };
    const { items, total } = await this.failures.search(
      {
        state: shown as 'open',
        ...(filter.shop ? { shop: filter.shop } : {}),
        ...(filter.hours ? { since: new Date(this.clock.now() - filter.hours * 3_600_000) } : {}),
      },
      { limit: 200, offset: 0 },
    );
    const notice =
      done === undefined
        ? null
        : /^(replayed|dismissed) \d{1,19}$/.test(done)
          ? `Failure ${done.split(' ')[1]} ${done.split(' ')[0]}.`
          : null;
    const shops = this.shops.all.map((s) => s.domain);
    const titles = await this.titles.of(items.map((f) => ({ shop: f.shop, productId: f.subjectKey })));
    const context = { now: this.clock.now(), titles };
    sendHtml(
      res,
      200,
      failuresPage(items.map(failureDto), total, shown, notice, csrfOf(req), { ...filter, shops }, context),
    );
  }

  /**
   * The token in a form body, never a URL; right: a session cookie and back to the inbox. A wrong
   * one counts against the client's address (`AuthFailureLimit`: then the sign-in page, 429).
   */
  @Post('login')
  @UiSignIn({
    operationId: 'uiSignIn',
    summary:
      'Sign in with the admin token (form body, never the URL): sets the HttpOnly, SameSite=Strict session cookie',
    errors: [401, 429, 503],
    form: UiSignInForm,
  })
  async login(@Req() req: UiRequest, @Res() res: Response): Promise<void> {
    if (!this.sessions.enabled) throw new UiDisabled();
    const client = this.limit.admit(req, 'sign-in');
    const form = await readForm(req);
    if (typeof form.token !== 'string' || !this.sessions.tokenMatches(form.token)) {
      this.limit.failed(client, req, 'sign-in');
      throw new UiSignInRequired('That is not the admin token.');
    }
    const session = this.sessions.open();
    res.cookie(SESSION_COOKIE, session.value, {
      httpOnly: true,
      sameSite: 'strict',
      secure: req.secure,
      path: '/admin/ui',
      maxAge: this.settings.uiSessionTtlMs,
    });
    res.redirect(303, '/admin/ui');
  }

  @Post('logout')
  @UseGuards(AdminUiGuard)
  @UiAction({
    operationId: 'uiSignOut',
    summary: 'Sign out (clears the session cookie)',
    answer: 303,
    errors: [403, 404, 409],
  })
  logout(@Res() res: Response): void {
    res.clearCookie(SESSION_COOKIE, { path: '/admin/ui', httpOnly: true, sameSite: 'strict' });
    res.redirect(303, '/admin/ui');
  }

  @Post('failures/:id/replay')
  @UseGuards(AdminUiGuard)
  @UiAction({
    operationId: 'uiReplayFailure',
    summary: 'Replay an open failure',
    answer: 303,
    errors: FAILURE_ERRORS,
  })
  @FAILURE_ID
  async replay(@Param('id') id: string, @Res() res: Response): Promise<void> {
    const failure = await this.failures.replay(failureIdOf(id)).catch(notOpen(id));
    this.metrics.failureResolved(failure.jobKind, 'replayed');
    res.redirect(303, `/admin/ui/failures?done=${encodeURIComponent(`replayed ${failure.id}`)}`);
  }

  @Post('failures/:id/dismiss')
  @UseGuards(AdminUiGuard)
  @UiAction({
    operationId: 'uiDismissFailure',
    summary: 'Dismiss an open failure',
    answer: 303,
    errors: FAILURE_ERRORS,
  })
  @FAILURE_ID
  async dismiss(@Param('id') id: string, @Res() res: Response): Promise<void> {
    const failure = await this.failures.dismiss(failureIdOf(id)).catch(notOpen(id));
    this.metrics.failureResolved(failure.jobKind, 'dismissed');
    res.redirect(303, `/admin/ui/failures?done=${encodeURIComponent(`dismissed ${failure.id}`)}`);
  }
}

/** A failure already resolved (or unknown) as a connector error the UI shows. */
function notOpen(id: string) {
  return (error: unknown): never => {
    if (error instanceof ConnectorError) throw error;
    if (error instanceof FailureNotOpenError) {
      throw new ConnectorError(
        ConnectorErrorCode.FAILURE_NOT_OPEN,
        `Failure ${id} is not open any more.`,
        {},
      );
    }
    throw error;
  };
}
