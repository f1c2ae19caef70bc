/**
 * Rows of a benchmark's files as a user downloads them from Hugging Face: JSON (a list, `{data: [...]}`
 * or an object of rows), JSONL, Parquet (hyparquet) and CSV (csv-parse). Files are found under the
 * data folder by name; nothing is fetched.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { InputError, errorMessage } from '../../../core/errors.js';

export type Row = Record<string, unknown>;

export const DATA_EXTENSIONS = ['.json', '.jsonl', '.parquet', '.csv'] as const;

/** How deep below the data folder files are looked for (HF snapshots nest `data/<config>/`). */
const MAX_DEPTH = 6;

/** The files under `dir` whose names pass `accept`, sorted by path (hidden folders skipped). */
export function listDataFiles(dir: string, accept: (name: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (folder: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (err) {
      if (depth === 0) throw new InputError(`data_dir ${dir}: cannot read the folder: ${errorMessage(err)}`);
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = path.join(folder, e.name);
      if (e.isDirectory() && depth < MAX_DEPTH) walk(full, depth + 1);
      else if (e.isFile() && accept(e.name)) out.push(full);
    }
  };
  walk(dir, 0);
  return out.sort();
}

const hasExtension = (name: string, exts: readonly string[]): boolean =>
  exts.some((x) => name.toLowerCase().endsWith(x));

/** The dataset files of `dir` with one of `exts`, or an error that says what the folder should hold. */
export function requireDataFiles(dir: string, exts: readonly string[], what: string): string[] {
  if (dir === '') throw new InputError(`data_dir is not set: it names the folder that holds ${what}`);
  const files = listDataFiles(dir, (n) => hasExtension(n, exts));
  if (files.length === 0)
    throw new InputError(`data_dir ${dir}: no ${exts.join(' / ')} file found; it should hold ${what}`);
  return files;
}

function jsonRows(file: string, text: string): Row[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  let whole: unknown;
  try {
    whole = JSON.parse(trimmed);
  } catch {
    whole = undefined;
  }
  if (whole === undefined) return jsonlRows(file, text);
  const list = Array.isArray(whole)
    ? whole
    : isRow(whole) && Array.isArray(whole.data)
      ? whole.data
      : isRow(whole)
        ? Object.values(whole)
        : null;
  if (list === null) throw new InputError(`${file}: expected a JSON list of rows`);
  return list.map((r, i) => asRow(r, `${file}: row ${i + 1}`));
}

function jsonlRows(file: string, text: string): Row[] {
  const rows: Row[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new InputError(`${file}:${i + 1}: invalid JSON: ${errorMessage(err)}`);
    }
    rows.push(asRow(value, `${file}:${i + 1}`));
  });
  return rows;
}

const isRow = (v: unknown): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v);

function asRow(value: unknown, where: string): Row {
  if (!isRow(value)) throw new InputError(`${where}: expected a JSON object`);
  return value;
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(`${file}: cannot read: ${errorMessage(err)}`);
  }
}

/** Every row of one file; `columns` limits what a Parquet file decodes (others keep every field). */
export async function readRows(file: string, columns?: readonly string[]): Promise<Row[]> {
  const lower = file.toLowerCase();
  if (lower.endsWith('.parquet')) {
    try {
      const buffer = await asyncBufferFromFile(file);
      const rows = await parquetReadObjects({
        file: buffer,
        ...(columns ? { columns: [...columns] } : {}),
        rowFormat: 'object',
      });
      return rows as Row[];
    } catch (err) {
      throw new InputError(`${file}: cannot read the Parquet file: ${errorMessage(err)}`);
    }
  }
  if (lower.endsWith('.csv')) {
    try {
      return parseCsv<Row>(readText(file), { columns: true, skip_empty_lines: true, bom: true });
    } catch (err) {
      throw new InputError(`${file}: cannot read the CSV file: ${errorMessage(err)}`);
    }
  }
  if (lower.endsWith('.jsonl')) return jsonlRows(file, readText(file));
  return jsonRows(file, readText(file));
}

/** A file's size and modification time: what a digest of large inputs records instead of their bytes. */
export function fileStamp(file: string): string {
  const s = statSync(file);
  return `${file}:${s.size}:${Math.trunc(s.mtimeMs)}`;
}

/** A field as trimmed text ("" when absent); numbers and bigints as their decimal form. */
export function textField(row: Row, key: string): string {
  const v = row[key];
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  return '';
}

/** A field that holds a list of strings (a list, or one string), as trimmed non-empty strings. */
export function textListField(row: Row, key: string): string[] {
  const v = row[key];
  const list = Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
  return list
    .map((x) => (typeof x === 'string' ? x.trim() : typeof x === 'number' ? String(x) : ''))
    .filter((x) => x !== '');
}
