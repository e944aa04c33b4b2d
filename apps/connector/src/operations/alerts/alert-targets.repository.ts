import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { AlertTarget } from './alert-target.entity.js';

/** A target to store: its URL and secret already encrypted. */
export type NewAlertTarget = Omit<AlertTarget, 'id'>;

/**
 * Why: the one owner of `alert_targets`: the operators' notification targets, added, listed,
 * removed, and the ones told about a shop (its own and every shop's).
 */
@Injectable()
export class AlertTargetsRepository {
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
}
