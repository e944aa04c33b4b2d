import { jobErrorInfo } from '../../platform/failures/job-error.js';

/** The failures inbox subject of a shop's enrichment poll (the cause is the failure's error code). */
export const POLL_SUBJECT = 'poll';

/**
 * Why: a poll covers every shop, but what fails is one shop's poll, for one cause. The error
 * names both, keeping the cause's code and retryability (the job guard decides on those), so the
 * failures inbox holds one failure per shop and cause (subject `poll`, the cause its code)
 * however many polls fail; and it names the shops the same poll did poll (`polled`), whose
 * failures that success resolves.
 */
export class ShopPollFailed extends Error {
  readonly code: string;
  readonly retryable: boolean;
  /** The shops this poll polled without error before it ended with this one. */
  polled: readonly string[] = [];

  constructor(
    readonly shop: string,
    override readonly cause: unknown,
  ) {
    const info = jobErrorInfo(cause);
    super(`${shop}: enrichment poll failed: ${info.message}`);
    this.name = 'ShopPollFailed';
    this.code = info.code;
    this.retryable = info.retryable;
  }

  /** The failures inbox subject: the shop's poll (one open failure per cause: the code). */
  get subjectKey(): string {
    return POLL_SUBJECT;
  }
}
