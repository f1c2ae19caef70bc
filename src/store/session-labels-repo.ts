/** The model's task-kind label of each session, stored once per (session key, hash of the text it saw). */
import { storedText } from '../core/safe-text.js';
import type { SessionLabelStore } from '../core/session-labels.js';
import type { Db } from './db.js';

export function sqliteSessionLabels(db: Db, now: () => number): SessionLabelStore {
  const select = db.prepare('SELECT label FROM session_labels WHERE session_key = ? AND text_hash = ?');
  const insert = db.prepare(
    `INSERT INTO session_labels (session_key, text_hash, label, labelled_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (session_key, text_hash) DO UPDATE SET label = excluded.label, labelled_at = excluded.labelled_at`,
  );
  return {
    get(sessionKey, textHash) {
      const row = select.get(sessionKey, textHash) as { label: string } | undefined;
      return row?.label;
    },
    put(labels) {
      const t = now();
      db.transaction(() => {
        for (const l of labels) insert.run(l.sessionKey, l.textHash, storedText(l.label), t);
      }).immediate();
    },
  };
}

export function memorySessionLabels(): SessionLabelStore & { size(): number } {
  const map = new Map<string, string>();
  const key = (sessionKey: string, textHash: string): string => `${sessionKey}\u0000${textHash}`;
  return {
    get: (sessionKey, textHash) => map.get(key(sessionKey, textHash)),
    put: (labels) => {
      for (const l of labels) map.set(key(l.sessionKey, l.textHash), l.label);
    },
    size: () => map.size,
  };
}

/**
 * The stored rows of a prefix (`fu:` for the model's readings of follow-ups) for these sessions:
 * session key → text hash → stored text.
 */
export function storedLabelsWithPrefix(
  db: Db,
  sessionKeys: readonly string[],
  prefix: string,
): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  if (sessionKeys.length === 0) return out;
  const rows = db
    .prepare(
      `SELECT session_key, text_hash, label FROM session_labels
       WHERE substr(text_hash, 1, length(@prefix)) = @prefix
         AND session_key IN (SELECT value FROM json_each(@keys))
       ORDER BY session_key, text_hash`,
    )
    .all({ prefix, keys: JSON.stringify(sessionKeys) }) as Array<{
    session_key: string;
    text_hash: string;
    label: string;
  }>;
  for (const row of rows) {
    const perSession = out.get(row.session_key) ?? new Map<string, string>();
    perSession.set(row.text_hash, row.label);
    out.set(row.session_key, perSession);
  }
  return out;
}
