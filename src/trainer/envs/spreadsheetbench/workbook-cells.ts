/**
 * Reads a workbook's cells as openpyxl does with `data_only=True` (what SpreadsheetBench's evaluator
 * loads): a formula cell is its cached result, a cell inside a merged range (not its top-left) is empty,
 * and whether a number is a date, a time or a duration is decided by openpyxl's reading of the number
 * format, not exceljs's (the two differ on some formats).
 */
import type ExcelJS from 'exceljs';
import { InputError, errorMessage } from '../../../core/errors.js';
import type { CellValue } from './cell-value.js';

const DAY_MS = 86_400_000;
/** Days from Excel's 1899-12-30 to 1970-01-01 (exceljs's own offset when it made a Date). */
const UNIX_EPOCH_SERIAL = 25569;
const MAC_EPOCH_OFFSET = 1462;

// openpyxl's number-format tests (openpyxl/styles/numbers.py): quoted text and bracketed groups other
// than [h] [mm] [ss] are ignored; only the first section (before ";") counts.
const STRIP_RE = /"[^"]*"|\[(?!hh?\]|mm?\]|ss?\])[^\]]*\]/g;
const DATE_CHAR_RE = /(?<![_\\])[dmhysDMHYS]/;
const TIMEDELTA_RE = /^(?:\[hh?\](?::mm(?::ss(?:\.0*)?)?)?|\[mm?\](?::ss(?:\.0*)?)?|\[ss?\](?:\.0*)?)/i;

export function isDateFormat(fmt: string | undefined): boolean {
  if (!fmt) return false;
  const first = (fmt.split(';')[0] ?? '').replace(STRIP_RE, '');
  return DATE_CHAR_RE.test(first);
}

export function isTimedeltaFormat(fmt: string | undefined): boolean {
  if (!fmt) return false;
  return TIMEDELTA_RE.test(fmt.split(';')[0] ?? '');
}

/** openpyxl's `from_excel` followed by the evaluator's `datetime_to_float` (which drops the microseconds). */
export function fromSerial(serial: number, fmt: string, date1904: boolean): CellValue {
  if (isTimedeltaFormat(fmt)) return { kind: 'duration', ms: Math.round(serial * DAY_MS) };
  const day = Math.floor(serial);
  const fracMs = Math.round((serial - day) * DAY_MS);
  if (serial >= 0 && serial < 1 && fracMs < DAY_MS) return { kind: 'time', ms: fracMs };
  // openpyxl's 1900 epoch skips Excel's phantom 29 February 1900 below serial 60.
  const shifted = date1904 ? day + MAC_EPOCH_OFFSET : serial > 0 && serial < 60 ? day + 1 : day;
  const seconds = Math.floor(fracMs / 1000);
  return { kind: 'datetime', serial: shifted + seconds / 86_400 };
}

type Raw = ExcelJS.CellValue | undefined;

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !(v instanceof Date);
}

function richText(v: unknown): string | undefined {
  if (isObject(v) && Array.isArray(v.richText))
    return (v.richText as Array<{ text?: unknown }>)
      .map((r) => (typeof r.text === 'string' ? r.text : ''))
      .join('');
  return undefined;
}

/** One exceljs value (or a formula's cached result) as openpyxl would have returned it. */
export function toCellValue(raw: Raw, fmt: string, date1904: boolean): CellValue {
  if (raw === null || raw === undefined) return { kind: 'empty' };
  if (typeof raw === 'number')
    return isDateFormat(fmt) ? fromSerial(raw, fmt, date1904) : { kind: 'number', value: raw };
  if (typeof raw === 'string') return { kind: 'string', value: raw };
  if (typeof raw === 'boolean') return { kind: 'boolean', value: raw };
  if (raw instanceof Date) {
    // exceljs turned a date-formatted number into a Date: back to the serial it read.
    const serial = raw.getTime() / DAY_MS + UNIX_EPOCH_SERIAL - (date1904 ? MAC_EPOCH_OFFSET : 0);
    return isDateFormat(fmt) ? fromSerial(serial, fmt, date1904) : { kind: 'number', value: serial };
  }
  if ('formula' in raw || 'sharedFormula' in raw) return toCellValue(raw.result, fmt, date1904);
  if ('error' in raw) return { kind: 'string', value: String(raw.error) };
  const rich = richText(raw);
  if (rich !== undefined) return { kind: 'string', value: rich };
  if ('hyperlink' in raw) {
    const text: unknown = raw.text;
    return { kind: 'string', value: typeof text === 'string' ? text : (richText(text) ?? '') };
  }
  return { kind: 'empty' };
}

export interface WorkbookCells {
  sheetNames: string[];
  /** The cell's value, or undefined when the workbook has no such sheet. */
  cell(sheet: string, address: string): CellValue | undefined;
}

export async function readWorkbookCells(file: string): Promise<WorkbookCells> {
  // Loaded on first use: `train` on any other environment does not pay for it (about 150 ms).
  const { default: excel } = await import('exceljs');
  const wb = new excel.Workbook();
  try {
    await wb.xlsx.readFile(file);
  } catch (err) {
    throw new InputError(`${file}: cannot read the workbook: ${errorMessage(err)}`);
  }
  const date1904 = wb.properties.date1904 === true;
  return {
    sheetNames: wb.worksheets.map((ws) => ws.name),
    cell(sheet, address) {
      const ws = wb.getWorksheet(sheet);
      if (!ws) return undefined;
      const c = ws.getCell(address);
      // openpyxl's MergedCell: every cell of a merged range but its top-left reads as None.
      if (c.isMerged && c.master.address !== c.address) return { kind: 'empty' };
      return toCellValue(c.value, c.numFmt ?? '', date1904);
    },
  };
}
