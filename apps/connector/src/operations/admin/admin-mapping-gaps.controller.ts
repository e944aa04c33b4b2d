import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { MappingGapList } from './mapping-gap-list.service.js';
import { MappingGapPageDto, MappingGapsQuery } from './mapping-gaps.dto.js';

/** `GET /admin/mapping-gaps`: a shop's products the mapping cannot fully map, why in words, paged. */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@ApiConnectorErrors(401, 429, 503)
@Controller('admin/mapping-gaps')
@UseGuards(AdminTokenGuard)
export class AdminMappingGapsController {
  constructor(private readonly list: MappingGapList) {}

  @Get()
  @ApiOperation({
    operationId: 'listMappingGaps',
    summary:
      "A shop's products the mapping cannot fully map (so the catalog cannot fully enrich them): every reason in words with its product count, and a page of the products with their titles and reasons",
  })
  @ApiOkResponse({ type: MappingGapPageDto })
  @ApiConnectorErrors(400)
  page(@Query() query: MappingGapsQuery): Promise<MappingGapPageDto> {
    return this.list.page(query);
  }
}
