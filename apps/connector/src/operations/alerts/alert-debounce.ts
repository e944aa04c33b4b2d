/** What the alerts remember of a shop between two looks: the state last sent, and a departure from it. */
export interface AlertMemory {
  /** The state the targets were last told (`healthy` for a shop never sent). */
  notifiedState: string;
  /** The latest state seen that differs from the notified one; null: none since the last look. */
  pendingState: string | null;
  /** When the shop left the notified state (ms), without coming back since; null with no pending state. */
  pendingSince: number | null;
}

/** A change to send: from the notified state to the one seen now, away since `since`. */
export interface AlertChange {
  from: string;
  to: string;
  since: number;
}

/** The memory after a look, and the change to send, if one is due. */
export interface DebounceOutcome {
  memory: AlertMemory;
  change: AlertChange | null;
}

/** A shop the alerts never looked at is taken as healthy: a shop first seen failing is sent, one seen healthy is not. */
export const FIRST_MEMORY: AlertMemory = { notifiedState: 'healthy', pendingState: null, pendingSince: null };

/**
 * Why: a state change is sent once, and only once it has held: a shop away from the state last
 * sent for `debounceMs` without a break (by the injected clock) is sent as the state it is in at
 * that look; a shop back in the notified state before then (a flap) sends nothing and starts
 * over. A shop that goes from degraded to failing while away counts from when it left, so a shop
 * bouncing between two bad states is still reported. Pure: the scheduled look applies it to each
 * shop (`AlertWatch`), and its spec drives every case.
 */
export function debounce(
  memory: AlertMemory | null,
  seen: string,
  now: number,
  debounceMs: number,
): DebounceOutcome {
  const before = memory ?? FIRST_MEMORY;
  if (seen === before.notifiedState) {
    return {
      memory: { notifiedState: before.notifiedState, pendingState: null, pendingSince: null },
      change: null,
    };
  }
  const since = before.pendingSince ?? now;
  if (now - since >= debounceMs) {
    return {
      memory: { notifiedState: seen, pendingState: null, pendingSince: null },
      change: { from: before.notifiedState, to: seen, since },
    };
  }
  return {
    memory: { notifiedState: before.notifiedState, pendingState: seen, pendingSince: since },
    change: null,
  };
}
