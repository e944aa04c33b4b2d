import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { SHOP_STATES, type ShopState } from '../../shops/shop-session.entity.js';
import { DEFAULT_SHOP_PAGE, MAX_SHOP_PAGE, type ShopPageRequest } from './shop-page.js';

/** The overview's states, worst first (the order it lists shops in). */
export const HEALTH_STATES_WORST_FIRST = ['failing', 'degraded', 'healthy'] as const;
/** The shops list's auth states, worst first (the order it lists shops in). */
export const AUTH_STATES_WORST_FIRST: readonly ShopState[] = [
  'needs_reauth',
  'uninstalled',
  'redacted',
  'active',
];

/** Why: the search and page every shop list shares (`q`, `limit`, `offset` or `page`). */
export class ShopPageQuery implements ShopPageRequest {
  @ApiPropertyOptional({ description: 'Only the shops whose domain contains this (any case).' })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  q?: string;

  @ApiPropertyOptional({
    description: `At most this many shops (default ${DEFAULT_SHOP_PAGE}).`,
    type: 'integer',
    minimum: 1,
    maximum: MAX_SHOP_PAGE,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_SHOP_PAGE)
  limit?: number;

  @ApiPropertyOptional({ description: 'Skip this many shops (before `page`).', type: 'integer', minimum: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset?: number;

  @ApiPropertyOptional({
    description: 'The page, from 1, of `limit` shops (ignored with `offset`).',
    type: 'integer',
    minimum: 1,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page?: number;
}

/** Why: `GET /admin/overview`'s query: shops worst first, filtered by state and domain, paged. */
export class OverviewQuery extends ShopPageQuery {
  @ApiPropertyOptional({ enum: [...HEALTH_STATES_WORST_FIRST], description: 'Only the shops in this state.' })
  @IsOptional()
  @IsIn([...HEALTH_STATES_WORST_FIRST])
  state?: (typeof HEALTH_STATES_WORST_FIRST)[number];
}

/** Why: `GET /admin/shops`'s query: shops by auth state (worst first), filtered, paged. */
export class ShopListQuery extends ShopPageQuery {
  @ApiPropertyOptional({ enum: SHOP_STATES, description: 'Only the shops in this auth state.' })
  @IsOptional()
  @IsIn(SHOP_STATES)
  state?: ShopState;
}
