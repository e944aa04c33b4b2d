import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { InstalledShop } from './installed-shop.entity.js';
import type { SecretStore, StoredSecret } from './stored-secret.js';

/** The `shops` table (shops that installed the app themselves): read and changed only here. */
@Injectable()
export class InstalledShopsRepository implements SecretStore {
  constructor(@InjectRepository(InstalledShop) private readonly rows: Repository<InstalledShop>) {}

  all(): Promise<InstalledShop[]> {
    return this.rows.find({ order: { shop: 'ASC' } });
  }

  /** The shop's row, made at its first install (a new install keeps its key and mapping). */
  async add(shop: string, at: Date): Promise<void> {
    await this.rows.query(
      `INSERT INTO ${this.rows.metadata.tablePath} (shop, installed_at, updated_at) VALUES ($1, $2, $2)
       ON CONFLICT (shop) DO UPDATE SET installed_at = excluded.installed_at, updated_at = excluded.updated_at`,
      [shop, at],
    );
  }

  /** Sets the encrypted catalog key and/or the mapping file (undefined: unchanged). Resolves to whether the row exists. */
  async update(
    shop: string,
    changes: { catalogApiKey?: string | null; mappingFile?: string | null },
    at: Date,
  ): Promise<boolean> {
    const result = await this.rows.update({ shop }, { ...changes, updatedAt: at });
    return (result.affected ?? 0) > 0;
  }

  /** `shop/redact`: the operator's key and mapping go; the row stays so the shop shows `redacted`. */
  async forget(shop: string, at: Date): Promise<number> {
    const result = await this.rows.update(
      { shop },
      { catalogApiKey: null, mappingFile: null, updatedAt: at },
    );
    return result.affected ?? 0;
  }

  /** The catalog keys not encrypted under `keyId` (`StoredSecrets`), by shop. */
  async secretsNotUnder(keyId: string, after: string, limit: number): Promise<StoredSecret[]> {
    const rows: Array<{ shop: string; value: string }> = await this.rows.query(
      `SELECT shop, catalog_api_key AS value FROM ${this.rows.metadata.tablePath}
        WHERE catalog_api_key IS NOT NULL AND catalog_api_key NOT LIKE $1 AND shop > $2
        ORDER BY shop LIMIT $3`,
      [`v1:${keyId}:%`, after, limit],
    );
    return rows.map((row) => ({ holder: 'shop', id: row.shop, kind: 'catalog API key', value: row.value }));
  }

  /** The catalog key re-encrypted, unless it changed since it was read (the operator, another replica). */
  async replaceSecret(secret: StoredSecret, to: string): Promise<boolean> {
    const result = await this.rows.update(
      { shop: secret.id, catalogApiKey: secret.value },
      { catalogApiKey: to },
    );
    return (result.affected ?? 0) > 0;
  }
}
