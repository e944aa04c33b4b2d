import { Controller, Get, Redirect } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';

/**
 * Why: an operator who opens the connector's address in a browser meets the web view (its
 * sign-in form), not a JSON 404. `/` is a plain redirect: it reveals nothing and needs no session.
 */
@ApiTags('admin-ui')
@Controller()
export class RootRedirectController {
  @Get()
  @Redirect('/admin/ui', 302)
  @ApiOperation({ operationId: 'uiRoot', summary: 'Leads to the web view (/admin/ui)' })
  @ApiResponse({ status: 302, description: 'Found: the web view, in Location' })
  root(): void {}
}
