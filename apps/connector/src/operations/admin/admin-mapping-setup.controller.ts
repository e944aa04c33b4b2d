import { Body, Controller, HttpCode, Param, Post, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { AdminMappingBodyInterceptor } from './admin-mapping-body.interceptor.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { MappingDrafts } from './mapping-drafts.service.js';
import { MappingEvaluations } from './mapping-evaluations.service.js';
import {
  MappingDraftBody,
  MappingDraftDto,
  MappingEvaluationBody,
  MappingEvaluationDto,
} from './mapping-setup.dto.js';

const SHOP = ApiParam({
  name: 'shop',
  description: 'The shop (`<name>.myshopify.com`).',
  schema: { type: 'string' },
});

/**
 * Why: a mapping for a real store, before anything syncs (issue 43): `mapping/draft` writes a
 * starting mapping from the shop and the catalog account (what `connector mapping init` saves),
 * `mapping/evaluation` tries a mapping on a sample of the shop's products and says how many
 * could not be enriched and why (what `connector check-config --shop` reports). Both only read.
 */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@ApiConnectorErrors(401, 429, 503)
@Controller('admin/shops')
@UseGuards(AdminTokenGuard)
@UseInterceptors(AdminMappingBodyInterceptor)
export class AdminMappingSetupController {
  constructor(
    private readonly drafts: MappingDrafts,
    private readonly evaluations: MappingEvaluations,
  ) {}

  @Post(':shop/mapping/draft')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'draftShopMapping',
    summary:
      "A starting mapping file for the shop, drafted from the catalog account and the shop's products, with what is left to decide",
    description:
      "Reads the account's attributes and taxonomy, the shop's first products by id (`products`, default 250: product types, options and their values, in pages of 100 at 302 points) and its product and variant metafield definitions (the first 100 of each). Maps title, vendor (default Unbranded), description, price, compare-at price and barcode (gtin, and productModel from the first variant) into the account's attributes of those names, each product type to the leaf category whose name agrees (case, spaces and plural aside), each option and metafield definition to the attribute whose key or name agrees. What names cannot settle (a type naming a category that is not a leaf, or none; an option or value with no equivalent; a required attribute nothing feeds) is a decision, listed with its candidates and marked TODO in the file. `problems`: the file checked against the account as at boot (empty: it loads as written). Nothing is written. 400: the shop has no catalog key; 503 catalog_unavailable or shopify_unavailable: a read failed.",
  })
  @SHOP
  @ApiOkResponse({ type: MappingDraftDto })
  @ApiConnectorErrors(400, 404)
  draft(@Param('shop') shop: string, @Body() body: MappingDraftBody): Promise<MappingDraftDto> {
    return this.drafts.draft(shop, body.products);
  }

  @Post(':shop/mapping/evaluation')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'evaluateShopMapping',
    summary:
      "A mapping tried on the shop's products before anything syncs: how many could not be (fully) enriched, and why",
    description:
      "The mapping sent (`mapping`: the file's text; checked against the account as at boot, 400 with `details.problems` when refused) or the shop's configured one. Reads the shop's products as a sync would (the searches of the mapping's scope and the synced statuses, then each product's canonical read), up to `products` in scope (default 50), and plans each as its first sync through the sync's planner: its mapping gaps, in the words and grouped by the reasons of `GET /admin/mapping-gaps`, with `sync-failure` for a product that would not sync at all. Dry: nothing is sent to the catalog, stored or enqueued.",
  })
  @SHOP
  @ApiOkResponse({ type: MappingEvaluationDto })
  @ApiConnectorErrors(400, 404, 413)
  evaluate(@Param('shop') shop: string, @Body() body: MappingEvaluationBody): Promise<MappingEvaluationDto> {
    return this.evaluations.evaluate(shop, body);
  }
}
