import { Injectable } from '@nestjs/common';

/** The product a push step is about. */
export interface PushSubject {
  shop: string;
  productId: string;
}

/**
 * Test seams of the push job (no-ops in production): a test replaces a method on the instance
 * (`app.get(EnrichmentHooks)`) to stop a run between recording its intent and writing, or
 * between writing and recording the outcome, as a crash would.
 */
@Injectable()
export class EnrichmentHooks {
  /** Called after the intents are committed, before any Shopify write. */
  async afterIntent(_subject: PushSubject): Promise<void> {}

  /** Called after the Shopify writes, before their outcomes are committed. */
  async afterWrite(_subject: PushSubject): Promise<void> {}
}
