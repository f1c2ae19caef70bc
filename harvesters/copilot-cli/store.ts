/**
 * The GitHub Copilot CLI session store, `<copilot home>/session-store.db`: an SQLite index of
 * sessions, opened READ-ONLY (harvest-spec §5.2). The schema read here:
 *   sessions(id, cwd, repository, branch, summary, created_at, updated_at, host_type)
 *   turns(session_id, turn_index, user_message, assistant_response, timestamp)
 *   session_files(session_id, file_path, tool_name)
 * Columns and tables are looked up first, so a store with fewer (or more) of them still reads; a
 * store that is locked, corrupt or not SQLite rejects with an IoError naming it.
 *
 * The store is rewritten in place, so it is parsed whole on every change: `fromOffset` is ignored
 * and every turn has offset 0 (see `copilot-cli.ts` for how that fits the incremental cursor).
 */
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { IoError, errorMessage, errnoCode } from '../../src/core/errors.js';
import { assertRegularFile } from '../../src/core/io/regular-file.js';
import {
  isRecord,
  MAX_FILES_TOUCHED,
  parseUtcMs,
  trimmedString,
  userPromptText,
  widenRange,
} from './common.js';
import { EVENTS_FILE_NAME } from './session.js';
import type { FileParse } from '../types.js';
import type { SourceFile, HarvestedSession, HarvestedTurn } from '../../src/core/session.js';

export const STORE_FILE_NAME = 'session-store.db';
export const SESSION_STATE_DIR = 'session-state';
/** Copilot CLI writes the store while it runs; wait this long for its lock before giving up. */
const BUSY_TIMEOUT_MS = 1000;
const SESSION_COLUMNS = ['id', 'cwd', 'branch', 'model', 'created_at', 'updated_at'] as const;
const TURN_COLUMNS = ['session_id', 'turn_index', 'user_message', 'assistant_response', 'timestamp'] as const;
const FILE_COLUMNS = ['session_id', 'file_path', 'tool_name'] as const;
/** A session id that is a plain file name, so it can be looked up under `session-state/`. */
const PLAIN_NAME = /^[\w.-]+$/;

type Row = Record<string, unknown>;

/** Size and mtime of the store including its write-ahead log, where recent commits live. */
export async function storeSnapshot(
  dbPath: string,
): Promise<{ size: number; mtimeMs: number; inode: number }> {
  const db = await stat(dbPath);
  const wal = await stat(`${dbPath}-wal`).catch(() => undefined);
  return {
    size: db.size + (wal?.size ?? 0),
    mtimeMs: Math.max(db.mtimeMs, wal?.mtimeMs ?? 0),
    inode: db.ino,
  };
}

/**
 * Every session of the store, except those that also have an `events.jsonl` stream beside it:
 * the stream is the fuller record (model, tool names per turn, errors, interrupts), and both
 * carry the same session id, so the stream's version is the one stored.
 */
export function parseStoreFile(file: SourceFile): FileParse {
  const copilotHome = path.dirname(file.path);
  let sessions: HarvestedSession[];
  try {
    sessions = readStore(file.path);
  } catch (err) {
    throw new IoError(`Cannot read Copilot CLI session store ${file.path}: ${errorMessage(err)}`);
  }
  return {
    sessions: sessions.filter((s) => !hasEventsStream(copilotHome, s.sessionId)),
    badLines: 0,
    // Not the file size: the store changes in place, often without growing. Offset 0 makes the
    // core's cursor fall back to size/mtime/inode, so any change is read again (whole).
    endOffset: 0,
    readWhole: true,
  };
}

function hasEventsStream(copilotHome: string, sessionId: string): boolean {
  if (!PLAIN_NAME.test(sessionId) || /^\.+$/.test(sessionId)) return false;
  const stateDir = path.join(copilotHome, SESSION_STATE_DIR);
  return (
    existsSync(path.join(stateDir, sessionId, EVENTS_FILE_NAME)) ||
    existsSync(path.join(stateDir, `${sessionId}.jsonl`))
  );
}

/**
 * SQLite opens the store and its `-wal` and `-shm` by path with blocking calls: a FIFO at any of them
 * would hang the harvest for good. Only regular files (or an absent log) are opened.
 */
function assertRegularStore(dbPath: string): void {
  assertRegularFile(dbPath);
  for (const companion of [`${dbPath}-wal`, `${dbPath}-shm`]) {
    try {
      assertRegularFile(companion);
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw err;
    }
  }
}

function readStore(dbPath: string): HarvestedSession[] {
  assertRegularStore(dbPath);
  const db = new Database(dbPath, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    const sessionColumns = columnsOf(db, 'sessions');
    if (!sessionColumns.has('id')) return []; // Not a store we know how to read (schema drift).
    const sessionRows = selectRows(db, 'sessions', SESSION_COLUMNS, sessionColumns, []);
    const turnRows = groupBySession(
      selectRows(db, 'turns', TURN_COLUMNS, columnsOf(db, 'turns'), ['session_id', 'turn_index']),
    );
    const fileRows = groupBySession(
      selectRows(db, 'session_files', FILE_COLUMNS, columnsOf(db, 'session_files'), []),
    );
    return sessionRows
      .map((row) => {
        const id = textValue(row['id']);
        return buildSession(dbPath, row, turnRows.get(id) ?? [], fileRows.get(id) ?? []);
      })
      .filter((s): s is HarvestedSession => s !== undefined);
  } finally {
    db.close();
  }
}

function columnsOf(db: Database.Database, table: string): Set<string> {
  const rows = db.prepare('SELECT name FROM pragma_table_info(?)').all(table);
  return new Set(rows.filter(isRecord).map((row) => textValue(row['name'])));
}

/** The wanted columns the table has; the others read as undefined. No session id: no rows. */
function selectRows(
  db: Database.Database,
  table: string,
  wanted: readonly string[],
  present: Set<string>,
  orderBy: readonly string[],
): Row[] {
  const keyColumn = table === 'sessions' ? 'id' : 'session_id';
  if (!present.has(keyColumn)) return [];
  const columns = wanted.filter((c) => present.has(c)).map(quoteIdentifier);
  const order = orderBy.filter((c) => present.has(c)).map(quoteIdentifier);
  const sql = `SELECT ${columns.join(', ')} FROM ${quoteIdentifier(table)}${order.length > 0 ? ` ORDER BY ${order.join(', ')}` : ''}`;
  return db.prepare(sql).all().filter(isRecord);
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function groupBySession(rows: Row[]): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const id = textValue(row['session_id']);
    const group = groups.get(id);
    if (group) group.push(row);
    else groups.set(id, [row]);
  }
  return groups;
}

function buildSession(
  dbPath: string,
  row: Row,
  turnRows: Row[],
  fileRows: Row[],
): HarvestedSession | undefined {
  const sessionId = textValue(row['id']).trim();
  if (sessionId === '') return undefined;
  const range = { startedAt: parseUtcMs(row['created_at']), endedAt: parseUtcMs(row['updated_at']) };
  widenRange(range, range.startedAt); // Fills the other end when only one of them is recorded.
  widenRange(range, range.endedAt);
  const turns: HarvestedTurn[] = [];
  for (const turnRow of turnRows) {
    const ts = parseUtcMs(turnRow['timestamp']);
    widenRange(range, ts);
    const prompt = userPromptText(turnRow['user_message']);
    if (prompt !== undefined) turns.push(storeTurn(turns.length, 'user', prompt, ts));
    const answer = trimmedString(turnRow['assistant_response']);
    if (answer !== undefined) turns.push(storeTurn(turns.length, 'assistant', answer, ts));
  }
  if (turns.length === 0) return undefined;
  return {
    source: 'copilot-cli',
    sessionId,
    cwd: trimmedString(row['cwd']) ?? '',
    branch: trimmedString(row['branch']) ?? '',
    model: trimmedString(row['model']) ?? '',
    startedAt: range.startedAt,
    endedAt: range.endedAt,
    turns,
    // The store does not say which turn used which tool or file; the session keeps the sorted sets.
    toolsUsed: sortedDistinct(fileRows.map((f) => f['tool_name'])),
    skillsUsed: [],
    filesTouched: sortedDistinct(fileRows.map((f) => f['file_path'])).slice(0, MAX_FILES_TOUCHED),
    sourcePath: dbPath,
    sourceVersion: '',
  };
}

function storeTurn(seq: number, role: HarvestedTurn['role'], text: string, ts: number | null): HarvestedTurn {
  return { seq, role, text, ts, toolNames: [], actions: [], toolErrors: 0, interrupted: false, offset: 0 };
}

function sortedDistinct(values: unknown[]): string[] {
  const distinct = new Set<string>();
  for (const value of values) {
    const text = trimmedString(value);
    if (text !== undefined) distinct.add(text);
  }
  return [...distinct].sort();
}

function textValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return '';
}
