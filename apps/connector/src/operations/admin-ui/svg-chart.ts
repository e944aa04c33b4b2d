import type { ChartSeries } from '../overview/per-minute.js';
import { esc } from './ui-html.js';

const WIDTH = 480;
const HEIGHT = 140;
const PAD = 24;

/**
 * Why: the pages run no script, so the overview's charts are drawn on the server: an inline SVG
 * of a few polylines over the same minutes, with a title and a description (the peak and the
 * total of each series) that a screen reader reads in place of the drawing.
 */
export function svgChart(id: string, title: string, series: readonly ChartSeries[]): string {
  const length = Math.max(1, ...series.map((s) => s.values.length));
  const peak = Math.max(1, ...series.flatMap((s) => s.values));
  const x = (i: number) => PAD + (length === 1 ? 0 : (i * (WIDTH - 2 * PAD)) / (length - 1));
  const y = (v: number) => HEIGHT - PAD - (v * (HEIGHT - 2 * PAD)) / peak;
  const lines = series
    .map(
      (s) =>
        `<polyline fill="none" stroke="${esc(s.colour)}" stroke-width="1.5" points="${s.values
          .map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`)
          .join(' ')}"/>`,
    )
    .join('');
  const desc = series
    .map((s) => `${s.name}: ${sum(s.values)} in all, at most ${Math.max(0, ...s.values)} a minute`)
    .join('; ');
  const legend = series
    .map(
      (s, i) =>
        `<text x="${PAD + i * 140}" y="14" font-size="11" fill="#1d2430"><tspan fill="${esc(s.colour)}">■</tspan> ${esc(s.name)}</text>`,
    )
    .join('');
  return `<svg role="img" aria-labelledby="${esc(id)}-t ${esc(id)}-d" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" xmlns="http://www.w3.org/2000/svg">
<title id="${esc(id)}-t">${esc(title)}</title><desc id="${esc(id)}-d">${esc(desc)}</desc>
<line x1="${PAD}" y1="${HEIGHT - PAD}" x2="${WIDTH - PAD}" y2="${HEIGHT - PAD}" stroke="#5a626e"/>
<text x="${PAD}" y="${HEIGHT - 6}" font-size="11" fill="#1d2430">24 h ago</text><text x="${WIDTH - PAD}" y="${HEIGHT - 6}" font-size="11" text-anchor="end" fill="#1d2430">now</text>
<text x="2" y="${PAD + 4}" font-size="11" fill="#1d2430">${peak}</text>${legend}${lines}</svg>`;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
