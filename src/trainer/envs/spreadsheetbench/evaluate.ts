/**
 * SpreadsheetBench's evaluation of one test case: the produced workbook's cells at `answer_position`
 * (comma-separated ranges, each `Sheet!A1:B2`, `'My Sheet'!C3` or, without a sheet, the golden
 * workbook's first sheet) against the golden workbook's, cell by cell (`cellsMatch`). As in the official
 * evaluator, a range is read by keeping the letters and the digits of its two ends, a missing sheet or
 * file fails the case, and a position that cannot be read fails it too (the official loop catches it).
 */
import { existsSync } from 'node:fs';
import { errorMessage } from '../../../core/errors.js';
import { cellsMatch, showCell } from './cell-value.js';
import { readWorkbookCells, type WorkbookCells } from './workbook-cells.js';

export interface CaseResult {
  ok: boolean;
  /** Why it failed (the first cell that differs), '' when it passed. */
  reason: string;
}

/** `A` → 1 … `Z` → 26, `AA` → 27, by character codes as the official `col_name2num` (no case folding). */
const colNum = (name: string): number => [...name].reduce((n, c) => n * 26 + (c.charCodeAt(0) - 64), 0);

function colName(n: number): string {
  let name = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) name = String.fromCharCode(65 + ((k - 1) % 26)) + name;
  return name;
}

const MAX_CELLS = 2_000_000;

/** The cell names of a range, column by column, as the official `generate_cell_names`. */
export function cellNames(range: string): string[] {
  if (!range.includes(':')) return [range];
  const [start = '', end = '', ...rest] = range.split(':');
  if (rest.length > 0) throw new Error(`range "${range}" has more than one ":"`);
  const letters = (s: string): string => [...s].filter((c) => /\p{L}/u.test(c)).join('');
  const digits = (s: string): string => [...s].filter((c) => /\d/.test(c)).join('');
  const [sc, ec] = [colNum(letters(start)), colNum(letters(end))];
  const [sr, er] = [Number.parseInt(digits(start), 10), Number.parseInt(digits(end), 10)];
  if (!Number.isFinite(sr) || !Number.isFinite(er)) throw new Error(`range "${range}" has no row number`);
  if ((ec - sc + 1) * (er - sr + 1) > MAX_CELLS) throw new Error(`range "${range}" is too large`);
  const names: string[] = [];
  for (let c = sc; c <= ec; c++) for (let r = sr; r <= er; r++) names.push(`${colName(c)}${r}`);
  return names;
}

/** openpyxl's `ws["$a$1"]`: a single cell may carry `$` and lower-case letters. */
const normalizeAddress = (name: string): string => name.replace(/\$/g, '').toUpperCase();

/** `answer_position` as (sheet, range) pairs; a piece without `!` is on the golden's first sheet. */
export function parseAnswerPosition(position: string, firstSheet: string): Array<[string, string]> {
  return position.split(',').map((piece) => {
    const bang = piece.split('!');
    if (bang.length > 2) throw new Error(`position "${piece}" has more than one "!"`);
    const [sheet, range] = bang.length === 2 ? [bang[0] ?? '', bang[1] ?? ''] : [firstSheet, piece];
    return [sheet.replace(/^'+|'+$/g, ''), range.replace(/^'+|'+$/g, '')];
  });
}

export function compareCells(
  gold: WorkbookCells,
  produced: WorkbookCells,
  answerPosition: string,
): CaseResult {
  let first = '';
  let ok = true;
  for (const [sheet, range] of parseAnswerPosition(answerPosition, gold.sheetNames[0] ?? '')) {
    // The official evaluator indexes the golden sheet unguarded: a missing one raises, failing the case.
    if (!gold.sheetNames.includes(sheet)) {
      ok = false;
      first ||= `worksheet "${sheet}" not found in the golden workbook`;
      continue;
    }
    if (!produced.sheetNames.includes(sheet)) {
      ok = false;
      first ||= `worksheet "${sheet}" not found in the produced workbook`;
      continue;
    }
    for (const name of cellNames(range)) {
      const address = normalizeAddress(name);
      const g = gold.cell(sheet, address) ?? { kind: 'empty' as const };
      const p = produced.cell(sheet, address) ?? { kind: 'empty' as const };
      if (!cellsMatch(g, p)) {
        ok = false;
        first ||= `${sheet}!${address}: got ${showCell(p)}, expected ${showCell(g)}`;
        break;
      }
    }
  }
  return { ok, reason: first };
}

/** One test case: the produced workbook (which may not exist) against the golden one. */
export async function evaluateCase(
  producedFile: string,
  goldFile: string,
  answerPosition: string,
): Promise<CaseResult> {
  if (!existsSync(producedFile)) return { ok: false, reason: 'no output workbook was written' };
  try {
    const [gold, produced] = await Promise.all([
      readWorkbookCells(goldFile),
      readWorkbookCells(producedFile),
    ]);
    return compareCells(gold, produced, answerPosition);
  } catch (err) {
    return { ok: false, reason: `cannot compare: ${errorMessage(err)}` };
  }
}
