import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { DoctorQuery, DoctorReportDto } from './doctor.dto.js';
import { Doctor } from './doctor.service.js';

/**
 * Why: `connector doctor` (issue 43): whether the deployment can work, checked before the first
 * webhook, each check passing or naming its fix. The web view's shop page shows the same list.
 */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@ApiConnectorErrors(401, 429, 503)
@Controller('admin/doctor')
@UseGuards(AdminTokenGuard)
export class AdminDoctorController {
  constructor(private readonly doctor: Doctor) {}

  @Get()
  @ApiOperation({
    operationId: 'doctor',
    summary:
      "The deployment checked before the first webhook: the public URL over HTTPS, then each shop's token renewal, scopes, webhook subscriptions, catalog key, mapping gaps and clock",
    description:
      "`public-url`: `<CONNECTOR_PUBLIC_URL>/health/live` fetched by its outside name: 200 over HTTPS passes; `http://` warns, a loopback or private name is `unknown` (whether Shopify gets through cannot be told), no answer fails. For each shop (`shop`, else every shop served): `token-renewal` (a static token passes; a granted one is renewed when due and must be live; `needs_reauth` fails), `scopes` (`currentAppInstallation.accessScopes` against read_products, write_products, read_inventory), `webhooks` (every topic the connector needs subscribed at `<public URL>/webhooks/shopify`), `catalog-key` (a write probe that writes nothing: `PATCH /v1/products` without a supplierSku, refused for its body by a key that may write, 403 for a read-only one), `mapping` (the shop's mapping tried on its first 25 products in scope, as `POST /admin/shops/{shop}/mapping/evaluation`: products that cannot be fully enriched warn, with the top reasons), `clock` (the `Date` of Shopify's and the catalog's answers; more than 60 s off fails). `status`: pass, fail, warn or unknown; `fix` (with `command` and `href` where the causes table has them) says what to do. Reads only: nothing is repaired, created or synced. 404: no such shop.",
  })
  @ApiOkResponse({ type: DoctorReportDto })
  @ApiConnectorErrors(400, 404)
  examine(@Query() query: DoctorQuery): Promise<DoctorReportDto> {
    return this.doctor.examine(query.shop);
  }
}
