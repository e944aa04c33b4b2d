/** One line of a chart: its name, colour and a value per minute (oldest first; null: none yet). */
export interface ChartSeries {
  name: string;
  colour: string;
  values: ReadonlyArray<number | null>;
}

/** Buckets timestamped counts into `minutes` per-minute slots ending at `now` (oldest first). */
export function perMinute(
  rows: ReadonlyArray<{ minute: Date; count: number }>,
  now: number,
  minutes: number,
): number[] {
  const slots = new Array<number>(minutes).fill(0);
  const last = Math.floor(now / 60_000);
  for (const row of rows) {
    const index = minutes - 1 - (last - Math.floor(row.minute.getTime() / 60_000));
    if (index >= 0 && index < minutes) slots[index] = (slots[index] ?? 0) + row.count;
  }
  return slots;
}
