import { describe, expect, it } from 'vitest';
import { svgChart } from './svg-chart.js';

describe('svgChart', () => {
  it('draws one polyline per series with a title and a description, escaping names', () => {
    const svg = svgChart('c1', 'Deliveries <24 h>', [
      { name: 'received', colour: '#0b4fb3', values: [0, 2, 4] },
      { name: 'a&b', colour: '#a4161a', values: [1, 1, 1] },
    ]);
    expect(svg).toContain('role="img"');
    expect(svg).toContain('<title id="c1-t">Deliveries &lt;24 h&gt;</title>');
    expect(svg).toContain('received: 6 in all, at most 4 a minute; a&amp;b: 3 in all, at most 1 a minute');
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    // The peak touches the top padding, zero the axis.
    expect(svg).toContain('points="24.0,116.0 240.0,70.0 456.0,24.0"');
    expect(svg).not.toContain('<script');
  });

  it('draws an empty series without dividing by zero', () => {
    const svg = svgChart('c2', 'Nothing', [{ name: 'none', colour: '#000', values: [] }]);
    expect(svg).toContain('none: 0 in all, at most 0 a minute');
    expect(svg).not.toContain('NaN');
  });
});
