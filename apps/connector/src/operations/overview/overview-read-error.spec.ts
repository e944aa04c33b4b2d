import { describe, expect, it } from 'vitest';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { overviewReadError } from './shop-states.service.js';

describe("an overview read's error", () => {
  it('is the outage (503 storage_unavailable) when any read lost its PostgreSQL connection', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    for (const lost of [reset, new Error('Connection terminated unexpectedly')]) {
      const answered = overviewReadError(lost);
      expect(answered).toBeInstanceOf(ConnectorError);
      expect(answered).toMatchObject({ code: 'storage_unavailable' });
    }
  });

  it('stays as it was otherwise (a bad statement, or the outage already said)', () => {
    const bad = new Error('column "x" does not exist');
    expect(overviewReadError(bad)).toBe(bad);
    const said = overviewReadError(new Error('read ECONNRESET'));
    expect(overviewReadError(said)).toBe(said);
  });
});
