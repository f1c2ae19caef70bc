/**
 * The redaction report of a harvest: values redacted per kind in what it stored. A stored text shows
 * each redacted value as one `[REDACTED:<kind>]` marker, so the count is the markers of the turns written
 * minus those of the stored turns they replace: a turn read again (the last turn of an appended file, a
 * file read whole again) is not counted twice, and a value is counted once, in the harvest that first
 * stored it. (A marker already present in a transcript, pasted from a redacted text, counts too.)
 */
import type { HarvestedSession } from '../core/session.js';
import type { Db } from '../store/db.js';
import type { RedactionCounts } from '../store/harvest-runs-repo.js';

const MARKER_RE = /\[REDACTED:([A-Za-z0-9._-]{1,64})\]/g;
const MARKER_START = '[REDACTED:';

function countMarkers(text: string, into: RedactionCounts): void {
  if (!text.includes(MARKER_START)) return;
  MARKER_RE.lastIndex = 0;
  for (let m = MARKER_RE.exec(text); m !== null; m = MARKER_RE.exec(text)) {
    const kind = m[1] ?? '';
    into[kind] = (into[kind] ?? 0) + 1;
  }
}

/** Markers per kind in a redacted session's turn texts and action targets and texts. */
export function sessionMarkers(s: HarvestedSession): RedactionCounts {
  const counts: RedactionCounts = {};
  for (const t of s.turns) {
    countMarkers(t.text, counts);
    for (const a of t.actions) {
      countMarkers(a.target, counts);
      countMarkers(a.added, counts);
      countMarkers(a.removed, counts);
    }
  }
  return counts;
}

/**
 * Markers per kind in the stored turns a write of `key` replaces: those from `fromOffset` on, or all of
 * them (null: the file was read whole). Only rows holding a marker are read.
 */
export function replacedMarkers(db: Db): (key: string, fromOffset: number | null) => RedactionCounts {
  const select = db.prepare(
    `SELECT text, actions FROM turns WHERE session_key = ? AND offset >= ?
       AND (instr(text, '${MARKER_START}') > 0 OR instr(actions, '${MARKER_START}') > 0)`,
  );
  return (key, fromOffset) => {
    const counts: RedactionCounts = {};
    const rows = select.all(key, fromOffset ?? Number.MIN_SAFE_INTEGER) as Array<{
      text: string;
      actions: string;
    }>;
    for (const r of rows) {
      countMarkers(r.text, counts);
      countMarkers(r.actions, counts);
    }
    return counts;
  };
}

/** Adds to `into` what `written` has beyond `replaced`, kind by kind. */
export function addNewRedactions(
  into: RedactionCounts,
  written: RedactionCounts,
  replaced: RedactionCounts,
): void {
  for (const [kind, n] of Object.entries(written)) {
    const added = n - (replaced[kind] ?? 0);
    if (added > 0) into[kind] = (into[kind] ?? 0) + added;
  }
}
