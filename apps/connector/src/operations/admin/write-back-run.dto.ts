import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { SHOP_MODES, type ShopMode } from '../../platform/config/shop-mode.js';

/** Why: one mutation a live write-back would send (a dry run, or a shop in shadow). */
@ApiSchema({ name: 'WriteBackPlannedCall' })
export class WriteBackPlannedCallDto {
  @ApiProperty({ description: '`metafieldsSet`, `productUpdate`, `tagsAdd`, ... or `conflict`' })
  kind!: string;
  @ApiProperty({ enum: ['MUTATION', 'HELD'] }) method!: string;
  @ApiProperty({ description: 'The GraphQL document: `WriteBackMetafieldsSet`, ...' }) path!: string;
  @ApiProperty({ type: Object, nullable: true, description: 'The variables.' })
  body!: Record<string, unknown> | null;
  @ApiProperty({
    type: Object,
    nullable: true,
    description: 'Each target its value now (`@<variant id>`: a variant).',
  })
  before!: Record<string, unknown> | null;
  @ApiProperty({ type: Object, nullable: true, description: 'Each target its value once written.' })
  after!: Record<string, unknown> | null;
}

/** `POST /admin/products/{id}/write-back`: what one product's write-back did, or would do. */
@ApiSchema({ name: 'WriteBackRun' })
export class WriteBackRunDto {
  @ApiProperty() shop!: string;
  @ApiProperty() productId!: string;
  @ApiProperty({ enum: SHOP_MODES }) mode!: ShopMode;
  @ApiProperty() dryRun!: boolean;
  @ApiProperty({ type: 'integer', description: 'Targets written (0 on a dry run or in shadow).' })
  written!: number;
  @ApiProperty({ type: 'integer' }) settled!: number;
  @ApiProperty({ type: 'integer', description: "Targets a merchant's edit holds back." }) conflicts!: number;
  @ApiProperty({ type: 'integer' }) skipped!: number;
  @ApiProperty({ type: 'integer' }) failed!: number;
  @ApiProperty({
    type: [WriteBackPlannedCallDto],
    description: 'The mutations a live push would send (dry run or shadow), in order; empty once sent.',
  })
  planned!: WriteBackPlannedCallDto[];
}
