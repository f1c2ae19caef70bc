/** A small unified-diff writer (Myers on lines), enough for skill documents and readable by `patch`/`git apply`. */

export interface DiffLabels {
  /** `a/<path>`, or `/dev/null` for a file being created. */
  oldLabel: string;
  newLabel: string;
}

type LineOp = { kind: ' ' | '-' | '+'; line: string };

/**
 * A unified diff from `oldText` (null = file absent) to `newText`, with `context` lines of context.
 * Returns '' when nothing changes. Creating an empty file yields only the two header lines.
 */
export function unifiedDiff(
  oldText: string | null,
  newText: string,
  labels: DiffLabels,
  context = 3,
): string {
  if (oldText === newText) return '';
  const ops = diffLines(splitLines(oldText ?? ''), splitLines(newText));
  let out = `--- ${labels.oldLabel}\n+++ ${labels.newLabel}\n`;
  for (const hunk of groupHunks(ops, context)) out += renderHunk(ops, hunk);
  return out;
}

/** Lines keep their `\n`, so a last line without one differs from the same line with one. */
function splitLines(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/);
}

function diffLines(a: readonly string[], b: readonly string[]): LineOp[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  ) {
    suffix++;
  }
  const equal = (line: string): LineOp => ({ kind: ' ', line });
  return [
    ...a.slice(0, prefix).map(equal),
    ...deletionsFirst(myers(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix))),
    ...a.slice(a.length - suffix).map(equal),
  ];
}

/** Within each run of changed lines, list removals before additions: the same patch, easier to read. */
function deletionsFirst(ops: readonly LineOp[]): LineOp[] {
  const out: LineOp[] = [];
  let removed: LineOp[] = [];
  let added: LineOp[] = [];
  const flush = () => {
    out.push(...removed, ...added);
    removed = [];
    added = [];
  };
  for (const op of ops) {
    if (op.kind === '-') removed.push(op);
    else if (op.kind === '+') added.push(op);
    else {
      flush();
      out.push(op);
    }
  }
  flush();
  return out;
}

/** Greedy Myers; `trace[d]` keeps the furthest x per diagonal k in [-d-1, d+1] before round d. */
function myers(a: readonly string[], b: readonly string[]): LineOp[] {
  const n = a.length;
  const m = b.length;
  if (n === 0) return b.map((line) => ({ kind: '+', line }));
  if (m === 0) return a.map((line) => ({ kind: '-', line }));
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && cell(v, offset + k - 1) < cell(v, offset + k + 1));
      let x = down ? cell(v, offset + k + 1) : cell(v, offset + k - 1) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b);
    }
  }
  throw new Error('unreachable: Myers diff did not terminate');
}

function backtrack(trace: readonly Int32Array[], a: readonly string[], b: readonly string[]): LineOp[] {
  const ops: LineOp[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d >= 0; d--) {
    const snapshot = trace[d];
    if (snapshot === undefined) throw new Error('unreachable: missing Myers trace');
    const at = (k: number): number => cell(snapshot, k + d + 1);
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: ' ', line: lineAt(a, x - 1) });
      x--;
      y--;
    }
    if (d > 0) {
      if (down) ops.push({ kind: '+', line: lineAt(b, y - 1) });
      else ops.push({ kind: '-', line: lineAt(a, x - 1) });
    }
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

function cell(values: Int32Array, index: number): number {
  return values[index] ?? 0;
}

function lineAt(lines: readonly string[], index: number): string {
  const line = lines[index];
  if (line === undefined) throw new Error(`unreachable: diff line ${index} out of range`);
  return line;
}

interface HunkRange {
  start: number;
  end: number;
}

/** Changes closer than 2*context unchanged lines share a hunk (as GNU diff does). */
function groupHunks(ops: readonly LineOp[], context: number): HunkRange[] {
  const hunks: HunkRange[] = [];
  ops.forEach((op, i) => {
    if (op.kind === ' ') return;
    const start = Math.max(0, i - context);
    const end = Math.min(ops.length, i + 1 + context);
    const last = hunks.at(-1);
    if (last !== undefined && start <= last.end) last.end = Math.max(last.end, end);
    else hunks.push({ start, end });
  });
  return hunks;
}

function renderHunk(ops: readonly LineOp[], hunk: HunkRange): string {
  const before = ops.slice(0, hunk.start);
  const body = ops.slice(hunk.start, hunk.end);
  const oldStart = before.filter((op) => op.kind !== '+').length + 1;
  const newStart = before.filter((op) => op.kind !== '-').length + 1;
  const oldLength = body.filter((op) => op.kind !== '+').length;
  const newLength = body.filter((op) => op.kind !== '-').length;
  let out = `@@ -${hunkSpan(oldStart, oldLength)} +${hunkSpan(newStart, newLength)} @@\n`;
  for (const op of body) {
    out += op.line.endsWith('\n')
      ? `${op.kind}${op.line}`
      : `${op.kind}${op.line}\n\\ No newline at end of file\n`;
  }
  return out;
}

/** GNU style: `start` alone for one line; an empty range names the line before it (`0,0` at the top). */
function hunkSpan(start: number, length: number): string {
  if (length === 0) return `${start - 1},0`;
  if (length === 1) return `${start}`;
  return `${start},${length}`;
}
