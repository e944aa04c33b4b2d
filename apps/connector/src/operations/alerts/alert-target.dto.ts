import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import type { AlertDeliveryState } from './alert-delivery.entity.js';
import { ALERT_TARGET_KINDS, type AlertTargetKind } from './alert-target.entity.js';
import { MIN_SECRET_LENGTH } from './alert-targets.service.js';

const DELIVERY_STATES: readonly AlertDeliveryState[] = ['pending', 'delivered', 'failed', 'cancelled'];

/** `POST /admin/alert-targets`: a target to tell about shop state changes. */
@ApiSchema({ name: 'AlertTargetRequest' })
export class AlertTargetBody {
  @ApiProperty({
    enum: ALERT_TARGET_KINDS,
    description: '`webhook`: a signed JSON body; `slack`: a Slack incoming webhook (`{"text"}`).',
  })
  @IsIn(ALERT_TARGET_KINDS, { message: `kind must be one of ${ALERT_TARGET_KINDS.join(', ')}` })
  kind!: AlertTargetKind;

  @ApiProperty({
    maxLength: 2048,
    description:
      'An HTTPS URL (plain HTTP only to 127.0.0.1, localhost or [::1]). Stored encrypted; never shown whole again.',
  })
  @IsString()
  @MaxLength(2048)
  url!: string;

  @ApiPropertyOptional({
    maxLength: 100,
    description: 'A name for the lists; default: the kind and the host.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  label?: string;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    description: 'One shop the connector serves; absent or null: every shop.',
  })
  @IsOptional()
  @ValidateIf((body: AlertTargetBody) => body.shop !== null)
  @IsString()
  @Length(1, 255)
  shop?: string | null;

  @ApiPropertyOptional({
    minLength: MIN_SECRET_LENGTH,
    maxLength: 256,
    description:
      "A webhook's signing secret; absent: one is generated and answered once (never shown again). Not for Slack.",
  })
  @IsOptional()
  @IsString()
  @MinLength(MIN_SECRET_LENGTH)
  @MaxLength(256)
  @Matches(/^\S+$/, { message: 'secret must be a string without spaces.' })
  secret?: string;
}

/** A target as listed: never its whole URL, never its secret. */
@ApiSchema({ name: 'AlertTarget' })
export class AlertTargetDto {
  @ApiProperty() id!: string;
  @ApiProperty() label!: string;
  @ApiProperty({ enum: ALERT_TARGET_KINDS }) kind!: AlertTargetKind;
  @ApiProperty({ type: 'string', nullable: true, description: 'null: every shop.' }) shop!: string | null;
  @ApiProperty({ description: "The URL's origin only." }) url!: string;
  @ApiProperty({ description: 'Whether its requests carry X-Connector-Signature (webhooks).' })
  signed!: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'Why it cannot be delivered to; null: none.' })
  problem!: string | null;
}

/** The answer to `POST /admin/alert-targets`: the target, and the generated secret this once. */
@ApiSchema({ name: 'CreatedAlertTarget' })
export class CreatedAlertTargetDto extends AlertTargetDto {
  @ApiPropertyOptional({
    description:
      'The generated signing secret: shown in this answer only. Absent when the request gave one, or for Slack.',
  })
  secret?: string;
}

/** `GET /admin/alert-targets`. */
@ApiSchema({ name: 'AlertTargetList' })
export class AlertTargetListDto {
  @ApiProperty({ type: [AlertTargetDto] }) targets!: AlertTargetDto[];
}

/** `GET /admin/alert-deliveries`: which, and how many. */
export class AlertDeliveryQuery {
  @ApiPropertyOptional({ description: 'Only this shop.' })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  shop?: string;

  @ApiPropertyOptional({ enum: DELIVERY_STATES })
  @IsOptional()
  @IsIn(DELIVERY_STATES, { message: `state must be one of ${DELIVERY_STATES.join(', ')}` })
  state?: AlertDeliveryState;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 500,
    description: 'At most this many (default 50).',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}

/** One state change sent (or being sent) to one target. */
@ApiSchema({ name: 'AlertDelivery' })
export class AlertDeliveryDto {
  @ApiProperty() id!: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'null: the target was removed.' })
  targetId!: string | null;
  @ApiProperty() target!: string;
  @ApiProperty({ enum: ALERT_TARGET_KINDS }) kind!: AlertTargetKind;
  @ApiProperty() shop!: string;
  @ApiProperty({ enum: ['healthy', 'degraded', 'failing'] }) from!: string;
  @ApiProperty({ enum: ['healthy', 'degraded', 'failing'] }) to!: string;
  @ApiProperty({ description: "The new state's first reason, in words." }) cause!: string;
  @ApiProperty({ enum: DELIVERY_STATES }) state!: AlertDeliveryState;
  @ApiProperty({ type: 'integer' }) attempts!: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "The receiver's last status; null: no answer.",
  })
  lastStatus!: number | null;
  @ApiProperty({ type: 'string', nullable: true }) lastError!: string | null;
  @ApiProperty({ format: 'date-time', description: 'When the shop left its previous state.' })
  changedAt!: string;
  @ApiProperty({ format: 'date-time', description: 'When the change was sent out.' }) createdAt!: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) deliveredAt!: string | null;
}

/** `GET /admin/alert-deliveries`. */
@ApiSchema({ name: 'AlertDeliveryList' })
export class AlertDeliveryListDto {
  @ApiProperty({ type: [AlertDeliveryDto] }) deliveries!: AlertDeliveryDto[];
}
