import { Controller, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { LinkService } from '../../resync/link.service.js';
import type { LinkMatch } from '../../resync/link-matcher.js';
import type { LinkReportDto } from '../../resync/link-report.dto.js';
import { AdminTokenGuard } from './admin-token.guard.js';

const MATCHES = ['sku:supplierSku', 'sku:gtin', 'barcode:supplierSku', 'barcode:gtin'];
const KNOWN = new Set(['shop', 'match', 'dryRun', 'resync']);

/**
 * Linking a pre-filled catalog over HTTP (README, "Linking"): `?shop=` and optionally
 * `match=<shopify field>:<catalog field>`, `dryRun=true` (report only), `resync=false` (link
 * only). The admin token is needed.
 */
@Controller('admin/link')
@UseGuards(AdminTokenGuard)
export class AdminLinkController {
  constructor(private readonly links: LinkService) {}

  @Post()
  @HttpCode(200)
  link(@Query() query: Record<string, unknown>): Promise<LinkReportDto> {
    const unknown = Object.keys(query).filter((name) => !KNOWN.has(name));
    if (unknown.length > 0)
      throw invalid(unknown[0] as string, `Unknown query parameter ${unknown.join(', ')}.`);
    const shop = query.shop;
    if (typeof shop !== 'string' || shop === '') throw invalid('shop', 'shop is required.');
    let match: LinkMatch | undefined;
    if (query.match !== undefined) {
      if (typeof query.match !== 'string' || !MATCHES.includes(query.match)) {
        throw invalid('match', `match must be one of ${MATCHES.join(', ')}.`);
      }
      const [shopify, catalog] = query.match.split(':') as [LinkMatch['shopify'], LinkMatch['catalog']];
      match = { shopify, catalog };
    }
    return this.links.link({
      shop: shop.toLowerCase(),
      match,
      dryRun: flag(query, 'dryRun', false),
      resync: flag(query, 'resync', true),
    });
  }
}

function flag(query: Record<string, unknown>, name: string, fallback: boolean): boolean {
  const value = query[name];
  if (value === undefined) return fallback;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw invalid(name, `${name} must be true or false.`);
}

function invalid(parameter: string, message: string): ConnectorError {
  return new ConnectorError(ConnectorErrorCode.BAD_REQUEST, message, { parameter });
}
