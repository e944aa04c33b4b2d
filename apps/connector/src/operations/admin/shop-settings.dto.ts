import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { SHOP_MODES, type ShopMode } from '../../platform/config/shop-mode.js';

/** Longest catalog API key taken (the catalog's keys are far shorter). */
const MAX_KEY_LENGTH = 512;

/** `PUT /admin/shops/{shop}/catalog-key`: the catalog key the shop syncs with (stored encrypted). */
export class CatalogKeyBody {
  @ApiProperty({ minLength: 1, maxLength: MAX_KEY_LENGTH, pattern: '^\\S+$' })
  @IsString()
  @MaxLength(MAX_KEY_LENGTH)
  @Matches(/^\S+$/, { message: 'apiKey must be the catalog API key: a string without spaces.' })
  apiKey!: string;
}

/** `PUT /admin/shops/{shop}/mapping`: a mapping file on the connector, or null for the default. */
export class MappingFileBody {
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The path of a mapping file on the connector; null: `CONNECTOR_DEFAULT_MAPPING_FILE`.',
  })
  @ValidateIf((body: MappingFileBody) => body.file !== null)
  @IsString()
  @Matches(/\S/, { message: 'file must be the path of a mapping file on the connector, or null.' })
  file!: string | null;
}

/** `PUT /admin/shops/{shop}/mode`: `live` (writes sent) or `shadow` (recorded as planned writes). */
export class ShopModeBody {
  @ApiProperty({ enum: SHOP_MODES })
  @IsIn(SHOP_MODES)
  mode!: ShopMode;
}
