import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { AccountRegistry } from '../accounts/account.registry.js';
import { ok } from '../http/envelope.js';
import { PortalTokenGuard } from '../portal/portal-token.guard.js';
import { describeRun } from './enrichment-run.js';
import { EnrichmentRunner } from './enrichment-runner.js';
import { parseRunBody } from './run-body.js';

/** Enrichment, which the real service starts in its portal (README, "Enrichment runs"). */
@Controller('portal/v1/accounts/:id/enrichment/runs')
@UseGuards(PortalTokenGuard)
export class EnrichmentRunsController {
  constructor(
    private readonly registry: AccountRegistry,
    private readonly runner: EnrichmentRunner,
  ) {}

  /** Body `{skuIds, mode?: "auto" | "manual", batchSize?}`. */
  @Post()
  @HttpCode(200)
  start(@Param('id') id: string, @Body() body: unknown) {
    const run = this.runner.start(this.registry.require(id), parseRunBody(body));
    return ok(describeRun(run, true));
  }

  @Get()
  list(@Param('id') id: string) {
    return ok({ runs: this.runner.list(this.registry.require(id)).map((r) => describeRun(r, false)) });
  }

  @Get(':runId')
  get(@Param('id') id: string, @Param('runId') runId: string) {
    return ok(describeRun(this.runner.get(this.registry.require(id), runId), true));
  }

  @Post(':runId/step')
  @HttpCode(200)
  async step(@Param('id') id: string, @Param('runId') runId: string) {
    return ok(describeRun(await this.runner.stepManual(this.registry.require(id), runId), true));
  }
}
