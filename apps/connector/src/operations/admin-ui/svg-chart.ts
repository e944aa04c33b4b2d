import type { OverviewChart } from '../overview/chart-window.js';
import { minutes } from '../overview/shop-health.js';
import { esc } from './ui-html.js';

const WIDTH = 480;
const HEIGHT = 170;
const LEFT = 44;
const RIGHT = 12;
/** Above the plot: the legend, three series a row, and the unit. */
const LEGEND_ROW = 13;
const PER_ROW = 3;
const BOTTOM = 26;
const MINUTE = 60_000;

/**
 * The top of a chart's value axis: the smallest 1, 2 or 5 times a power of ten at or above
 * `peak` (1 for an empty chart), so the axis reads 0, half and that.
 */
export function niceCeiling(peak: number): number {
  if (!(peak > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(peak));
  for (const step of [1, 2, 5, 10]) if (step * power >= peak - 1e-9) return step * power;
  return 10 * power;
}

/** A value as an operator reads it: whole from 10 up, one decimal below ("65.838" reads "66"). */
export function roundedValue(value: number): string {
  if (Math.abs(value) >= 10) return String(Math.round(value));
  return String(Math.round(value * 10) / 10);
}

/** A duration chart's unit and divisor, chosen for its largest value (seconds in): s, min or h. */
export function durationUnit(peakSeconds: number): { unit: string; divisor: number } {
  if (peakSeconds < 120) return { unit: 's', divisor: 1 };
  if (peakSeconds < 7_200) return { unit: 'min', divisor: 60 };
  return { unit: 'h', divisor: 3_600 };
}

/** How long ago a point of the window is, for the time axis: "now", "35 min ago", "12 h ago". */
export function agoLabel(ms: number): string {
  if (ms < MINUTE) return 'now';
  if (ms < 120 * MINUTE) return `${Math.round(ms / MINUTE)} min ago`;
  return `${Math.round(ms / (60 * MINUTE))} h ago`;
}

/**
 * Why: the pages run no script, so the overview's charts are drawn on the server: an inline SVG
 * over the chart's window (`from` to now, a value a minute), a value axis in the chart's unit
 * (0, half, top, rounded) and a time axis (start, middle, now), a line per series broken where
 * it has no value, and a title and a description in words a screen reader reads instead.
 */
export function svgChart(chart: OverviewChart): string {
  const { id, title } = chart;
  const peakRaw = Math.max(
    0,
    ...chart.series.flatMap((s) => s.values.filter((v): v is number => v !== null)),
  );
  const { unit, divisor } =
    chart.measure === 'seconds' ? durationUnit(peakRaw) : { unit: chart.unit, divisor: 1 };
  const top = niceCeiling(peakRaw / divisor);
  const length = Math.max(1, ...chart.series.map((s) => s.values.length));
  const plotTop = 18 + LEGEND_ROW * Math.max(1, Math.ceil(chart.series.length / PER_ROW));
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - plotTop - BOTTOM;
  const x = (i: number) => LEFT + (length === 1 ? plotWidth : (i * plotWidth) / (length - 1));
  const y = (v: number) => plotTop + plotHeight - ((v / divisor) * plotHeight) / top;
  const lines = chart.series.map((s) => polylines(s.values, s.colour, x, y)).join('');
  const grid = [0, top / 2, top]
    .map((tick) => {
      const at = (plotTop + plotHeight - (tick * plotHeight) / top).toFixed(1);
      return `<line x1="${LEFT}" y1="${at}" x2="${WIDTH - RIGHT}" y2="${at}" stroke="${tick === 0 ? '#5a626e' : '#e3e6ea'}"/><text x="${LEFT - 4}" y="${Number(at) + 4}" font-size="11" text-anchor="end" fill="#1d2430">${esc(roundedValue(tick))}</text>`;
    })
    .join('');
  // Whole minutes, as the title counts them ("last 10 minutes" starts "10 min ago").
  const span = Math.ceil((chart.to - chart.from) / MINUTE) * MINUTE;
  const times = [
    [LEFT, 'start', agoLabel(span)],
    [LEFT + plotWidth / 2, 'middle', agoLabel(span / 2)],
    [WIDTH - RIGHT, 'end', 'now'],
  ] as const;
  const axis = times
    .map(
      ([at, anchor, label]) =>
        `<text x="${at}" y="${HEIGHT - 8}" font-size="11" text-anchor="${anchor}" fill="#1d2430">${esc(label)}</text>`,
    )
    .join('');
  const legend = chart.series
    .map(
      (s, i) =>
        `<text x="${LEFT + (i % PER_ROW) * 120}" y="${12 + LEGEND_ROW * Math.floor(i / PER_ROW)}" font-size="11" fill="#1d2430"><tspan fill="${esc(s.colour)}">■</tspan> ${esc(s.name)}</text>`,
    )
    .join('');
  const desc = describe(chart, unit, divisor);
  return `<svg role="img" aria-labelledby="${esc(id)}-t ${esc(id)}-d" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" xmlns="http://www.w3.org/2000/svg">
<title id="${esc(id)}-t">${esc(title)}</title><desc id="${esc(id)}-d">${esc(desc)}</desc>
${grid}<text x="${WIDTH - RIGHT}" y="12" font-size="11" text-anchor="end" fill="#1d2430" class="unit">${esc(unit)}</text>${legend}${axis}${lines}</svg>`;
}

/** One polyline per run of values, so a minute without a value leaves a gap rather than a zero. */
function polylines(
  values: ReadonlyArray<number | null>,
  colour: string,
  x: (i: number) => number,
  y: (v: number) => number,
): string {
  const runs: string[][] = [];
  let run: string[] = [];
  values.forEach((v, i) => {
    if (v === null) {
      if (run.length > 0) runs.push(run);
      run = [];
    } else run.push(`${x(i).toFixed(1)},${y(v).toFixed(1)}`);
  });
  if (run.length > 0) runs.push(run);
  return runs
    .map((points) => {
      // A lone value (the first poll just finished, say) is a dot: a line needs two.
      const [cx, cy] = (points[0] as string).split(',');
      return points.length === 1
        ? `<circle cx="${cx}" cy="${cy}" r="2.5" fill="${esc(colour)}"/>`
        : `<polyline fill="none" stroke="${esc(colour)}" stroke-width="1.5" points="${points.join(' ')}"/>`;
    })
    .join('');
}

/** The chart in words: each series' total and peak (counts), or its value now and peak (durations). */
function describe(chart: OverviewChart, unit: string, divisor: number): string {
  const shown = (v: number) => `${roundedValue(v / divisor)} ${unit}`;
  return chart.series
    .map((s) => {
      const known = s.values.filter((v): v is number => v !== null);
      const peak = Math.max(0, ...known);
      if (chart.measure === 'seconds') {
        // Durations in words as the overview's cards say them ("66 s", "3 min"): the same figure.
        const now = s.values.at(-1);
        return `${s.name}: ${now === null || now === undefined ? 'none yet' : `now ${minutes(now)}`}, at most ${minutes(peak)}`;
      }
      return `${s.name}: ${known.reduce((a, b) => a + b, 0)} in all, at most ${shown(peak)}`;
    })
    .join('; ');
}
