import { Injectable } from '@nestjs/common';

/** One owner's tables keyed by shop, and how it deletes a shop's rows from them. */
export interface ShopDataOwner {
  /** The tables `purge` empties of the shop (each listed once across owners). */
  tables: string[];
  /** Deletes every row of the shop from those tables; resolves to how many went. */
  purge(shop: string): Promise<number>;
}

/**
 * Why: `shop/redact` must purge every table keyed by the shop, but each table belongs to one
 * owner (`table-owners.spec.ts`). Each owner registers its tables here at module init, as with
 * `RetentionRegistry`, so the redaction never touches another room's tables itself. The owners
 * and their tables are listed in `HOUSEKEEPING` (housekeeping.ts), checked at boot.
 */
@Injectable()
export class ShopDataRegistry {
  private readonly owners: ShopDataOwner[] = [];

  register(owner: ShopDataOwner): void {
    const taken = owner.tables.filter((table) => this.tables().includes(table));
    if (taken.length > 0) throw new Error(`Shop data of ${taken.join(', ')} is registered twice`);
    this.owners.push(owner);
  }

  /** Each owner's tables, sorted, in the order the owners registered (`RegistrationsCheck` compares them with `HOUSEKEEPING`). */
  groups(): string[][] {
    return this.owners.map((owner) => [...owner.tables].sort());
  }

  /** Every registered table. */
  tables(): string[] {
    return this.owners.flatMap((owner) => owner.tables).sort();
  }

  /** Purges the shop from every registered table; resolves to the rows deleted. */
  async purge(shop: string): Promise<number> {
    let total = 0;
    for (const owner of this.owners) total += await owner.purge(shop);
    return total;
  }
}
