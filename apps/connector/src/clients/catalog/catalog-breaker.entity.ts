import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One catalog account's breaker as the replicas share it (migration
 * `CreateCatalogBreakers1764000000115`); read and written through `CatalogBreakerRepository` only.
 */
@Entity({ name: 'catalog_breakers' })
export class CatalogBreakerRow {
  /** `<baseUrl>#<key fingerprint>`, as `CatalogAccount.id`. */
  @PrimaryColumn({ type: 'text' })
  account!: string;

  @Column({ type: 'text' })
  state!: 'open' | 'closed';

  @Column({ type: 'text', nullable: true })
  reason!: 'auth' | 'unavailable' | null;

  @Column({ type: 'double precision', name: 'cooldown_ms' })
  cooldownMs!: number;

  /** When the next probe may go (epoch ms); null while closed. */
  @Column({ type: 'double precision', name: 'retry_at_ms', nullable: true })
  retryAtMs!: number | null;

  /** Until when the replica that won the probe holds it (epoch ms); 0: nobody. */
  @Column({ type: 'double precision', name: 'probe_until_ms' })
  probeUntilMs!: number;

  /** Bumped by each change: a replica adopts a row newer than the one it last saw. */
  @Column({ type: 'bigint' })
  generation!: string;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}
