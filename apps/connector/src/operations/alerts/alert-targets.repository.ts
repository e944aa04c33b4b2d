import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { SecretStore, StoredSecret } from '../../shops/stored-secret.js';
import { AlertTarget } from './alert-target.entity.js';

/** A target to store: its URL and secret already encrypted. */
export type NewAlertTarget = Omit<AlertTarget, 'id'>;

/** The column of each encrypted value a target keeps. */
const SECRET_COLUMNS = { URL: 'url', 'signing secret': 'secret' } as const;

/**
 * Why: the one owner of `alert_targets`: the operators' notification targets, added, listed,
 * removed, and the ones told about a shop (its own and every shop's). Its encrypted URLs and
 * secrets are a `SecretStore`, re-encrypted and counted by `StoredSecrets` (`AlertRegistrations`
 * registers it).
 */
@Injectable()
export class AlertTargetsRepository implements SecretStore {
  constructor(@InjectRepository(AlertTarget) private readonly rows: Repository<AlertTarget>) {}

  async add(target: NewAlertTarget): Promise<AlertTarget> {
    return this.rows.save(this.rows.create(target));
  }

  /** Every target, oldest first. */
  all(): Promise<AlertTarget[]> {
    return this.rows.find({ order: { id: 'ASC' } });
  }

  get(id: string): Promise<AlertTarget | null> {
    return this.rows.findOne({ where: { id } });
  }

  /** The targets told about `shop`: its own, and those of every shop. */
  async forShop(shop: string): Promise<AlertTarget[]> {
    return this.rows
      .createQueryBuilder('t')
      .where('t.shop IS NULL OR t.shop = :shop', { shop })
      .orderBy('t.id', 'ASC')
      .getMany();
  }

  /** Removes a target; whether it existed. Its deliveries stay, under its label. */
  async remove(id: string): Promise<boolean> {
    const result = await this.rows.delete({ id });
    return (result.affected ?? 0) > 0;
  }

  /** `shop/redact`: removes the targets of that one shop; resolves to how many went. */
  async purgeShop(shop: string): Promise<number> {
    const result = await this.rows.delete({ shop });
    return result.affected ?? 0;
  }

  /** The URLs and signing secrets not encrypted under `keyId` (`StoredSecrets`), by target id. */
  async secretsNotUnder(keyId: string, after: string, limit: number): Promise<StoredSecret[]> {
    const rows: Array<{ id: string; url: string; secret: string | null }> = await this.rows.query(
      `SELECT id::text AS id, url, secret FROM ${this.rows.metadata.tablePath}
        WHERE (url NOT LIKE $1 OR (secret IS NOT NULL AND secret NOT LIKE $1)) AND id > $2::bigint
        ORDER BY id LIMIT $3`,
      [`v1:${keyId}:%`, after === '' ? '0' : after, limit],
    );
    const under = `v1:${keyId}:`;
    return rows.flatMap((row) =>
      (['URL', 'signing secret'] as const).flatMap((kind): StoredSecret[] => {
        const value = row[SECRET_COLUMNS[kind]];
        return value === null || value.startsWith(under)
          ? []
          : [{ holder: 'alert target', id: row.id, kind, value }];
      }),
    );
  }

  /** The value re-encrypted, unless it changed since it was read (the target removed, another replica's pass). */
  async replaceSecret(secret: StoredSecret, to: string): Promise<boolean> {
    if (secret.kind !== 'URL' && secret.kind !== 'signing secret') return false;
    const field = secret.kind === 'URL' ? 'url' : 'secret';
    const result = await this.rows.update({ id: secret.id, [field]: secret.value }, { [field]: to });
    return (result.affected ?? 0) > 0;
  }
}
