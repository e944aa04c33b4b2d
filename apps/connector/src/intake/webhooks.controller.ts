import { Controller, HttpCode, Logger, Post, Req, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { type ShopConfig } from '../platform/config/connector.config.js';
import { HttpSettings } from '../platform/config/settings.js';
import { ConnectorError } from '../platform/http/connector.error.js';
import { ApiConnectorErrors } from '../platform/http/connector-error.dto.js';
import { ConnectorErrorCode } from '../platform/http/connector-error-code.js';
import { type ConnectorRequest, requestIdOf } from '../platform/http/request-id.js';
import { Shops } from '../shops/shops.js';
import { assertStorableHeaders } from './header-limits.js';
import { InboxService } from './inbox.service.js';
import { productPayloadFacts } from './product-payload.js';
import { ScopeWalkRequests } from './scope-walk-requests.service.js';
import { ShopLifecycle } from './shop-lifecycle.service.js';
import { SignatureCheck } from './signature-check.js';
import { readSignedBody, type SignedBody } from './signed-body.reader.js';
import type { DeliveryRejection, VerifiedDelivery } from './verified-delivery.js';
import { WEBHOOK_ANSWER_SCHEMA, WEBHOOK_ANSWERS, type WebhookAnswer } from './webhook-answer.dto.js';
import {
  isCollectionTopic,
  isLifecycleTopic,
  isProductTopic,
  type WebhookHeaders,
  webhookHeaders,
} from './webhook-headers.js';

/**
 * ① `POST /webhooks/shopify`: verify, insert, answer; the enqueue follows off the answer's path
 * (no catalog or Shopify call). Each refusal has its own code; signed deliveries that cannot be
 * used are still kept.
 */
@ApiTags('webhooks')
@ApiExtraModels(...WEBHOOK_ANSWERS)
@Controller('webhooks')
export class WebhooksController {
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly settings: HttpSettings,
    private readonly shops: Shops,
    private readonly inbox: InboxService,
    private readonly lifecycle: ShopLifecycle,
    private readonly walks: ScopeWalkRequests,
  ) {}

  @Post('shopify')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'receiveShopifyWebhook',
    summary: 'Take a product delivery (create, update, delete), or an app lifecycle or compliance one',
    description:
      'Verifies and stores, then answers; the enqueue follows off the answer\'s path. See the README, "Intake", for every answer.',
  })
  @ApiSecurity('shopifyHmac')
  @ApiOkResponse({ description: 'Success', schema: WEBHOOK_ANSWER_SCHEMA })
  @ApiConnectorErrors(400, 401, 404, 413, 422, 503)
  async receive(
    @Req() req: ConnectorRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<WebhookAnswer> {
    requestIdOf(req, res);
    const headers = webhookHeaders(req);
    const shop = await this.shopOf(headers);
    const check = new SignatureCheck(shop.webhookSecrets);
    const body = await readSignedBody(req, check, this.settings.webhookBodyLimitBytes);
    if (check.verify(headers.hmac ?? '') < 0) {
      throw new ConnectorError(
        ConnectorErrorCode.INVALID_SIGNATURE,
        'The X-Shopify-Hmac-Sha256 signature does not match the body; nothing was stored.',
      );
    }
    assertStorableHeaders(headers);
    const topic = required(headers.topic, 'X-Shopify-Topic');
    const webhookId = required(headers.webhookId, 'X-Shopify-Webhook-Id');
    if (isLifecycleTopic(topic)) {
      const ignored = await this.lifecycle.handle(shop.domain, topic, triggeredAt(headers));
      // 200 either way: a delivery older than the current installation is Shopify's to stop retrying.
      if (ignored !== null)
        return { status: 'ignored', reason: 'before_installation', webhookId, topic, detail: ignored };
      return { status: 'processed', webhookId, topic };
    }
    if (isCollectionTopic(topic)) {
      // Not stored: the walk it asks for reads the collections; a lost one is made up by the schedule.
      return { status: 'collection', webhookId, walk: await this.walks.collectionChanged(shop.domain) };
    }
    if (!isProductTopic(topic)) {
      this.logger.warn(`Ignored a ${topic} delivery from ${shop.domain}: not a topic the connector handles`);
      return { status: 'ignored', reason: 'unsupported_topic', topic };
    }
    const result = await this.inbox.accept(verifiedDelivery(shop, headers, topic, webhookId, body));
    if (result.state === 'rejected')
      throw rejectionError(result.rejection, productPayloadFacts(body).rejection);
    if (result.status === 'duplicate') return { status: 'duplicate', webhookId };
    return { status: 'accepted', webhookId, queued: result.queued };
  }

  /** The delivery's shop; read again from the table on a miss (it installed the app on another replica). */
  private async shopOf(headers: WebhookHeaders): Promise<ShopConfig> {
    if (headers.hmac === undefined) {
      throw new ConnectorError(
        ConnectorErrorCode.MISSING_SIGNATURE,
        'The X-Shopify-Hmac-Sha256 header is missing.',
      );
    }
    const domain = required(headers.shopDomain, 'X-Shopify-Shop-Domain');
    const shop = this.shops.find(domain) ?? (await this.shops.findFresh(domain));
    if (!shop) {
      throw new ConnectorError(
        ConnectorErrorCode.UNKNOWN_SHOP,
        `This connector does not serve the shop ${domain}.`,
      );
    }
    return shop;
  }
}

/** The inbox row of a signed delivery: its headers, the facts of its payload, its raw bytes. */
function verifiedDelivery(
  shop: ShopConfig,
  headers: WebhookHeaders,
  topic: string,
  webhookId: string,
  body: SignedBody,
): VerifiedDelivery {
  const facts = productPayloadFacts(body);
  return {
    shop: shop.domain,
    webhookId,
    eventId: headers.eventId ?? null,
    triggeredAt: headers.triggeredAt ?? null,
    topic,
    apiVersion: headers.apiVersion ?? null,
    productId: facts.productId,
    payloadUpdatedAt: topic === 'products/delete' ? null : facts.payloadUpdatedAt,
    body: body.truncated ? null : body.bytes,
    bodyBytes: body.totalBytes,
    bodyTruncated: body.truncated,
    rejection: facts.rejection,
  };
}

/** `X-Shopify-Triggered-At` as a time; null when absent or unreadable (the delivery then applies). */
function triggeredAt(headers: WebhookHeaders): Date | null {
  const ms = headers.triggeredAt === undefined ? Number.NaN : Date.parse(headers.triggeredAt);
  return Number.isNaN(ms) ? null : new Date(ms);
}

function required(value: string | undefined, header: string): string {
  if (value === undefined) {
    throw new ConnectorError(ConnectorErrorCode.MISSING_HEADER, `The ${header} header is missing.`, {
      header,
    });
  }
  return value;
}

/** A kept-but-refused delivery's answer (the same when Shopify sends it again). */
function rejectionError(code: string | null, rejection: DeliveryRejection | null): ConnectorError {
  const message = rejection?.message ?? 'This delivery was kept but cannot be used.';
  const suffix = ' The delivery is kept in the inbox for an operator.';
  switch (code) {
    case 'malformed_json':
      return new ConnectorError(ConnectorErrorCode.MALFORMED_JSON, message + suffix);
    case 'payload_too_large':
      return new ConnectorError(ConnectorErrorCode.PAYLOAD_TOO_LARGE, message + suffix);
    default:
      return new ConnectorError(ConnectorErrorCode.INVALID_PAYLOAD, message + suffix);
  }
}
