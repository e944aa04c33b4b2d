import { toGid } from '../../common/gid.js';
import { graphqlTime } from '../../common/shop-time.js';
import type { WebhookSubscriptionRecord } from '../../webhooks/webhook-subscription.store.js';
import type { GraphQLObject } from '../admin-context.js';

/** A subscription as GraphQL `WebhookSubscription`. */
export function webhookSubscriptionNode(record: WebhookSubscriptionRecord): GraphQLObject {
  return {
    __typename: 'WebhookSubscription',
    id: toGid('WebhookSubscription', record.id),
    legacyResourceId: String(record.id),
    topic: record.topic,
    uri: record.uri,
    callbackUrl: record.uri,
    endpoint: { __typename: 'WebhookHttpEndpoint', callbackUrl: record.uri },
    format: 'JSON',
    name: record.name,
    filter: null,
    includeFields: [...record.includeFields],
    metafieldNamespaces: [...record.metafieldNamespaces],
    metafields: [],
    apiVersion: {
      __typename: 'ApiVersion',
      handle: record.apiVersion,
      displayName: record.apiVersion,
      supported: true,
    },
    createdAt: graphqlTime(record.createdAt),
    updatedAt: graphqlTime(record.updatedAt),
  };
}
