import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { cellNames, evaluateCase, parseAnswerPosition } from './evaluate.js';
import { isDateFormat, isTimedeltaFormat } from './workbook-cells.js';

let dir = '';
type Fill = (wb: ExcelJS.Workbook) => void;
async function book(name: string, fill: Fill): Promise<string> {
  const wb = new ExcelJS.Workbook();
  fill(wb);
  const file = path.join(dir, name);
  await wb.xlsx.writeFile(file);
  return file;
}

let gold = '';
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sos-sheet-eval-'));
  gold = await book('gold.xlsx', (wb) => {
    const ws = wb.addWorksheet('Report');
    ws.getCell('A1').value = 'Total';
    ws.getCell('B1').value = 42;
    ws.getCell('B2').value = 0.125;
    ws.getCell('C1').value = new Date(Date.UTC(2024, 4, 17, 12, 0, 0));
    ws.getCell('C1').numFmt = 'yyyy-mm-dd hh:mm';
    wb.addWorksheet('My Sheet').getCell('A1').value = 'x';
  });
});

describe("SpreadsheetBench's workbook comparison (hand-checked cases)", () => {
  it('reads ranges column by column, as the official generate_cell_names', () => {
    expect(cellNames('A1:B2')).toEqual(['A1', 'A2', 'B1', 'B2']);
    expect(cellNames('C3')).toEqual(['C3']);
    expect(cellNames('Z1:AB1')).toEqual(['Z1', 'AA1', 'AB1']);
    expect(parseAnswerPosition("'My Sheet'!A1,B2:B3", 'First')).toEqual([
      ['My Sheet', 'A1'],
      ['First', 'B2:B3'],
    ]);
  });

  it("decides dates and durations by openpyxl's reading of the number format", () => {
    expect(isDateFormat('yyyy-mm-dd')).toBe(true);
    expect(isDateFormat('[Red]0.00')).toBe(false);
    expect(isDateFormat('0.00 "days"')).toBe(false);
    expect(isDateFormat('General')).toBe(false);
    expect(isDateFormat('[h]:mm:ss')).toBe(true);
    expect(isTimedeltaFormat('[h]:mm:ss')).toBe(true);
    expect(isTimedeltaFormat('h:mm')).toBe(false);
  });

  it('passes a workbook whose answer cells equal the golden ones, in other types where they round alike', async () => {
    const produced = await book('same.xlsx', (wb) => {
      const ws = wb.addWorksheet('Report');
      ws.getCell('A1').value = 'Total';
      ws.getCell('B1').value = '42.00'; // a numeric string is compared as its number
      ws.getCell('B2').value = 0.12; // gold 0.125 rounds (half to even) to 0.12
      ws.getCell('C1').value = 45429; // not the golden date-time's rounded serial day (see below)
      wb.addWorksheet('My Sheet').getCell('A1').value = 'x';
    });
    // 2024-05-17 12:00 is serial 45429.5, which Python's round(x, 0) takes to the even 45430.
    const r = await evaluateCase(produced, gold, 'Report!A1:B2');
    expect(r).toEqual({ ok: true, reason: '' });
    expect((await evaluateCase(produced, gold, 'Report!C1')).ok).toBe(false);
    const even = await book('even.xlsx', (wb) => {
      wb.addWorksheet('Report').getCell('C1').value = 45430;
      wb.addWorksheet('My Sheet');
    });
    expect((await evaluateCase(even, gold, 'Report!C1')).ok).toBe(true);
  });

  it('fails on the first differing cell, a missing sheet or a missing file, and uses the first sheet for a bare range', async () => {
    const produced = await book('wrong.xlsx', (wb) => {
      const ws = wb.addWorksheet('Report');
      ws.getCell('A1').value = 'total';
      ws.getCell('B1').value = 42;
    });
    const r = await evaluateCase(produced, gold, 'A1:B1');
    expect(r.ok).toBe(false);
    expect(r.reason).toBe('Report!A1: got "total", expected "Total"');
    expect((await evaluateCase(produced, gold, 'B1')).ok).toBe(true);
    expect((await evaluateCase(produced, gold, "'My Sheet'!A1")).reason).toMatch(
      /worksheet "My Sheet" not found/,
    );
    expect((await evaluateCase(path.join(dir, 'absent.xlsx'), gold, 'B1')).ok).toBe(false);
  });

  it('reads a formula as its cached value (none when it has none) and a merged cell beyond the first as empty', async () => {
    const produced = await book('formulas.xlsx', (wb) => {
      const ws = wb.addWorksheet('Report');
      ws.getCell('A1').value = 'Total';
      ws.getCell('B1').value = { formula: 'SUM(40,2)', result: 42 };
      ws.getCell('B2').value = { formula: 'B1/336' }; // no cached value: openpyxl reads None
      ws.getCell('D1').value = 'kept';
      ws.mergeCells('D1:E1');
    });
    expect((await evaluateCase(produced, gold, 'Report!A1:B1')).ok).toBe(true);
    expect((await evaluateCase(produced, gold, 'Report!B2')).reason).toBe(
      'Report!B2: got empty, expected 0.125',
    );
    expect((await evaluateCase(produced, gold, 'Report!E1')).ok).toBe(true); // both empty
    expect((await evaluateCase(produced, gold, 'Report!D1')).ok).toBe(false);
  });
});
