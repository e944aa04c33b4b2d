import { Injectable } from '@nestjs/common';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import { MediaStatusRepository } from '../../media/store/media-status.repository.js';
import { FailuresService } from '../../platform/failures/failures.service.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { MappingGapsRepository } from '../../product-sync/gaps/mapping-gaps.repository.js';
import { SkuMapRepository } from '../../product-sync/sku-map/sku-map.repository.js';
import type { SkuMapRow } from '../../product-sync/sku-map/sku-map-row.entity.js';
import { SyncRecords } from '../../product-sync/sync-records.repository.js';
import { Shops } from '../../shops/shops.js';
import { WriteBackStatus } from '../../write-back/write-back-status.service.js';
import { mappingGapProductDto } from './mapping-gaps.dto.js';
import type { MapRowDto, ProductStatusDto } from './product-status.dto.js';

const PRODUCT_ID = /^[1-9]\d{0,19}$/;

/**
 * A product's status for operators, found by its Shopify product id, a `supplierSku` or a
 * `skuId`: its sku map rows, its last sync run (when, which calls, outcome), its last error,
 * the catalog's enrichment status and attribute summary (read now, at interactive priority),
 * its media status (the last media run's notes, failed images and counts), and its write-back
 * history (from the write-back). The map rows carry the sync's
 * mapping gaps and notes (e.g. "enrichment will fail"); `mappingGaps` says, in words, why the
 * product cannot be fully enriched (the last plan's reasons, one per cause).
 */
@Injectable()
export class ProductStatus {
  constructor(
    private readonly map: SkuMapRepository,
    private readonly catalogs: CatalogClients,
    private readonly records: SyncRecords,
    private readonly failures: FailuresService,
    private readonly media: MediaStatusRepository,
    private readonly writeBack: WriteBackStatus,
    private readonly shops: Shops,
    private readonly gaps: MappingGapsRepository,
  ) {}

  async of(id: string, shop: string | undefined): Promise<ProductStatusDto> {
    const { shop: domain, productId } = await this.resolve(id, shop);
    const rows = byVariant(await this.map.rowsOfProduct(domain, productId));
    const [last] = await this.records.ofProduct(domain, productId, 1);
    const [failure] = await this.failures.list({ shop: domain, subjectKey: productId }, 1);
    const failureError = failure
      ? {
          at: failure.lastFailedAt.toISOString(),
          code: failure.errorCode,
          message: failure.errorMessage,
          source: 'failure' as const,
          failureId: failure.id,
          state: failure.state,
        }
      : null;
    const syncError =
      last?.error != null
        ? { at: last.finishedAt.toISOString(), ...last.error, source: 'sync' as const }
        : null;
    const lastError =
      [failureError, syncError].filter((e) => e !== null).sort((a, b) => b.at.localeCompare(a.at))[0] ?? null;
    const media = await this.media.get(domain, productId);
    const writeBacks = await this.writeBack.history(domain, productId, 50);
    const gaps = await this.gaps.ofProduct(domain, productId);
    // A Shopify product id with no history at all (never synced, never failed): not a product known here.
    if (rows.length === 0 && !last && !failure && media === null && writeBacks.length === 0 && gaps === null)
      throw notFound(id);
    return {
      shop: domain,
      productId,
      mapRows: rows.map(mapRowDto),
      lastSync: last
        ? {
            startedAt: last.startedAt.toISOString(),
            finishedAt: last.finishedAt.toISOString(),
            reason: last.reason,
            outcome: last.outcome,
            detail: last.detail,
            calls: last.calls,
            error: last.error,
          }
        : null,
      lastError,
      catalog: await this.catalogView(domain, rows),
      media,
      writeBacks,
      mappingGaps: gaps === null ? null : mappingGapProductDto(gaps),
    };
  }

  /** The shop and Shopify product id an operator's id names; 404 when nothing, 400 when several. */
  private async resolve(id: string, shop: string | undefined): Promise<{ shop: string; productId: string }> {
    if (shop !== undefined && !this.shops.all.some((s) => s.domain === shop)) {
      throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, 'shop must be a shop this connector serves.', {
        parameter: 'shop',
      });
    }
    if (id.length > 255) throw notFound(id);
    const matches = await this.map.productsNamed(id, shop ?? null, PRODUCT_ID.test(id) ? id : null, 10);
    const [only] = matches;
    if (matches.length === 1 && only !== undefined) return only;
    if (matches.length > 1) {
      throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, `${id} names several products: add ?shop=.`, {
        parameter: 'shop',
        matches: matches.map((m) => `${m.shop}/${m.productId}`),
      });
    }
    // Not in the map (never synced): a Shopify product id of a known shop still has a history.
    const served = shop ?? (this.shops.all.length === 1 ? this.shops.all[0]?.domain : undefined);
    if (PRODUCT_ID.test(id) && served !== undefined) return { shop: served, productId: id };
    throw notFound(id);
  }

  private async catalogView(shop: string, rows: readonly SkuMapRow[]): Promise<ProductStatusDto['catalog']> {
    const own = rows.find((row) => row.shopifyVariantId === null && row.skuId !== null);
    if (!own?.skuId) return null;
    try {
      const record = await this.catalogs
        .forShop(shop)
        .client.getProduct(own.skuId, { priority: 'interactive' });
      return {
        skuId: own.skuId,
        enrichmentStatus: record.dataEnrichment?.status ?? null,
        attributeSummary: { ...record.attributeSummary },
      };
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'error';
      return { skuId: own.skuId, enrichmentStatus: null, attributeSummary: null, error: code };
    }
  }
}

/** The product's own row first, then its variants' by Shopify variant id. */
function byVariant(rows: readonly SkuMapRow[]): SkuMapRow[] {
  const key = (row: SkuMapRow) => (row.shopifyVariantId === null ? -1n : BigInt(row.shopifyVariantId));
  return [...rows].sort((a, b) => {
    const d = key(a) - key(b);
    return d !== 0n ? (d < 0n ? -1 : 1) : Number(BigInt(a.id) - BigInt(b.id));
  });
}

function mapRowDto(row: SkuMapRow): MapRowDto {
  return {
    kind: row.kind,
    shopifyVariantId: row.shopifyVariantId,
    supplierSku: row.supplierSku,
    parentSupplierSku: row.parentSupplierSku,
    skuId: row.skuId,
    state: row.state,
    appliedAt: row.appliedAt?.toISOString() ?? null,
    shopifyUpdatedAt: row.shopifyUpdatedAt?.toISOString() ?? null,
    gaps: row.gaps,
    notes: row.notes,
  };
}

function notFound(id: string): ConnectorError {
  return new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No product known as ${id}.`);
}
