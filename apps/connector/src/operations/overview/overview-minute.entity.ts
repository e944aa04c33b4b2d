import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One minute of one overview series (table `overview_minutes`, migration 086). */
@Entity({ name: 'overview_minutes' })
export class OverviewMinute {
  @PrimaryColumn({ type: 'timestamptz' })
  minute!: Date;

  @PrimaryColumn({ type: 'text' })
  series!: string;

  @Column({ type: 'double precision' })
  value!: number;
}
