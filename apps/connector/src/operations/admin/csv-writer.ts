/** One CSV cell's value: text, a number, or nothing (an empty cell). */
export type CsvCell = string | number | null | undefined;

/**
 * Why: a spreadsheet runs a cell that begins with `=`, `+`, `-` or `@` (and a tab or a carriage
 * return before one) as a formula; text that came from Shopify, the catalog or an error message
 * must open as text. Such a cell gets a leading `'`.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Why: every CSV download (a shadow shop's preview, a run's error report) is written one way:
 * RFC 4180 (a cell holding a comma, a quote or a line break is quoted, its quotes doubled) with
 * text cells that a spreadsheet could run as a formula defused. Numbers are written as they are.
 */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A whole CSV file: the header, then each row, every line ended by CRLF. */
export function csvText(header: readonly string[], rows: ReadonlyArray<readonly CsvCell[]>): string {
  return [header, ...rows].map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}
