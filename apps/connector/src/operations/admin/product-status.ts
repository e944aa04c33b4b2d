import { Inject, Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { CatalogClients } from '../../clients/catalog/catalog-clients.js';
import { CONNECTOR_CONFIG } from '../../connector.tokens.js';
import { MediaStatusRepository } from '../../media/store/media-status.repository.js';
import type { ConnectorConfig } from '../../platform/config/connector.config.js';
import { OperationsSeams } from '../../platform/health/operations-seams.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import type { MappingGap, PlanNote } from '../../product-sync/plan/sync-plan.js';
import { SyncRecords } from '../../product-sync/sync-records.repository.js';
import type { MapRowDto, ProductStatusDto } from './product-status.dto.js';

const PRODUCT_ID = /^[1-9]\d{0,19}$/;

interface MapRow {
  shop: string;
  shopify_product_id: string;
  shopify_variant_id: string | null;
  kind: string;
  supplier_sku: string;
  parent_supplier_sku: string | null;
  sku_id: string | null;
  state: string;
  applied_at: Date | null;
  shopify_updated_at: Date | null;
  gaps: MappingGap[];
  notes: PlanNote[];
}

/**
 * A product's status for operators, found by its Shopify product id, a `supplierSku` or a
 * `skuId`: its sku map rows, its last sync run (when, which calls, outcome), its last error,
 * the catalog's enrichment status and attribute summary (read now, at interactive priority),
 * its media status (the last media run's notes, failed images and counts), and its write-back
 * history (from the write-back stage, through `OperationsSeams`). The map rows carry the sync's
 * mapping gaps and notes (e.g. "enrichment will fail").
 */
@Injectable()
export class ProductStatus {
  constructor(
    private readonly dataSource: DataSource,
    private readonly catalogs: CatalogClients,
    private readonly seams: OperationsSeams,
    private readonly moduleRef: ModuleRef,
    @Inject(CONNECTOR_CONFIG) private readonly config: ConnectorConfig,
  ) {}

  async of(id: string, shop: string | undefined): Promise<ProductStatusDto> {
    const { shop: domain, productId } = await this.resolve(id, shop);
    const rows: MapRow[] = await this.dataSource.query(
      `SELECT * FROM ${this.table('sku_map')} WHERE shop = $1 AND shopify_product_id = $2::bigint
        ORDER BY shopify_variant_id NULLS FIRST, id`,
      [domain, productId],
    );
    const records = this.moduleRef.get(SyncRecords, { strict: false });
    const [last] = await records.ofProduct(domain, productId, 1);
    const [failure]: Array<{
      id: string;
      error_code: string;
      error_message: string;
      state: string;
      last_failed_at: Date;
    }> = await this.dataSource.query(
      `SELECT id::text, error_code, error_message, state, last_failed_at FROM ${this.table('failures')}
          WHERE shop = $1 AND subject_key = $2 ORDER BY last_failed_at DESC LIMIT 1`,
      [domain, productId],
    );
    const failureError = failure
      ? {
          at: failure.last_failed_at.toISOString(),
          code: failure.error_code,
          message: failure.error_message,
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
      media: await this.moduleRef.get(MediaStatusRepository, { strict: false }).get(domain, productId),
      writeBacks: await this.seams.writeBackHistory(domain, productId, 50),
    };
  }

  /** The shop and Shopify product id an operator's id names; 404 when nothing, 400 when several. */
  private async resolve(id: string, shop: string | undefined): Promise<{ shop: string; productId: string }> {
    if (shop !== undefined && !this.config.shops.some((s) => s.domain === shop)) {
      throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, 'shop must be a shop this connector serves.', {
        parameter: 'shop',
      });
    }
    if (id.length > 255) throw notFound(id);
    const matches: Array<{ shop: string; product_id: string }> = await this.dataSource.query(
      `SELECT DISTINCT shop, shopify_product_id::text AS product_id FROM ${this.table('sku_map')}
        WHERE ($2::text IS NULL OR shop = $2)
          AND (supplier_sku = $1 OR sku_id = $1 OR ($3::bigint IS NOT NULL AND shopify_product_id = $3::bigint))
        LIMIT 10`,
      [id, shop ?? null, PRODUCT_ID.test(id) ? id : null],
    );
    if (matches.length === 1)
      return {
        shop: (matches[0] as { shop: string }).shop,
        productId: (matches[0] as { product_id: string }).product_id,
      };
    if (matches.length > 1) {
      throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, `${id} names several products: add ?shop=.`, {
        parameter: 'shop',
        matches: matches.map((m) => `${m.shop}/${m.product_id}`),
      });
    }
    // Not in the map (never synced): a Shopify product id of a known shop still has a history.
    const only = shop ?? (this.config.shops.length === 1 ? this.config.shops[0]?.domain : undefined);
    if (PRODUCT_ID.test(id) && only !== undefined) return { shop: only, productId: id };
    throw notFound(id);
  }

  private async catalogView(shop: string, rows: MapRow[]): Promise<ProductStatusDto['catalog']> {
    const own = rows.find((row) => row.shopify_variant_id === null && row.sku_id !== null);
    if (!own?.sku_id) return null;
    try {
      const record = await this.catalogs
        .forShop(shop)
        .client.getProduct(own.sku_id, { priority: 'interactive' });
      return {
        skuId: own.sku_id,
        enrichmentStatus: record.dataEnrichment?.status ?? null,
        attributeSummary: { ...record.attributeSummary },
      };
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'error';
      return { skuId: own.sku_id, enrichmentStatus: null, attributeSummary: null, error: code };
    }
  }

  private table(name: string): string {
    return `"${this.config.database.schema}".${name}`;
  }
}

function mapRowDto(row: MapRow): MapRowDto {
  return {
    kind: row.kind,
    shopifyVariantId: row.shopify_variant_id,
    supplierSku: row.supplier_sku,
    parentSupplierSku: row.parent_supplier_sku,
    skuId: row.sku_id,
    state: row.state,
    appliedAt: row.applied_at?.toISOString() ?? null,
    shopifyUpdatedAt: row.shopify_updated_at?.toISOString() ?? null,
    gaps: row.gaps,
    notes: row.notes,
  };
}

function notFound(id: string): ConnectorError {
  return new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No product known as ${id}.`);
}
