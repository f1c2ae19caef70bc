import { describe, expect, it } from 'vitest';
import { cellsMatch, pyFloat, pyRound, type CellValue } from './cell-value.js';

const num = (value: number): CellValue => ({ kind: 'number', value });
const str = (value: string): CellValue => ({ kind: 'string', value });
const empty: CellValue = { kind: 'empty' };

describe("SpreadsheetBench's cell comparison (hand-checked against Python's semantics)", () => {
  it("rounds as Python's round(x, 2): the exact binary value, exact ties to even", () => {
    expect(pyRound(2.675, 2)).toBe(2.67); // 2.67499999... in binary
    expect(pyRound(0.125, 2)).toBe(0.12); // an exact tie: to even (JavaScript's toFixed gives 0.13)
    expect(pyRound(0.375, 2)).toBe(0.38);
    expect(pyRound(-0.125, 2)).toBe(-0.12);
    expect(pyRound(1.005, 2)).toBe(1); // 1.00499999...
    expect(pyRound(45000.5, 0)).toBe(45000);
    expect(pyRound(45001.5, 0)).toBe(45002);
    expect(pyRound(Infinity, 2)).toBe(Infinity);
  });

  it("parses strings as Python's float(): underscores, inf and nan, surrounding spaces; no hex, no empty", () => {
    expect(pyFloat(' 12.5 ')).toBe(12.5);
    expect(pyFloat('1_000')).toBe(1000);
    expect(pyFloat('1e3')).toBe(1000);
    expect(pyFloat('.5')).toBe(0.5);
    expect(pyFloat('5.')).toBe(5);
    expect(pyFloat('-Infinity')).toBe(-Infinity);
    expect(Number.isNaN(pyFloat('nan'))).toBe(true);
    for (const bad of ['', '0x10', '1,000', '1__0', '_1', '12abc', '$5'])
      expect(pyFloat(bad)).toBeUndefined();
  });

  it('compares numbers and numeric strings after rounding to 2 decimals', () => {
    expect(cellsMatch(num(3.14159), str('3.14'))).toBe(true);
    expect(cellsMatch(num(5), str('5.001'))).toBe(true);
    expect(cellsMatch(num(0.125), num(0.13))).toBe(false);
    expect(cellsMatch(num(0.125), num(0.12))).toBe(true);
    expect(cellsMatch(num(1000), str('1_000'))).toBe(true);
    expect(cellsMatch(num(16), str('0x10'))).toBe(false);
    expect(cellsMatch(str('inf'), str('Infinity'))).toBe(true);
    expect(cellsMatch(str('nan'), str('nan'))).toBe(false); // nan != nan
  });

  it('treats "" and an empty cell as equal, and nothing else as empty', () => {
    expect(cellsMatch(empty, str(''))).toBe(true);
    expect(cellsMatch(str(''), empty)).toBe(true);
    expect(cellsMatch(empty, empty)).toBe(true);
    expect(cellsMatch(empty, str(' '))).toBe(false);
    expect(cellsMatch(empty, num(0))).toBe(false);
  });

  it('compares strings exactly and never across types', () => {
    expect(cellsMatch(str('abc'), str('ABC'))).toBe(false);
    expect(cellsMatch(str('abc'), str('abc'))).toBe(true);
    expect(cellsMatch(str('abc'), num(1))).toBe(false);
  });

  it('reads booleans as Python ints (True is 1.0), dates as rounded serial days, times as HH:MM', () => {
    expect(cellsMatch({ kind: 'boolean', value: true }, num(1))).toBe(true);
    expect(cellsMatch({ kind: 'boolean', value: true }, str('1'))).toBe(true);
    expect(cellsMatch({ kind: 'boolean', value: false }, str('FALSE'))).toBe(false);
    expect(cellsMatch({ kind: 'datetime', serial: 45000.5 }, num(45000))).toBe(true);
    expect(cellsMatch({ kind: 'datetime', serial: 45000.75 }, num(45001))).toBe(true);
    expect(cellsMatch({ kind: 'time', ms: 12 * 3_600_000 }, str('12:00'))).toBe(true);
    expect(cellsMatch({ kind: 'time', ms: 12 * 3_600_000 + 500 }, str('12:00:00.500'))).toBe(true);
    expect(cellsMatch({ kind: 'duration', ms: 5000 }, { kind: 'duration', ms: 5000 })).toBe(true);
    expect(cellsMatch({ kind: 'duration', ms: 5000 }, num(5000))).toBe(false);
  });
});
