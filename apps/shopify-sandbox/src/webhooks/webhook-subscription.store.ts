export interface WebhookSubscriptionRecord {
  id: number;
  /** GraphQL enum name, e.g. `PRODUCTS_UPDATE`. */
  topic: string;
  uri: string;
  name: string | null;
  includeFields: string[];
  metafieldNamespaces: string[];
  apiVersion: string;
  /** The app that created it through the Admin API (the default app when absent); its secret signs. */
  clientId?: string;
  createdAt: number;
  updatedAt: number;
}

/** One shop's webhook subscriptions, in creation order. */
export class WebhookSubscriptionStore {
  private readonly subscriptions = new Map<number, WebhookSubscriptionRecord>();

  list(): WebhookSubscriptionRecord[] {
    return [...this.subscriptions.values()];
  }

  get(id: number): WebhookSubscriptionRecord | undefined {
    return this.subscriptions.get(id);
  }

  forTopic(topic: string): WebhookSubscriptionRecord[] {
    return this.list().filter((s) => s.topic === topic);
  }

  put(record: WebhookSubscriptionRecord): void {
    this.subscriptions.set(record.id, record);
  }

  delete(id: number): boolean {
    return this.subscriptions.delete(id);
  }
}

/** `PRODUCTS_UPDATE` → `products/update`, the form of `X-Shopify-Topic`. */
export function topicHeader(topic: string): string {
  const at = topic.indexOf('_');
  return at < 0 ? topic.toLowerCase() : `${topic.slice(0, at)}/${topic.slice(at + 1)}`.toLowerCase();
}
