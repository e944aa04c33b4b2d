import { getQueueToken } from '@nestjs/bullmq';
import { Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Queue } from 'bullmq';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import { CatalogGate } from '../../clients/catalog/catalog-gate.service.js';
import { catalogKeyShops } from '../../clients/catalog/catalog-key-shops.js';
import { ALL_SHOPS } from '../../clients/catalog/sync-pause.entity.js';
import { SyncPauses } from '../../clients/catalog/sync-pauses.service.js';
import { CatalogSettings } from '../../platform/config/settings.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { ALL_QUEUES } from '../../platform/queues/queue-names.js';
import { Shops } from '../../shops/shops.js';
import { WriteBackStatus } from '../../write-back/write-back-status.service.js';
import { CatalogCallWindow } from '../metrics/catalog-call-window.service.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import {
  OperationsViewDto,
  SyncPauseQuery,
  SyncPausesDto,
  SyncResumeDto,
  SyncScopeQuery,
} from './operations-view.dto.js';

/** `prioritized` is BullMQ's waiting job with a priority (a shop's turn: `ShopLanes`): counted as waiting. */
const QUEUE_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed'] as const;

/**
 * Pausing and resuming syncing (persisted; the sync job's gate honours it on every replica) and
 * the queue and budget view: queue depths, each shop's paused state and why, catalog calls in
 * the last minute against the budget, the enrichment stage's progress.
 */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@ApiConnectorErrors(401, 429, 503)
@Controller('admin')
@UseGuards(AdminTokenGuard)
export class AdminSyncController {
  constructor(
    private readonly settings: CatalogSettings,
    private readonly shops: Shops,
    private readonly pauses: SyncPauses,
    private readonly gate: CatalogGate,
    private readonly catalogs: CatalogClients,
    private readonly window: CatalogCallWindow,
    private readonly writeBack: WriteBackStatus,
    private readonly moduleRef: ModuleRef,
  ) {}

  /**
   * Pauses one shop's syncing (`shop`), every shop using one catalog key (`catalogKey`: its
   * account id `<baseUrl>#<fingerprint>` or the fingerprint, as `GET /admin/queues` lists it), or
   * every shop's (neither); `reason` is shown in the view. A catalog key's pause is stored as one
   * pause per shop on it (reason prefixed with the key), so the sync gate needs no new rule and
   * a shop can be resumed alone; a shop given that key later is not paused by it.
   */
  @Post('sync/pause')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'pauseSync',
    summary:
      "Pause one shop's syncing, every shop's on a catalog key, or every shop's (persisted; jobs wait, no attempt spent)",
  })
  @ApiOkResponse({ type: SyncPausesDto })
  @ApiConnectorErrors(400)
  async pause(@Query() query: SyncPauseQuery): Promise<SyncPausesDto> {
    const scopes = this.scopesOf(query);
    const given = query.reason ? query.reason.slice(0, 500) : 'paused by an operator';
    const reason =
      query.catalogKey !== undefined ? `catalog key ${query.catalogKey}: ${given}`.slice(0, 500) : given;
    for (const scope of scopes) await this.pauses.pause(scope, reason);
    return { shops: scopes.filter((scope) => scope !== ALL_SHOPS), pauses: this.pauses.all() };
  }

  /** Lifts the pause of one shop (`shop`), of every shop on a catalog key (`catalogKey`), or the all-shops pause. */
  @Post('sync/resume')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'resumeSync',
    summary: 'Lift the pause of one shop, of every shop on a catalog key, or the every-shop pause',
  })
  @ApiOkResponse({ type: SyncResumeDto })
  @ApiConnectorErrors(400)
  async resume(@Query() query: SyncScopeQuery): Promise<SyncResumeDto> {
    const scopes = this.scopesOf(query);
    const resumed: string[] = [];
    for (const scope of scopes) if (await this.pauses.resume(scope)) resumed.push(scope);
    return {
      resumed: resumed.length > 0,
      shops: resumed.filter((scope) => scope !== ALL_SHOPS),
      pauses: this.pauses.all(),
    };
  }

  @Get('queues')
  @ApiOperation({
    operationId: 'getQueueView',
    summary:
      'Jobs per queue and state, paused shops and why, catalog calls in the last minute against the budget, enrichment progress',
  })
  @ApiOkResponse({ type: OperationsViewDto })
  async view(): Promise<OperationsViewDto> {
    const queues = await Promise.all(
      ALL_QUEUES.map(async (name) => {
        const queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
        const [counts, paused] = await Promise.all([queue.getJobCounts(...QUEUE_STATES), queue.isPaused()]);
        return {
          name,
          waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
          active: counts.active ?? 0,
          delayed: counts.delayed ?? 0,
          failed: counts.failed ?? 0,
          paused,
        };
      }),
    );
    const budgetPerMinute = Math.floor(this.settings.ratePerSecond * 60);
    return {
      queues,
      shops: this.shops.all.map((shop) => ({ shop: shop.domain, ...this.gate.pauseState(shop.domain) })),
      pauses: this.pauses.all(),
      catalog: this.catalogs.all().map((account) => ({
        account: account.id,
        shops: account.shops,
        breaker: account.client.breaker.state,
        callsLastMinute: this.window.lastMinute(account.id),
        budgetPerMinute,
      })),
      enrichment: await this.writeBack.enrichmentStatus(),
    };
  }

  private scopesOf(query: SyncScopeQuery): string[] {
    if (query.catalogKey !== undefined) {
      if (query.shop !== undefined) throw invalid('catalogKey', 'Give shop or catalogKey, not both.');
      const shops = catalogKeyShops(this.shops, this.catalogs, query.catalogKey);
      if (shops.length === 0)
        throw invalid('catalogKey', 'catalogKey must be the catalog key of a shop this connector serves.');
      return shops;
    }
    if (query.shop === undefined) return [ALL_SHOPS];
    const shop = this.shops.find(query.shop);
    if (!shop) throw invalid('shop', 'shop must be a shop this connector serves.');
    return [shop.domain];
  }
}

function invalid(parameter: string, message: string): ConnectorError {
  return new ConnectorError(ConnectorErrorCode.BAD_REQUEST, message, { parameter });
}
