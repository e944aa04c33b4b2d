import { jobErrorInfo } from '../../platform/failures/job-error.js';

/**
 * Why: a poll covers every shop, but what fails is one shop's poll, for one cause. The error
 * names both, keeping the cause's code and retryability (the job guard decides on those), so the
 * failures inbox holds one failure per shop and cause (`poll:<code>`) however many polls fail.
 */
export class ShopPollFailed extends Error {
  readonly code: string;
  readonly retryable: boolean;

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

  /** The failures inbox subject: one per cause. */
  get subjectKey(): string {
    return `poll:${this.code}`;
  }
}
