/**
 * OfficeQA's own scoring (databricks/officeqa `reward.py`, `score_answer`), re-implemented from its
 * documented behaviour: the numbers of the ground truth are looked for in the prediction (commas
 * dropped, a Unicode minus read as "-", within a relative `tolerance`; a year-like number in the
 * prediction is ignored unless the truth is a year or has words; words of the truth, units aside, must
 * appear too), and an answer without numbers matches when the truth, lower-cased, unquoted and without
 * parentheticals, is in the prediction. The soft score is the reference trainer's token F1.
 */

const NUMBER = /-?\d+\.?\d*%?/g;

interface Found {
  value: number;
}

const normalizeMinus = (text: string): string => text.replace(/\u2212/g, '-');

function numbersIn(text: string): Found[] {
  const plain = normalizeMinus(text).replace(/,/g, '');
  const out: Found[] = [];
  for (const m of plain.matchAll(NUMBER)) {
    const raw = m[0];
    if (raw === '' || raw === '-') continue;
    out.push({ value: Number(raw.replace(/%$/, '')) });
  }
  return out;
}

const isYear = (n: number): boolean => n >= 1900 && n <= 2100 && Number.isInteger(n);

const UNIT_WORDS = [
  'trillion',
  'trillions',
  'billion',
  'billions',
  'million',
  'millions',
  'thousand',
  'thousands',
  'hundred',
  'hundreds',
  'percent',
  'percentage',
];

/** The words of a text once numbers, commas and unit words are gone; "" when under two characters. */
function wordsOf(text: string): string {
  let cleaned = normalizeMinus(text).toLowerCase().replace(NUMBER, '').replace(/,/g, '');
  for (const unit of UNIT_WORDS)
    cleaned = cleaned.replace(new RegExp(`(?<![\\p{L}\\p{N}_])${unit}(?![\\p{L}\\p{N}_])`, 'gu'), '');
  cleaned = cleaned
    .replace(/[^\p{L}\p{N}_\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.length >= 2 ? cleaned : '';
}

/** The truth's words (if any) appear in the prediction's, or the other way round. */
function wordsAgree(truth: string, predicted: string): boolean {
  const t = wordsOf(truth);
  if (t === '') return true;
  const p = wordsOf(predicted);
  if (p === '') return false;
  return p.includes(t) || t.includes(p);
}

const within = (truth: number, predicted: number, tolerance: number): boolean =>
  truth === 0 ? predicted === 0 : Math.abs(truth - predicted) / Math.abs(truth) <= tolerance;

/** Text answers: lower case, quotes and parentheticals off, the truth contained in the prediction. */
function textMatch(truth: string, predicted: string): boolean {
  const clean = (s: string): string =>
    s
      .trim()
      .toLowerCase()
      .replace(/^"+|"+$/g, '')
      .replace(/^'+|'+$/g, '')
      .replace(/\([^)]*\)/g, '')
      .trim();
  const t = clean(truth);
  const p = clean(predicted);
  return p.includes(t) || t === p;
}

/** 1 when `predicted` answers `truth` within `tolerance` (0 = the numbers exactly), else 0. */
export function scoreAnswer(truth: string, predicted: string, tolerance = 0): number {
  if (truth === '' || predicted === '') return 0;
  const golds = numbersIn(truth);
  const preds = numbersIn(predicted);
  if (golds.length > 0 && preds.length > 0) {
    if (golds.length > 1) {
      const keepYears = golds.some((g) => isYear(g.value));
      const candidates = preds.filter((p) => !isYear(p.value) || keepYears);
      const agree = wordsAgree(truth, predicted);
      return agree && golds.every((g) => candidates.some((p) => within(g.value, p.value, tolerance))) ? 1 : 0;
    }
    const gold = golds[0]?.value ?? 0;
    const skipYears = !(isYear(gold) || wordsOf(truth) !== '');
    const hit = preds.some(
      (p) =>
        !(skipYears && isYear(p.value)) && within(gold, p.value, tolerance) && wordsAgree(truth, predicted),
    );
    return hit ? 1 : 0;
  }
  return textMatch(truth, predicted) ? 1 : 0;
}

/** The reference trainer's OfficeQA normalisation: numbers' signs and points kept, money words dropped. */
export function normalizeOfficeAnswer(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/,/g, '')
    .replace(/[!"#$&'()*+/:;<=>?@[\\\]^_`{|}~]/g, '')
    .replace(/(?<![\p{L}\p{N}_])(millions?|billions?|dollars?|nominal)(?![\p{L}\p{N}_])/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Token F1 after `normalizeOfficeAnswer`; 1 when both sides are empty, 0 when one is. */
export function officeF1(predicted: string, truth: string): number {
  const pred = normalizeOfficeAnswer(predicted).split(' ').filter(Boolean);
  const gold = normalizeOfficeAnswer(truth).split(' ').filter(Boolean);
  if (pred.length === 0 || gold.length === 0) return pred.length === gold.length ? 1 : 0;
  const left = new Map<string, number>();
  for (const t of gold) left.set(t, (left.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of pred) {
    const n = left.get(t) ?? 0;
    if (n > 0) {
      same++;
      left.set(t, n - 1);
    }
  }
  if (same === 0) return 0;
  const p = same / pred.length;
  const r = same / gold.length;
  return (2 * p * r) / (p + r);
}
