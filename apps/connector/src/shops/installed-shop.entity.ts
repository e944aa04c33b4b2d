import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A shop that installed the app itself (`CONNECTOR_SHOPIFY_INSTALLS=open`): a row of `shops`. */
@Entity({ name: 'shops' })
export class InstalledShop {
  @PrimaryColumn({ type: 'text' })
  shop!: string;

  /** `TokenCipher` output of the catalog API key the operator set; null until then. */
  @Column({ type: 'text', name: 'catalog_api_key', nullable: true })
  catalogApiKey!: string | null;

  /** The shop's own mapping file; null: `CONNECTOR_DEFAULT_MAPPING_FILE`. */
  @Column({ type: 'text', name: 'mapping_file', nullable: true })
  mappingFile!: string | null;

  @Column({ type: 'timestamptz', name: 'installed_at' })
  installedAt!: Date;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}
