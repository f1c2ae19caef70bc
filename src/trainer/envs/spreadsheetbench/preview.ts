/**
 * What the target sees of the input workbook (it cannot open it itself): each sheet's name and size and
 * its first rows as `A1=value` cells, bounded in sheets, rows, columns and characters.
 */
import { errorMessage } from '../../../core/errors.js';
import { showCell } from './cell-value.js';
import { toCellValue } from './workbook-cells.js';

export interface PreviewLimits {
  sheets: number;
  rows: number;
  cols: number;
  chars: number;
}

export async function workbookPreview(file: string, limits: PreviewLimits): Promise<string> {
  // Loaded on first use: `train` on any other environment does not pay for it (about 150 ms).
  const { default: excel } = await import('exceljs');
  const wb = new excel.Workbook();
  try {
    await wb.xlsx.readFile(file);
  } catch (err) {
    return `(the workbook could not be read: ${errorMessage(err)})`;
  }
  const date1904 = wb.properties.date1904 === true;
  const parts: string[] = [];
  for (const ws of wb.worksheets.slice(0, limits.sheets)) {
    parts.push(`### Sheet "${ws.name}" (${ws.rowCount} rows x ${ws.columnCount} columns)`);
    const last = Math.min(ws.rowCount, limits.rows);
    for (let r = 1; r <= last; r++) {
      const cells: string[] = [];
      const row = ws.getRow(r);
      for (let c = 1; c <= Math.min(ws.columnCount, limits.cols); c++) {
        const cell = row.getCell(c);
        const value = toCellValue(cell.value, cell.numFmt ?? '', date1904);
        if (value.kind === 'empty') continue;
        const formula = cell.formula ? ` (formula =${cell.formula})` : '';
        cells.push(`${cell.address}=${showCell(value)}${formula}`);
      }
      if (cells.length > 0) parts.push(cells.join(' | '));
    }
    if (ws.rowCount > last) parts.push(`... ${ws.rowCount - last} more rows`);
  }
  if (wb.worksheets.length > limits.sheets)
    parts.push(`... ${wb.worksheets.length - limits.sheets} more sheets`);
  const text = parts.join('\n');
  return text.length > limits.chars ? `${text.slice(0, limits.chars)}\n...[preview truncated]` : text;
}
