/**
 * Faults applied to one shop's webhook deliveries, for robustness tests. All off by default.
 * Random choices come from a generator seeded with `seed`, so a test sees the same run twice.
 */
export interface DeliveryFaults {
  /** Probability (0..1) that a delivery is sent twice, with the same webhook and event ids. */
  duplicate: number;
  /** Deliveries are sent in swapped pairs: each one waits for the next (or `reorderWindowMs`). */
  reorder: boolean;
  /** How long a lone delivery waits for a partner before it goes out alone. */
  reorderWindowMs: number;
  /** Extra wait before the first attempt of every delivery. */
  delayMs: number;
  /** Probability (0..1) that a delivery is never sent (logged as `dropped`). */
  drop: number;
  seed: number;
}

export const NO_FAULTS: DeliveryFaults = {
  duplicate: 0,
  reorder: false,
  reorderWindowMs: 1_000,
  delayMs: 0,
  drop: 0,
  seed: 1,
};

/** Merges a control-API body onto `current`; returns problems instead when it is invalid. */
export function parseDeliveryFaults(
  body: unknown,
  current: DeliveryFaults,
): { faults: DeliveryFaults } | { problems: string[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { problems: ['body must be a JSON object'] };
  }
  const input = body as Record<string, unknown>;
  const problems: string[] = [];
  const faults = { ...current };
  for (const [key, value] of Object.entries(input)) {
    switch (key) {
      case 'duplicate':
      case 'drop':
        if (typeof value === 'number' && value >= 0 && value <= 1) faults[key] = value;
        else problems.push(`${key} must be a probability between 0 and 1`);
        break;
      case 'delayMs':
      case 'reorderWindowMs':
      case 'seed':
        if (typeof value === 'number' && Number.isInteger(value) && value >= 0) faults[key] = value;
        else problems.push(`${key} must be a non-negative integer`);
        break;
      case 'reorder':
        if (typeof value === 'boolean') faults.reorder = value;
        else problems.push('reorder must be true or false');
        break;
      default:
        problems.push(
          `unknown fault "${key}" (known: duplicate, drop, delayMs, reorder, reorderWindowMs, seed)`,
        );
    }
  }
  return problems.length > 0 ? { problems } : { faults };
}
