import { ApiProperty, ApiSchema, getSchemaPath } from '@nestjs/swagger';

/** Why: a product delivery stored; its sync is enqueued (or the sweeper will). */
@ApiSchema({ name: 'WebhookAccepted' })
export class WebhookAcceptedDto {
  @ApiProperty({ enum: ['accepted'] }) status!: 'accepted';
  @ApiProperty() webhookId!: string;
  @ApiProperty({
    description:
      'true: its sync is being enqueued (within CONNECTOR_INBOX_ENQUEUE_FLUSH_MS; the answer does not wait for the queue). false: stored, the sweeper enqueues it later.',
  })
  queued!: boolean;
}

/** Why: a delivery already taken (same webhook id). */
@ApiSchema({ name: 'WebhookDuplicate' })
export class WebhookDuplicateDto {
  @ApiProperty({ enum: ['duplicate'] }) status!: 'duplicate';
  @ApiProperty() webhookId!: string;
}

/** Why: app/uninstalled, shop/redact, customers/data_request, customers/redact: acted on, not stored. */
@ApiSchema({ name: 'WebhookProcessed' })
export class WebhookProcessedDto {
  @ApiProperty({ enum: ['processed'] }) status!: 'processed';
  @ApiProperty() webhookId!: string;
  @ApiProperty() topic!: string;
}

/** Why: a topic the connector does not take. */
@ApiSchema({ name: 'WebhookUnsupportedTopic' })
export class WebhookUnsupportedTopicDto {
  @ApiProperty({ enum: ['ignored'] }) status!: 'ignored';
  @ApiProperty({ enum: ['unsupported_topic'] }) reason!: 'unsupported_topic';
  @ApiProperty() topic!: string;
}

/**
 * Why: app/uninstalled or shop/redact older than the shop's current installation
 * (X-Shopify-Triggered-At): answered, ignored, recorded in GET /admin/shops.
 */
@ApiSchema({ name: 'WebhookBeforeInstallation' })
export class WebhookBeforeInstallationDto {
  @ApiProperty({ enum: ['ignored'] }) status!: 'ignored';
  @ApiProperty({ enum: ['before_installation'] }) reason!: 'before_installation';
  @ApiProperty() webhookId!: string;
  @ApiProperty() topic!: string;
  @ApiProperty() detail!: string;
}

/** Why: a collections/* delivery (not stored). */
@ApiSchema({ name: 'WebhookCollection' })
export class WebhookCollectionDto {
  @ApiProperty({ enum: ['collection'] }) status!: 'collection';
  @ApiProperty() webhookId!: string;
  @ApiProperty({
    description:
      "true: a walk of the shop's scoped collections was asked for; false: the shop's mapping scopes no collection.",
  })
  walk!: boolean;
}

/** The answer to a delivery the connector took (README, "Intake"). */
export type WebhookAnswer =
  | WebhookAcceptedDto
  | WebhookDuplicateDto
  | WebhookProcessedDto
  | WebhookUnsupportedTopicDto
  | WebhookBeforeInstallationDto
  | WebhookCollectionDto;

/** Every answer's class, for the document's `oneOf`. */
export const WEBHOOK_ANSWERS = [
  WebhookAcceptedDto,
  WebhookDuplicateDto,
  WebhookProcessedDto,
  WebhookUnsupportedTopicDto,
  WebhookBeforeInstallationDto,
  WebhookCollectionDto,
] as const;

/** The 200 answer's schema: one of the classes above. */
export const WEBHOOK_ANSWER_SCHEMA = {
  oneOf: WEBHOOK_ANSWERS.map((answer) => ({ $ref: getSchemaPath(answer) })),
};
