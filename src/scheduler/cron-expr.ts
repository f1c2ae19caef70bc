/**
 * The five-field cron expressions we write into a crontab, and when they next fire.
 * Deliberately the portable subset every cron (Vixie/Debian, cronie, BSD, macOS) and node-cron accept:
 * numbers, `*`, ranges, steps and lists, plus the common `@daily`-style macros (expanded before writing).
 * Times are in the machine's local time zone, as cron reads them.
 */
import { UsageError } from '../core/errors.js';

interface FieldSpec {
  name: string;
  min: number;
  max: number;
}

const FIELDS: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  // 7 is Sunday too, as in every cron.
  { name: 'day of week', min: 0, max: 7 },
];

const MACROS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

export interface CronSchedule {
  /** The normalised five-field expression (macros expanded, single spaces). */
  expression: string;
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  daysOfMonth: ReadonlySet<number>;
  months: ReadonlySet<number>;
  /** 0 = Sunday … 6 = Saturday. */
  daysOfWeek: ReadonlySet<number>;
  /** Cron's rule: when both day fields are restricted, a day matches if EITHER matches. */
  domRestricted: boolean;
  dowRestricted: boolean;
}

const bad = (expr: string, why: string): UsageError =>
  new UsageError(
    `invalid cron expression ${JSON.stringify(expr)}: ${why} (five fields "minute hour day-of-month month day-of-week" of numbers, *, a-b, */n, a-b/n and lists, or @hourly/@daily/@weekly/@monthly/@yearly)`,
  );

function parseNumber(expr: string, spec: FieldSpec, text: string): number {
  if (!/^\d{1,2}$/.test(text)) throw bad(expr, `${spec.name}: "${text}" is not a number`);
  const n = Number(text);
  if (n < spec.min || n > spec.max)
    throw bad(expr, `${spec.name} must be from ${spec.min} through ${spec.max} (got ${n})`);
  return n;
}

function parseField(expr: string, spec: FieldSpec, text: string): Set<number> {
  const out = new Set<number>();
  for (const item of text.split(',')) {
    const [range = '', stepText, extra] = item.split('/');
    if (extra !== undefined) throw bad(expr, `${spec.name}: "${item}" has two steps`);
    let lo: number;
    let hi: number;
    if (range === '*') {
      lo = spec.min;
      hi = spec.max;
    } else if (range.includes('-')) {
      const [a = '', b = ''] = range.split('-');
      lo = parseNumber(expr, spec, a);
      hi = parseNumber(expr, spec, b);
      if (lo > hi) throw bad(expr, `${spec.name}: range "${range}" runs backwards`);
    } else {
      // A bare number with a step ("5/10") is not portable across crons.
      if (stepText !== undefined) throw bad(expr, `${spec.name}: a step needs * or a range ("${item}")`);
      lo = hi = parseNumber(expr, spec, range);
    }
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\d{1,2}$/.test(stepText) || Number(stepText) === 0)
        throw bad(expr, `${spec.name}: step "${stepText}" must be a whole number from 1`);
      step = Number(stepText);
    }
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

/** Parse and validate; throws a UsageError (exit 2) that says what is wrong. */
export function parseCron(input: string): CronSchedule {
  const trimmed = input.trim();
  const expression = MACROS[trimmed.toLowerCase()] ?? trimmed.replace(/\s+/g, ' ');
  if (trimmed.startsWith('@') && !(trimmed.toLowerCase() in MACROS))
    throw bad(input, `unsupported macro ${trimmed}`);
  const parts = expression.split(' ');
  if (parts.length !== 5) throw bad(input, `expected 5 fields, got ${parts.length}`);
  const sets = parts.map((p, i) => parseField(input, FIELDS[i] as FieldSpec, p));
  const dow = sets[4] as Set<number>;
  if (dow.delete(7)) dow.add(0);
  return {
    expression,
    minutes: sets[0] as Set<number>,
    hours: sets[1] as Set<number>,
    daysOfMonth: sets[2] as Set<number>,
    months: sets[3] as Set<number>,
    daysOfWeek: dow,
    domRestricted: !(parts[2] ?? '').startsWith('*'),
    dowRestricted: !(parts[4] ?? '').startsWith('*'),
  };
}

/** The expression for "every day at hour:minute"; refuses out-of-range or non-integer values. */
export function dailyExpression(hour: number, minute: number): string {
  if (!Number.isInteger(hour) || hour < 0 || hour > 23)
    throw new UsageError(`--hour must be a whole number from 0 through 23 (got ${hour})`);
  if (!Number.isInteger(minute) || minute < 0 || minute > 59)
    throw new UsageError(`--minute must be a whole number from 0 through 59 (got ${minute})`);
  return `${minute} ${hour} * * *`;
}

function dayMatches(s: CronSchedule, d: Date): boolean {
  if (!s.months.has(d.getMonth() + 1)) return false;
  const dom = s.daysOfMonth.has(d.getDate());
  const dow = s.daysOfWeek.has(d.getDay());
  if (s.domRestricted && s.dowRestricted) return dom || dow;
  return dom && dow;
}

/** The first minute strictly after `afterMs` at which the schedule fires (local time), or null within ~5 years. */
export function nextRun(s: CronSchedule, afterMs: number): number | null {
  const start = new Date(afterMs);
  start.setSeconds(0, 0);
  start.setMinutes(start.getMinutes() + 1);
  const hours = [...s.hours].sort((a, b) => a - b);
  const minutes = [...s.minutes].sort((a, b) => a - b);
  const day = new Date(start);
  day.setHours(0, 0, 0, 0);
  for (let i = 0; i < 366 * 5; i++) {
    if (dayMatches(s, day)) {
      for (const h of hours) {
        for (const m of minutes) {
          const t = new Date(day);
          t.setHours(h, m, 0, 0);
          // A local time skipped by a DST change normalises to another hour: not this slot.
          if (t.getHours() !== h || t.getMinutes() !== m) continue;
          if (t.getTime() >= start.getTime()) return t.getTime();
        }
      }
    }
    day.setDate(day.getDate() + 1);
  }
  return null;
}
