/** Why a delivery did not land: the receiver down or busy (retried), or refusing it (not retried). */
export type AlertDeliveryErrorCode =
  | 'alert_receiver_unavailable'
  | 'alert_receiver_refused'
  | 'alert_target_unreadable';

/**
 * Why: a delivery's failure as the job guard reads it (`code`, `retryable`): a receiver that
 * does not answer, times out, or answers 5xx, 408 or 429 is retried with back-off (its outage
 * ends); one that answers another 4xx or a redirect is not (its URL or its check is wrong), and
 * goes to the failures inbox at once, to be replayed once it is fixed.
 */
export class AlertDeliveryError extends Error {
  constructor(
    readonly code: AlertDeliveryErrorCode,
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'AlertDeliveryError';
  }
}
