import type { EnvReader } from '#lib/config';

const DAY_MS = 86_400_000;

/** Alerts on shop state changes, sent to the operators' targets (docs/alerts.md, "Alerts"). */
export interface AlertsConfig {
  /** How often the shops' states are looked at (one job per interval across replicas); 0: never. */
  checkIntervalMs: number;
  /** How long a new state must hold before it is sent, so a flap sends nothing. */
  debounceMs: number;
  /** Attempts of one delivery to one target before it lands in the failures inbox. */
  attempts: number;
  /** First retry delay of a delivery; doubles at each attempt. */
  backoffMs: number;
  /** How long one delivery waits for the target's answer. */
  timeoutMs: number;
  /** Deliveries older than this are deleted by the retention job. */
  historyMs: number;
}

/** The `CONNECTOR_ALERT_*` variables. */
export function readAlerts(read: EnvReader): AlertsConfig {
  return {
    checkIntervalMs: read.int('CONNECTOR_ALERT_CHECK_INTERVAL_MS', 30_000, { min: 0 }),
    debounceMs: read.int('CONNECTOR_ALERT_DEBOUNCE_MS', 120_000, { min: 0 }),
    attempts: read.int('CONNECTOR_ALERT_ATTEMPTS', 8, { min: 1, max: 100 }),
    backoffMs: read.int('CONNECTOR_ALERT_BACKOFF_MS', 10_000, { min: 1 }),
    timeoutMs: read.int('CONNECTOR_ALERT_TIMEOUT_MS', 10_000, { min: 100, max: 300_000 }),
    historyMs: Math.round(read.number('CONNECTOR_ALERT_HISTORY_DAYS', 30, { min: 0 }) * DAY_MS),
  };
}
