/**
 * Goose's SQLite store (`<sessions>/sessions.db`, Goose 1.10+), opened read-only (`shared/sqlite-store.ts`).
 * Tables read (crates/goose/src/session/session_manager.rs in block/goose):
 *   sessions(id, working_dir, session_type, schedule_id, created_at, updated_at, …)
 *   messages(id INTEGER PRIMARY KEY, session_id, role, content_json, created_timestamp, timestamp, metadata_json)
 * Each session the user had (`session_type` `user`, no `schedule_id`: not a sub-agent's, a hidden one or a
 * scheduled recipe run) is a harvested file of its own; its watermark is the message count plus the highest
 * message id (both grow when Goose appends or rewrites the conversation, and come from the session index), and
 * `updated_at`, which Goose moves on each message.
 */
import { isRecord, parseUtcMs } from '../shared/values.js';
import { columnsOf, storeConversationFile, withStore, type StoreRow } from '../shared/sqlite-store.js';
import type { GooseConversation } from './session.js';
import type { SourceFile } from '../../src/core/session.js';

/** The user's sessions with their watermarks, and the ids of every session the store holds. */
export function listGooseStore(
  dbPath: string,
  dbInode: number,
  dbMtimeMs: number,
): { files: SourceFile[]; ids: Set<string> } {
  return withStore(dbPath, (db) => {
    const columns = columnsOf(db, 'sessions');
    if (!columns.has('id')) return { files: [], ids: new Set<string>() };
    const ids = new Set(
      (db.prepare('SELECT id FROM sessions').all() as StoreRow[]).map((r) => String(r['id'])),
    );
    const filters = [
      columns.has('session_type') ? "session_type = 'user'" : '',
      columns.has('schedule_id') ? 'schedule_id IS NULL' : '',
    ].filter((f) => f !== '');
    const updated = columns.has('updated_at') ? 'updated_at' : 'NULL';
    const sql = `SELECT id, ${updated} AS updated FROM sessions${filters.length > 0 ? ` WHERE ${filters.join(' AND ')}` : ''}`;
    const counts = new Map<string, number>();
    if (columnsOf(db, 'messages').has('session_id')) {
      const rows = db
        .prepare('SELECT session_id AS id, count(*) + max(id) AS mark FROM messages GROUP BY session_id')
        .all() as StoreRow[];
      for (const row of rows) counts.set(String(row['id']), Number(row['mark']));
    }
    const files = (db.prepare(sql).all() as StoreRow[]).map((row) => {
      const id = String(row['id']);
      const watermark = { rows: counts.get(id) ?? 0, updatedMs: parseUtcMs(row['updated']) };
      return storeConversationFile('goose', dbPath, id, watermark, dbInode, dbMtimeMs);
    });
    return { files, ids };
  });
}

/** One session with its messages in Goose's order; undefined when it is gone. */
export function readGooseStoreSession(
  dbPath: string,
  sessionId: string,
): { conversation: GooseConversation | undefined; badRows: number } {
  return withStore(dbPath, (db) => {
    const columns = columnsOf(db, 'sessions');
    const wanted = ['working_dir', 'created_at', 'updated_at'].filter((c) => columns.has(c));
    const row = db
      .prepare(`SELECT ${['id', ...wanted].join(', ')} FROM sessions WHERE id = ?`)
      .get(sessionId) as StoreRow | undefined;
    if (row === undefined) return { conversation: undefined, badRows: 0 };
    const messageColumns = columnsOf(db, 'messages');
    const order = messageColumns.has('timestamp') ? 'timestamp, id' : 'id';
    const metadata = messageColumns.has('metadata_json') ? 'metadata_json' : 'NULL';
    const rows = db
      .prepare(
        `SELECT role, content_json, created_timestamp, ${metadata} AS metadata FROM messages WHERE session_id = ? ORDER BY ${order}`,
      )
      .all(sessionId) as StoreRow[];
    let badRows = 0;
    const messages: Record<string, unknown>[] = [];
    for (const message of rows) {
      let content: unknown;
      try {
        content = JSON.parse(String(message['content_json']));
      } catch {
        badRows++;
        continue;
      }
      if (!Array.isArray(content)) {
        badRows++;
        continue;
      }
      messages.push({
        role: message['role'],
        created: message['created_timestamp'],
        content,
        metadata: parseObject(message['metadata']),
      });
    }
    return {
      conversation: {
        id: sessionId,
        workingDir: typeof row['working_dir'] === 'string' ? row['working_dir'] : '',
        createdMs: parseUtcMs(row['created_at']),
        updatedMs: parseUtcMs(row['updated_at']),
        messages,
      },
      badRows,
    };
  });
}

function parseObject(text: unknown): Record<string, unknown> {
  if (typeof text !== 'string') return {};
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}
