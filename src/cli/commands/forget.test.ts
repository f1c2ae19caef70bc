import { describe, expect, it } from 'vitest';
import { UsageError } from '../../core/errors.js';
import { parseBefore } from './forget-action.js';

describe('parseBefore', () => {
  it('reads dates as UTC midnight and date-times as UTC unless they name an offset', () => {
    expect(parseBefore('2026-11-20')).toBe(Date.UTC(2026, 10, 20));
    expect(parseBefore('2026-11-20T10:30')).toBe(Date.UTC(2026, 10, 20, 10, 30));
    expect(parseBefore('2026-11-20T10:30:15.5Z')).toBe(Date.UTC(2026, 10, 20, 10, 30, 15, 500));
    expect(parseBefore('2026-11-20T00:30+01:00')).toBe(Date.UTC(2026, 10, 19, 23, 30));
  });

  it('refuses what is not a calendar date', () => {
    for (const bad of ['2026-02-30', '2026-13-01', 'yesterday', '20261120', '2026-11-20 10:00', ''])
      expect(() => parseBefore(bad), bad).toThrow(UsageError);
  });
});
