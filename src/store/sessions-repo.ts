/** Sessions, their turns, and the per-file harvest cursor. */
import type { HarvestedSession, HarvestedTurn, SourceFile, SourceId } from '../../harvesters/types.js';
import type { Db } from './db.js';

export interface StoredSession extends HarvestedSession {
  /** Unique store key: `<source>:<sessionId>`. */
  key: string;
  projectRoot: string;
}

export const sessionKey = (source: SourceId, sessionId: string): string => `${source}:${sessionId}`;

/** Insert or replace a session and all its turns (a session still being written is updated, not duplicated). */
export function upsertSession(db: Db, s: HarvestedSession, projectRoot: string, now: number): string {
  const key = sessionKey(s.source, s.sessionId);
  const write = db.transaction(() => {
    db.prepare('DELETE FROM turns WHERE session_key = ?').run(key);
    db.prepare(
      `INSERT INTO sessions (key, source, session_id, project_root, cwd, branch, model, source_version,
         started_at, ended_at, n_user_turns, n_assistant_turns, tools_used, skills_used, files_touched,
         source_path, harvested_at)
       VALUES (@key, @source, @sessionId, @projectRoot, @cwd, @branch, @model, @sourceVersion,
         @startedAt, @endedAt, @nUser, @nAssistant, @tools, @skills, @files, @sourcePath, @now)
       ON CONFLICT (key) DO UPDATE SET project_root = excluded.project_root, cwd = excluded.cwd,
         branch = excluded.branch, model = excluded.model, source_version = excluded.source_version,
         started_at = excluded.started_at, ended_at = excluded.ended_at, n_user_turns = excluded.n_user_turns,
         n_assistant_turns = excluded.n_assistant_turns, tools_used = excluded.tools_used,
         skills_used = excluded.skills_used, files_touched = excluded.files_touched,
         source_path = excluded.source_path, harvested_at = excluded.harvested_at`,
    ).run({
      key,
      source: s.source,
      sessionId: s.sessionId,
      projectRoot,
      cwd: s.cwd,
      branch: s.branch,
      model: s.model,
      sourceVersion: s.sourceVersion,
      startedAt: s.startedAt,
      endedAt: s.endedAt,
      nUser: s.turns.filter((t) => t.role === 'user').length,
      nAssistant: s.turns.filter((t) => t.role === 'assistant').length,
      tools: JSON.stringify(s.toolsUsed),
      skills: JSON.stringify(s.skillsUsed),
      files: JSON.stringify(s.filesTouched),
      sourcePath: s.sourcePath,
      now,
    });
    const insertTurn = db.prepare(
      `INSERT INTO turns (session_key, seq, role, text, ts, tool_names, tool_errors, interrupted)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const t of s.turns) {
      insertTurn.run(
        key,
        t.seq,
        t.role,
        t.text,
        t.ts,
        JSON.stringify(t.toolNames),
        t.toolErrors,
        t.interrupted ? 1 : 0,
      );
    }
  });
  write();
  return key;
}

interface SessionRow {
  key: string;
  source: string;
  session_id: string;
  project_root: string;
  cwd: string;
  branch: string;
  model: string;
  source_version: string;
  started_at: number | null;
  ended_at: number | null;
  tools_used: string;
  skills_used: string;
  files_touched: string;
  source_path: string;
}

interface TurnRow {
  seq: number;
  role: 'user' | 'assistant';
  text: string;
  ts: number | null;
  tool_names: string;
  tool_errors: number;
  interrupted: number;
}

function rowToSession(db: Db, row: SessionRow): StoredSession {
  const turns = db
    .prepare(
      'SELECT seq, role, text, ts, tool_names, tool_errors, interrupted FROM turns WHERE session_key = ? ORDER BY seq',
    )
    .all(row.key) as TurnRow[];
  return {
    key: row.key,
    projectRoot: row.project_root,
    source: row.source as SourceId,
    sessionId: row.session_id,
    cwd: row.cwd,
    branch: row.branch,
    model: row.model,
    sourceVersion: row.source_version,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    toolsUsed: JSON.parse(row.tools_used) as string[],
    skillsUsed: JSON.parse(row.skills_used) as string[],
    filesTouched: JSON.parse(row.files_touched) as string[],
    sourcePath: row.source_path,
    turns: turns.map((t): HarvestedTurn => ({
      seq: t.seq,
      role: t.role,
      text: t.text,
      ts: t.ts,
      toolNames: JSON.parse(t.tool_names) as string[],
      toolErrors: t.tool_errors,
      interrupted: t.interrupted === 1,
    })),
  };
}

/** Sessions of one project that ended at or after `sinceMs` (null = all), newest first, at most `limit`. */
export function sessionsForProject(
  db: Db,
  project: string,
  sinceMs: number | null,
  limit: number,
): StoredSession[] {
  const rows = db
    .prepare(
      `SELECT * FROM sessions WHERE project_root = ? AND (? IS NULL OR COALESCE(ended_at, started_at, 0) >= ?)
       ORDER BY COALESCE(ended_at, started_at, 0) DESC, key LIMIT ?`,
    )
    .all(project, sinceMs, sinceMs, limit) as SessionRow[];
  return rows.map((r) => rowToSession(db, r));
}

export function countSessions(db: Db, project: string): number {
  return (
    db.prepare('SELECT COUNT(*) AS n FROM sessions WHERE project_root = ?').get(project) as { n: number }
  ).n;
}

export interface FileCursor {
  size: number;
  mtimeMs: number;
  inode: number;
  parsedOffset: number;
  badLines: number;
}

export function getCursor(db: Db, filePath: string): FileCursor | null {
  const row = db
    .prepare('SELECT size, mtime_ms, inode, parsed_offset, bad_lines FROM source_files WHERE path = ?')
    .get(filePath) as
    { size: number; mtime_ms: number; inode: number; parsed_offset: number; bad_lines: number } | undefined;
  return row
    ? {
        size: row.size,
        mtimeMs: row.mtime_ms,
        inode: row.inode,
        parsedOffset: row.parsed_offset,
        badLines: row.bad_lines,
      }
    : null;
}

export function setCursor(
  db: Db,
  file: SourceFile,
  parsedOffset: number,
  badLines: number,
  now: number,
): void {
  db.prepare(
    `INSERT INTO source_files (path, source, size, mtime_ms, inode, parsed_offset, bad_lines, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, inode = excluded.inode,
       parsed_offset = excluded.parsed_offset, bad_lines = excluded.bad_lines, updated_at = excluded.updated_at`,
  ).run(file.path, file.source, file.size, Math.trunc(file.mtimeMs), file.inode, parsedOffset, badLines, now);
}
