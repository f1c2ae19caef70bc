/** The edit list the redaction stages build: replacements by position, counted by kind. */
import type { SecretKind } from './redact.js';

/** Replace `[start, end)` by `head + [REDACTED:kind] + tail`. */
export interface Edit {
  start: number;
  end: number;
  kind: SecretKind;
  head?: string;
  tail?: string;
}
export type Plan = [SecretKind, string, string] | null;

export class Tally {
  count = 0;
  readonly kinds: Partial<Record<SecretKind, number>> = {};

  mark(kind: SecretKind): string {
    this.count += 1;
    this.kinds[kind] = (this.kinds[kind] ?? 0) + 1;
    return `[REDACTED:${kind}]`;
  }

  /** Apply edits in order of position; one overlapping an earlier edit is dropped (and not counted). */
  apply(text: string, edits: Edit[]): string {
    if (edits.length === 0) return text;
    edits.sort((a, b) => a.start - b.start);
    let out = '';
    let cursor = 0;
    for (const e of edits) {
      if (e.start < cursor) continue;
      out += text.slice(cursor, e.start) + (e.head ?? '') + this.mark(e.kind) + (e.tail ?? '');
      cursor = e.end;
    }
    return out + text.slice(cursor);
  }
}

/** Run the sticky `re` at `at`; `plan` turns the groups into `[kind, head, tail]`, or null to keep. */
export function stickyEdit(
  re: RegExp,
  text: string,
  at: number,
  plan: (g: RegExpExecArray) => Plan,
): Edit | null {
  re.lastIndex = at;
  const m = re.exec(text);
  if (m === null) return null;
  const p = plan(m);
  return p === null ? null : { start: at, end: at + m[0].length, kind: p[0], head: p[1], tail: p[2] };
}
