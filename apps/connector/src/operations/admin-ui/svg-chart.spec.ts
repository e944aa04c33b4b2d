import { describe, expect, it } from 'vitest';
import type { OverviewChart } from '../overview/chart-window.js';
import { agoLabel, durationUnit, niceCeiling, roundedValue, svgChart } from './svg-chart.js';

const NOW = Date.parse('2026-05-01T12:00:30Z');
const chart = (over: Partial<OverviewChart>): OverviewChart => ({
  id: 'c1',
  title: 'Deliveries <per minute>',
  href: '/x',
  measure: 'count',
  unit: 'deliveries/min',
  from: NOW - 30_000 - 34 * 60_000,
  to: NOW,
  series: [],
  ...over,
});

describe('svgChart', () => {
  it('draws one polyline per series with a title and a description, escaping names', () => {
    const svg = svgChart(
      chart({
        series: [
          { name: 'received', colour: '#0b4fb3', values: [0, 2, 4] },
          { name: 'a&b', colour: '#a4161a', values: [1, 1, 1] },
        ],
      }),
    );
    expect(svg).toContain('role="img"');
    expect(svg).toContain('<title id="c1-t">Deliveries &lt;per minute&gt;</title>');
    expect(svg).toContain(
      'received: 6 in all, at most 4 deliveries/min; a&amp;b: 3 in all, at most 1 deliveries/min',
    );
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(svg).not.toContain('<script');
  });

  it('labels its axes: the unit, 0, half and a rounded top, and the window from its start to now', () => {
    const svg = svgChart(chart({ series: [{ name: 'calls', colour: '#000', values: [0, 3, 7] }] }));
    expect(svg).toContain('class="unit">deliveries/min</text>');
    // The top of the value axis is 10 (7 rounded up to 1, 2 or 5 times a power of ten), then 5 and 0.
    const ticks = [...svg.matchAll(/text-anchor="end" fill="#1d2430">([^<]+)<\/text>/g)].map((m) => m[1]);
    expect(ticks).toEqual(['0', '5', '10', 'now']);
    expect(svg).toContain('>35 min ago</text>');
    expect(svg).toContain('>18 min ago</text>');
    expect(svg).toContain('>now</text>');
    expect(svg).not.toContain('24 h ago');
  });

  it('draws a duration in a unit that fits, rounded, with its value now; no line before the first value', () => {
    const svg = svgChart(
      chart({
        measure: 'seconds',
        unit: 's',
        series: [{ name: 'lag', colour: '#000', values: [null, null, 65.838, 125.838, 185.838] }],
      }),
    );
    expect(svg).toContain('class="unit">min</text>');
    expect(svg).toContain('lag: now 3 min, at most 3 min');
    expect(svg).not.toContain('65.838');
    // One polyline over the three minutes with a value, none across the two without.
    expect(svg.match(/<polyline/g)).toHaveLength(1);
    expect(svg.match(/points="([^"]+)"/)?.[1]?.split(' ')).toHaveLength(3);
    const short = svgChart(
      chart({ measure: 'seconds', unit: 's', series: [{ name: 'lag', colour: '#000', values: [null] }] }),
    );
    expect(short).toContain('lag: none yet');
  });

  it('draws an empty series without dividing by zero', () => {
    const svg = svgChart(chart({ series: [{ name: 'none', colour: '#000', values: [] }] }));
    expect(svg).toContain('none: 0 in all, at most 0 deliveries/min');
    expect(svg).not.toContain('NaN');
  });
});

describe('chart numbers', () => {
  it('rounds the value axis up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 0.3, 1, 3, 7, 12, 65.838, 200, 201].map(niceCeiling)).toEqual([
      1, 0.5, 1, 5, 10, 20, 100, 200, 500,
    ]);
  });

  it('shows values whole from 10 up, with one decimal below', () => {
    expect([65.838, 10.4, 9.96, 2.25, 0.04, 0].map(roundedValue)).toEqual([
      '66',
      '10',
      '10',
      '2.3',
      '0',
      '0',
    ]);
  });

  it('picks seconds, minutes or hours for a duration', () => {
    expect(durationUnit(90)).toEqual({ unit: 's', divisor: 1 });
    expect(durationUnit(600)).toEqual({ unit: 'min', divisor: 60 });
    expect(durationUnit(3 * 3600)).toEqual({ unit: 'h', divisor: 3600 });
  });

  it('says how long ago a point of the window is', () => {
    expect([0, 35 * 60_000, 119 * 60_000, 24 * 3_600_000].map(agoLabel)).toEqual([
      'now',
      '35 min ago',
      '119 min ago',
      '24 h ago',
    ]);
  });
});
