// Small helpers that turn measurements into the figures a benchmark reports.
import type { BenchResult } from './benchmark.js';

/** The value at quantile `q` (0..1) of `values` (nearest rank); NaN when empty. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

/** `a / b`, rounded to 3 decimals; null when b is 0 (the JSON line never holds Infinity or NaN). */
export function ratio(a: number, b: number): number | null {
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return null;
  return round(a / b, 3);
}

export function round(value: number, decimals = 1): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** A plain-text table, columns padded. */
export function formatTable(table: BenchResult['table']): string {
  const cells = [table.head, ...table.rows].map((row) =>
    row.map((cell) => (cell === null ? '-' : String(cell))),
  );
  const widths = table.head.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  return [
    line(cells[0] ?? []),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...cells.slice(1).map(line),
  ].join('\n');
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
