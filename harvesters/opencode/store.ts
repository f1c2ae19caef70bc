/**
 * OpenCode's SQLite store (v1.2+, `opencode.db`), opened read-only (`shared/sqlite-store.ts`). Tables read
 * (packages/opencode/src/session/session.sql.ts in sst/opencode):
 *   session(id, parent_id, directory, version, time_created, time_updated, …)
 *   message(id, session_id, time_created, time_updated, data)   data: the message without id/sessionID
 *   part(id, message_id, session_id, time_created, time_updated, data)
 * Each top-level session is a harvested file of its own whose watermark is its row count and last update
 * (the part count comes from the `part_session_idx` index, so listing never reads the parts themselves).
 */
import { isRecord, parseUtcMs } from '../shared/values.js';
import {
  columnsOf,
  storeConversationFile,
  withStore,
  type StoreDb,
  type StoreRow,
} from '../shared/sqlite-store.js';
import type { OpenCodeConversation, OpenCodeMessage } from './session.js';
import type { SourceFile } from '../../src/core/session.js';

/** Every top-level session of the store with its watermark; sub-agents' sessions are never listed. */
export function listStoreSessions(dbPath: string, dbInode: number, dbMtimeMs: number): SourceFile[] {
  return withStore(dbPath, (db) => {
    const columns = columnsOf(db, 'session');
    if (!columns.has('id')) return [];
    const topLevel = columns.has('parent_id') ? ' WHERE parent_id IS NULL' : '';
    const updated = columns.has('time_updated') ? 'time_updated' : 'NULL';
    const sessions = db
      .prepare(`SELECT id, ${updated} AS updated FROM session${topLevel}`)
      .all() as StoreRow[];
    const messages = countsBySession(db, 'message', true);
    const parts = countsBySession(db, 'part', false);
    return sessions.map((row) => {
      const id = String(row['id']);
      const m = messages.get(id);
      const rows = (m?.n ?? 0) + (parts.get(id)?.n ?? 0);
      const times = [parseUtcMs(row['updated']), m?.updated ?? null].filter((t): t is number => t != null);
      const updatedMs = times.length > 0 ? Math.max(...times) : null;
      return storeConversationFile('opencode', dbPath, id, { rows, updatedMs }, dbInode, dbMtimeMs);
    });
  });
}

function countsBySession(
  db: StoreDb,
  table: 'message' | 'part',
  withUpdated: boolean,
): Map<string, { n: number; updated: number | null }> {
  const columns = columnsOf(db, table);
  const counts = new Map<string, { n: number; updated: number | null }>();
  if (!columns.has('session_id')) return counts;
  const updated = withUpdated && columns.has('time_updated') ? 'max(time_updated)' : 'NULL';
  const sql = `SELECT session_id AS id, count(*) AS n, ${updated} AS updated FROM ${table} GROUP BY session_id`;
  for (const row of db.prepare(sql).all() as StoreRow[])
    counts.set(String(row['id']), { n: Number(row['n']), updated: parseUtcMs(row['updated']) });
  return counts;
}

/** One session with its messages and their parts, in OpenCode's order; undefined when it is gone. */
export function readStoreSession(
  dbPath: string,
  sessionId: string,
): { conversation: OpenCodeConversation | undefined; badRows: number } {
  return withStore(dbPath, (db) => {
    const columns = columnsOf(db, 'session');
    const wanted = ['parent_id', 'directory', 'version', 'time_created', 'time_updated'];
    const select = ['id', ...wanted.filter((c) => columns.has(c))].join(', ');
    const row = db.prepare(`SELECT ${select} FROM session WHERE id = ?`).get(sessionId) as
      StoreRow | undefined;
    if (row === undefined) return { conversation: undefined, badRows: 0 };
    let badRows = 0;
    const parse = (text: unknown): Record<string, unknown> | undefined => {
      try {
        const value: unknown = JSON.parse(String(text));
        if (isRecord(value)) return value;
      } catch {
        // counted below
      }
      badRows++;
      return undefined;
    };
    const parts = new Map<string, Record<string, unknown>[]>();
    const partRows = db
      .prepare('SELECT message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id')
      .all(sessionId) as StoreRow[];
    for (const partRow of partRows) {
      const data = parse(partRow['data']);
      if (data === undefined) continue;
      const key = String(partRow['message_id']);
      const list = parts.get(key);
      if (list) list.push(data);
      else parts.set(key, [data]);
    }
    const messages: OpenCodeMessage[] = [];
    const messageRows = db
      .prepare('SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id')
      .all(sessionId) as StoreRow[];
    for (const messageRow of messageRows) {
      const data = parse(messageRow['data']);
      const id = String(messageRow['id']);
      if (data !== undefined) messages.push({ id, data, parts: parts.get(id) ?? [] });
    }
    const text = (value: unknown): string => (typeof value === 'string' ? value : '');
    return {
      conversation: {
        id: sessionId,
        directory: text(row['directory']),
        parentId: text(row['parent_id']),
        version: text(row['version']),
        createdMs: parseUtcMs(row['time_created']),
        updatedMs: parseUtcMs(row['time_updated']),
        messages,
      },
      badRows,
    };
  });
}
