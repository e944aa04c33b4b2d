import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Not, type Repository } from 'typeorm';
import { PlannedWriteRow } from './planned-write.entity.js';

/** One planned write as its planner hands it over (the row without its id, shop, product and time). */
export type PlannedWrite = Pick<
  PlannedWriteRow,
  'kind' | 'method' | 'path' | 'supplierSku' | 'body' | 'before' | 'after'
> &
  Partial<Pick<PlannedWriteRow, 'gaps'>>;

/** The `planned_writes` table (what shops in `shadow` would have sent): read and changed only here. */
@Injectable()
export class PlannedWritesRepository {
  constructor(@InjectRepository(PlannedWriteRow) private readonly rows: Repository<PlannedWriteRow>) {}

  /**
   * The product's latest plan from `source` replaces its previous one (in one transaction), so
   * a product planned again is counted once; an empty plan just clears it.
   */
  async replace(
    shop: string,
    productId: string,
    source: string,
    writes: readonly PlannedWrite[],
    at: Date,
  ): Promise<void> {
    await this.rows.manager.transaction(async (manager) => {
      const table = manager.getRepository(PlannedWriteRow);
      await table.delete({ shop, productId, source });
      if (writes.length === 0) return;
      await table.save(
        writes.map((write, seq) => table.create({ ...write, shop, productId, source, seq, plannedAt: at })),
      );
    });
  }

  /** Which of `productIds` have planned writes from `source`. */
  async productsAmong(shop: string, source: string, productIds: readonly string[]): Promise<Set<string>> {
    if (productIds.length === 0) return new Set();
    const rows: Array<{ product_id: string }> = await this.rows.query(
      `SELECT DISTINCT product_id FROM ${this.rows.metadata.tablePath}
        WHERE shop = $1 AND source = $2 AND product_id = ANY($3::text[])`,
      [shop, source, [...productIds]],
    );
    return new Set(rows.map((row) => row.product_id));
  }

  /** The shop's planned writes, by product then in plan order. */
  ofShop(shop: string): Promise<PlannedWriteRow[]> {
    return this.rows.find({ where: { shop }, order: { productId: 'ASC', source: 'ASC', seq: 'ASC' } });
  }

  /** Clears the shop's planned writes; resolves to the products they were for. */
  async clearShop(shop: string): Promise<string[]> {
    const result = await this.rows
      .createQueryBuilder()
      .delete()
      .where('shop = :shop', { shop })
      .returning('product_id')
      .execute();
    const rows = result.raw as { product_id: string }[];
    return [...new Set(rows.map((row) => row.product_id))];
  }

  /** `shop/redact`: deletes every row of the shop (`ShopDataRegistry`); resolves to how many went. */
  async purgeShop(shop: string): Promise<number> {
    return (await this.rows.delete({ shop })).affected ?? 0;
  }

  /**
   * Clears the product's planned writes (a live run superseded them), but those of `keep` (a
   * live sync leaves the write-back's plan to the product's next push).
   */
  async clearProduct(shop: string, productId: string, keep?: string): Promise<void> {
    await this.rows.delete(keep === undefined ? { shop, productId } : { shop, productId, source: Not(keep) });
  }

  /** The shop's planned writes of one product, in plan order. */
  ofProduct(shop: string, productId: string): Promise<PlannedWriteRow[]> {
    return this.rows.find({ where: { shop, productId }, order: { source: 'ASC', seq: 'ASC' } });
  }
}
