import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { SHOP_MODES } from '../../platform/config/shop-mode.js';

/**
 * The web view's form bodies (`application/x-www-form-urlencoded`), declared once: `@ApiProperty`
 * for the OpenAPI document, `class-validator` for the checks `@UiForm()` runs (a wrong field is a
 * 400 page naming it). A field read leniently by its route (a list, a shop to look up) is declared
 * as text here and parsed there. Fields not declared are dropped, as the routes never read them.
 */

/** Why: every form of a signed-in page carries the session's CSRF token (the guard checks it, else 403). */
export class UiCsrfForm {
  @ApiProperty({ description: "The session's CSRF token (in every page's forms)." })
  @IsString()
  _csrf!: string;
}

/**
 * Why: the sign-in form: the admin token in the body, never the URL. The route reads it itself
 * (it has no session yet), so a missing or wrong token is the sign-in page again (401).
 */
export class UiSignInForm {
  @ApiProperty({ format: 'password' })
  token!: string;
}

/** Why: a product's resync: the shop it belongs to (the only one when omitted). */
export class UiProductResyncForm extends UiCsrfForm {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  shop?: string;
}

/** Why: a selection's resync: the products ticked on the products page. */
export class UiResyncSelectionForm extends UiCsrfForm {
  @ApiPropertyOptional({ description: 'The selected products, `<shop>:<product id>`, comma-separated.' })
  @IsOptional()
  @IsString()
  items?: string;
}

/** Why: pausing a shop's syncing, with the reason shown to other operators. */
export class UiShopPauseForm extends UiCsrfForm {
  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500, { message: 'reason is at most 500 characters.' })
  reason?: string;
}

/** Why: pausing every shop on a catalog key, with the reason shown to other operators. */
export class UiCatalogKeyPauseForm extends UiCsrfForm {
  @ApiPropertyOptional({ maxLength: 400 })
  @IsOptional()
  @IsString()
  @MaxLength(400, { message: 'reason is at most 400 characters.' })
  reason?: string;
}

/** Why: replaying or dismissing the failures confirmed on the bulk page. */
export class UiBulkFailuresForm extends UiCsrfForm {
  @ApiProperty({ enum: ['replay', 'dismiss'] })
  @IsIn(['replay', 'dismiss'], { message: 'Choose replay or dismiss.' })
  action!: 'replay' | 'dismiss';

  @ApiPropertyOptional({ description: 'Failure ids, comma-separated (at most 200).' })
  @IsOptional()
  @IsString()
  ids?: string;
}

/** Why: switching a shop between live and shadow. */
export class UiShopModeForm extends UiCsrfForm {
  @ApiProperty({ enum: [...SHOP_MODES] })
  @IsIn([...SHOP_MODES], { message: `mode must be one of ${SHOP_MODES.join(', ')}.` })
  mode!: (typeof SHOP_MODES)[number];
}

/**
 * Why: an installed shop's catalog key (never echoed). A key that is not text without spaces,
 * at most 512 characters, answers the form again with the problem, so the route checks it.
 */
export class UiCatalogKeyForm extends UiCsrfForm {
  @ApiPropertyOptional({ format: 'password', maxLength: 512 })
  @IsOptional()
  @IsString()
  apiKey?: string;
}

/** Why: the drift repairs chosen on the confirm page (one finding, a selection or a kind). */
export class UiDriftRepairForm extends UiCsrfForm {
  @ApiPropertyOptional({ description: 'Comma-separated finding ids.' })
  @IsOptional()
  @IsString()
  ids?: string;

  @ApiPropertyOptional({ description: 'One finding id.' })
  @IsOptional()
  @IsString()
  one?: string;

  @ApiPropertyOptional({ description: 'Every finding of this kind.' })
  @IsOptional()
  @IsString()
  kind?: string;

  @ApiPropertyOptional({
    description:
      "Comma-separated skuIds whose approved enrichment the operator agreed to lose (the result page's confirm step).",
  })
  @IsOptional()
  @IsString()
  confirmLoss?: string;
}

/** Why: linking for real, with the match of the dry run. */
export class UiLinkForm extends UiCsrfForm {
  @ApiPropertyOptional({ description: 'The match of the dry run.' })
  @IsOptional()
  @IsString()
  match?: string;
}
