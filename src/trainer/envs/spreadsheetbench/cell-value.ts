/**
 * SpreadsheetBench's cell comparison, with openpyxl's (data_only) reading of a cell as its input. The
 * official evaluator (RUCKBReasoning/SpreadsheetBench `evaluation/evaluation.py`) turns every number and
 * every string that Python's `float()` accepts into `round(float(v), 2)`, a time into its `str()` less
 * the last three characters, a date-time into a rounded Excel serial day; `""` and an empty cell are
 * equal, and values of different types never are. Python's rounding and `float()` are reproduced here
 * because JavaScript's differ (ties go to even; `float()` takes `1_000`, `inf`, but not `0x10` or `""`).
 */

/** A cell as openpyxl returns it: its type decides how the evaluator transforms it. */
export type CellValue =
  | { kind: 'empty' }
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'boolean'; value: boolean }
  /** A date-time, as its Excel serial day (openpyxl's 1900 leap-year shift already applied). */
  | { kind: 'datetime'; serial: number }
  /** A time of day (a date-formatted value in [0, 1)), as milliseconds after midnight. */
  | { kind: 'time'; ms: number }
  /** A duration (`[h]:mm` formats): openpyxl's timedelta, which the evaluator leaves as it is. */
  | { kind: 'duration'; ms: number };

/** After the evaluator's transform: a float, a string, None, or an untransformed timedelta. */
type Transformed =
  { t: 'float'; v: number } | { t: 'str'; v: string } | { t: 'none' } | { t: 'timedelta'; v: number };

/** Python's `round(x, ndigits)` on a float: the exact binary value rounded, exact ties to even. */
export function pyRound(x: number, ndigits: number): number {
  if (!Number.isFinite(x)) return x;
  if (ndigits === 0) {
    const f = Math.floor(x);
    const diff = x - f;
    if (diff === 0.5) return f % 2 === 0 ? f : f + 1;
    return diff < 0.5 ? f : f + 1;
  }
  if (Math.abs(x) >= 1e21) return x;
  const scale = 10 ** ndigits;
  // An exact tie at n digits is a value whose exact decimal ends in 5 at digit n+1. For 2 digits the
  // only doubles that do are odd multiples of 1/8 (k + 1/2 over 100 must be dyadic).
  if (ndigits === 2 && Number.isInteger(x * 8) && Math.abs(x * 8) % 2 === 1) {
    const a = Math.abs(x);
    const k = Math.floor(a * scale);
    const even = k % 2 === 0 ? k : k + 1;
    return Math.sign(x) * (even / scale);
  }
  // toFixed rounds the exact binary value (never an exact tie here) and parsing returns the nearest double.
  return Number(x.toFixed(ndigits));
}

const DIGITS = String.raw`\d(?:_?\d)*`;
const PY_FLOAT = new RegExp(
  String.raw`^[+-]?(?:(?:${DIGITS}(?:\.(?:${DIGITS})?)?|\.${DIGITS})(?:[eE][+-]?${DIGITS})?|inf(?:inity)?|nan)$`,
  'i',
);

/** Python's `float(s)` for a str: the number, or undefined where Python raises ValueError. */
export function pyFloat(s: string): number | undefined {
  const t = s.trim();
  if (!PY_FLOAT.test(t)) return undefined;
  const body = t.replace(/_/g, '').toLowerCase();
  const sign = body.startsWith('-') ? -1 : 1;
  const bare = body.replace(/^[+-]/, '');
  if (bare.startsWith('inf')) return sign * Infinity;
  if (bare === 'nan') return NaN;
  return Number(body);
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** Python's `str(datetime.time)`: HH:MM:SS, with .ffffff when there are microseconds. */
function pyTimeString(ms: number): string {
  const total = Math.round(ms);
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor((total % 3_600_000) / 60_000);
  const s = Math.floor((total % 60_000) / 1000);
  const frac = total % 1000;
  const base = `${pad(h)}:${pad(m)}:${pad(s)}`;
  return frac === 0 ? base : `${base}.${pad(frac * 1000, 6)}`;
}

function transform(c: CellValue): Transformed {
  switch (c.kind) {
    case 'empty':
      return { t: 'none' };
    case 'number':
      return { t: 'float', v: pyRound(c.value, 2) };
    case 'boolean':
      // bool is an int in Python: isinstance(True, int) holds, so True becomes 1.0.
      return { t: 'float', v: c.value ? 1 : 0 };
    case 'string': {
      const f = pyFloat(c.value);
      return f === undefined ? { t: 'str', v: c.value } : { t: 'float', v: pyRound(f, 2) };
    }
    case 'time':
      return { t: 'str', v: pyTimeString(c.ms).slice(0, -3) };
    case 'datetime':
      return { t: 'float', v: pyRound(c.serial, 0) };
    case 'duration':
      return { t: 'timedelta', v: c.ms };
  }
}

const isEmptyish = (v: Transformed): boolean => v.t === 'none' || (v.t === 'str' && v.v === '');

/** The official `compare_cell_value(gold, produced)`. */
export function cellsMatch(gold: CellValue, produced: CellValue): boolean {
  const a = transform(gold);
  const b = transform(produced);
  if (isEmptyish(a) && isEmptyish(b)) return true;
  if (a.t !== b.t) return false;
  if (a.t === 'none' || b.t === 'none') return true;
  return a.v === b.v;
}

/** A short readable form of a cell for the feedback reflection sees (`got=… expected=…`). */
export function showCell(c: CellValue): string {
  switch (c.kind) {
    case 'empty':
      return 'empty';
    case 'string':
      return JSON.stringify(c.value.length > 80 ? `${c.value.slice(0, 80)}…` : c.value);
    case 'number':
      return String(c.value);
    case 'boolean':
      return c.value ? 'TRUE' : 'FALSE';
    case 'datetime':
      return `date(serial ${c.serial})`;
    case 'time':
      return `time(${pyTimeString(c.ms)})`;
    case 'duration':
      return `duration(${c.ms} ms)`;
  }
}
