/** What the inbox made of a delivery, as the door answers it. */
export interface IntakeOutcome {
  /** `accepted`: stored now; `duplicate`: this webhook id was stored before (a replay). */
  status: 'accepted' | 'duplicate';
  /** The stored row's state: `rejected` rows are kept but refused (same answer on replays). */
  state: 'received' | 'done' | 'rejected';
  /** For rejected rows: why (`malformed_json`, `invalid_payload`, `payload_too_large`). */
  rejection: string | null;
  /**
   * Whether its sync job is queued or being queued: handed to the inbox's enqueue batches (the
   * answer does not wait for the queue), or queued already (a replay). false: stored, the
   * sweeper will queue it.
   */
  queued: boolean;
}
