import { parseGid, toGid } from '../../common/gid.js';
import type { WebhookSubscriptionRecord } from '../../webhooks/webhook-subscription.store.js';
import type { AdminContext } from '../admin-context.js';
import { webhookSubscriptionNode } from './webhook-subscription-view.js';

interface WebhookSubscriptionInput {
  uri?: string | null;
  callbackUrl?: string | null;
  format?: string | null;
  includeFields?: string[] | null;
  metafieldNamespaces?: string[] | null;
  name?: string | null;
  filter?: string | null;
  metafields?: unknown[] | null;
}

/** Webhook subscriptions, managed as a real app manages them. Only `products/*` topics ever fire. */
export const webhookSubscriptionMutations = {
  webhookSubscriptionCreate: (
    args: { topic: string; webhookSubscription: WebhookSubscriptionInput },
    ctx: AdminContext,
  ) => {
    const input = args.webhookSubscription;
    const uri = input.uri ?? input.callbackUrl;
    const errors = inputErrors(input, uri);
    if (!errors.length && ctx.shop.subscriptions.forTopic(args.topic).some((s) => s.uri === uri)) {
      errors.push({
        field: ['webhookSubscription', 'callbackUrl'],
        message: 'Address for this topic has already been taken',
      });
    }
    if (errors.length > 0) return { webhookSubscription: null, userErrors: errors };
    const now = ctx.clock.now();
    const record: WebhookSubscriptionRecord = {
      id: ctx.shop.ids.take(),
      topic: args.topic,
      uri: uri as string,
      name: input.name ?? null,
      includeFields: input.includeFields ?? [],
      metafieldNamespaces: input.metafieldNamespaces ?? [],
      apiVersion: ctx.webhookApiVersion,
      clientId: ctx.clientId,
      createdAt: now,
      updatedAt: now,
    };
    ctx.shop.subscriptions.put(record);
    return { webhookSubscription: webhookSubscriptionNode(record), userErrors: [] };
  },
  webhookSubscriptionUpdate: (
    args: { id: string; webhookSubscription: WebhookSubscriptionInput },
    ctx: AdminContext,
  ) => {
    const id = parseGid(args.id, 'WebhookSubscription');
    const record = id === undefined ? undefined : ctx.shop.subscriptions.get(id);
    if (!record)
      return {
        webhookSubscription: null,
        userErrors: [{ field: ['id'], message: 'Webhook subscription does not exist' }],
      };
    const input = args.webhookSubscription;
    const uri = input.uri ?? input.callbackUrl ?? record.uri;
    const errors = inputErrors(input, uri);
    if (errors.length > 0) return { webhookSubscription: null, userErrors: errors };
    const updated: WebhookSubscriptionRecord = {
      ...record,
      uri,
      name: input.name !== undefined ? input.name : record.name,
      includeFields: input.includeFields ?? record.includeFields,
      metafieldNamespaces: input.metafieldNamespaces ?? record.metafieldNamespaces,
      updatedAt: ctx.clock.now(),
    };
    ctx.shop.subscriptions.put(updated);
    return { webhookSubscription: webhookSubscriptionNode(updated), userErrors: [] };
  },
  webhookSubscriptionDelete: (args: { id: string }, ctx: AdminContext) => {
    const id = parseGid(args.id, 'WebhookSubscription');
    if (id === undefined || !ctx.shop.subscriptions.delete(id)) {
      return {
        deletedWebhookSubscriptionId: null,
        userErrors: [{ field: ['id'], message: 'Webhook subscription does not exist' }],
      };
    }
    return { deletedWebhookSubscriptionId: toGid('WebhookSubscription', id), userErrors: [] };
  },
};

function inputErrors(input: WebhookSubscriptionInput, uri: string | null | undefined) {
  const errors: Array<{ field: string[]; message: string }> = [];
  const field = input.uri != null ? 'uri' : 'callbackUrl';
  if (!uri) errors.push({ field: ['webhookSubscription', field], message: "Address can't be blank" });
  else if (!/^https?:\/\//.test(uri) || !URL.canParse(uri)) {
    errors.push({
      field: ['webhookSubscription', field],
      message: 'Address is invalid (shopify-sandbox delivers to http(s) URLs only)',
    });
  }
  if (input.format && input.format !== 'JSON') {
    errors.push({ field: ['webhookSubscription', 'format'], message: 'shopify-sandbox delivers JSON only' });
  }
  if (input.filter)
    errors.push({
      field: ['webhookSubscription', 'filter'],
      message: 'filter is not implemented by shopify-sandbox',
    });
  if (input.metafields?.length) {
    errors.push({
      field: ['webhookSubscription', 'metafields'],
      message: 'metafields is not implemented by shopify-sandbox; use metafieldNamespaces',
    });
  }
  return errors;
}
