/**
 * Numbered schema migrations. Never edit a shipped migration: add the next number.
 * All times are UTC epoch milliseconds.
 */
import { LATER_MIGRATIONS, type Migration } from './migrations-later.js';

export type { Migration } from './migrations-later.js';

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial',
    sql: `
      CREATE TABLE source_files (
        path TEXT PRIMARY KEY,
        source TEXT NOT NULL,
        size INTEGER NOT NULL,
        mtime_ms INTEGER NOT NULL,
        inode INTEGER NOT NULL,
        parsed_offset INTEGER NOT NULL,
        bad_lines INTEGER NOT NULL DEFAULT 0,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE sessions (
        key TEXT PRIMARY KEY,
        source TEXT NOT NULL,
        session_id TEXT NOT NULL,
        project_root TEXT NOT NULL,
        cwd TEXT NOT NULL,
        branch TEXT NOT NULL,
        model TEXT NOT NULL,
        source_version TEXT NOT NULL,
        started_at INTEGER,
        ended_at INTEGER,
        n_user_turns INTEGER NOT NULL,
        n_assistant_turns INTEGER NOT NULL,
        tools_used TEXT NOT NULL,
        skills_used TEXT NOT NULL,
        files_touched TEXT NOT NULL,
        source_path TEXT NOT NULL,
        harvested_at INTEGER NOT NULL
      );
      CREATE INDEX sessions_by_project ON sessions (project_root, ended_at);
      CREATE TABLE turns (
        session_key TEXT NOT NULL REFERENCES sessions(key) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
        text TEXT NOT NULL,
        ts INTEGER,
        tool_names TEXT NOT NULL,
        tool_errors INTEGER NOT NULL,
        interrupted INTEGER NOT NULL,
        PRIMARY KEY (session_key, seq)
      );
      CREATE TABLE tasks (
        id TEXT PRIMARY KEY,
        project TEXT NOT NULL,
        intent TEXT NOT NULL,
        occurrences INTEGER NOT NULL,
        first_seen INTEGER,
        last_seen INTEGER,
        checks TEXT NOT NULL,
        outcomes TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX tasks_by_project ON tasks (project);
      CREATE TABLE nights (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        project TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
        backend TEXT NOT NULL,
        n_sessions INTEGER NOT NULL DEFAULT 0,
        n_tasks INTEGER NOT NULL DEFAULT 0,
        baseline REAL,
        candidate REAL,
        accepted INTEGER NOT NULL DEFAULT 0,
        gate_action TEXT NOT NULL DEFAULT '',
        stopped TEXT NOT NULL DEFAULT '',
        calls INTEGER NOT NULL DEFAULT 0,
        tokens INTEGER NOT NULL DEFAULT 0,
        proposal_id TEXT NOT NULL DEFAULT '',
        error TEXT NOT NULL DEFAULT ''
      );
      CREATE INDEX nights_by_project ON nights (project, id);
      CREATE TABLE replays (
        night_id INTEGER NOT NULL REFERENCES nights(id) ON DELETE CASCADE,
        phase TEXT NOT NULL,
        task_id TEXT NOT NULL,
        split TEXT NOT NULL,
        doc_hash TEXT NOT NULL,
        sample INTEGER NOT NULL,
        response TEXT NOT NULL,
        hard REAL NOT NULL,
        soft REAL NOT NULL,
        rationale TEXT NOT NULL,
        tokens INTEGER NOT NULL,
        latency_ms REAL NOT NULL
      );
      CREATE INDEX replays_by_night ON replays (night_id);
      CREATE TABLE proposals (
        id TEXT NOT NULL,
        project TEXT NOT NULL,
        night_id INTEGER REFERENCES nights(id),
        dir TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('staged', 'adopted', 'rejected', 'superseded', 'reverted')),
        created_at INTEGER NOT NULL,
        adopted_at INTEGER,
        targets TEXT NOT NULL,
        PRIMARY KEY (project, id)
      );
      CREATE TABLE rejected_edits (
        project TEXT NOT NULL,
        target TEXT NOT NULL,
        op TEXT NOT NULL,
        content_norm TEXT NOT NULL,
        content TEXT NOT NULL,
        night_id INTEGER,
        delta REAL NOT NULL,
        times INTEGER NOT NULL DEFAULT 1,
        last_at INTEGER NOT NULL,
        PRIMARY KEY (project, target, op, content_norm)
      );
    `,
  },
  {
    version: 2,
    name: 'incremental harvest',
    sql: `
      ALTER TABLE turns ADD COLUMN offset INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX sessions_by_source_path ON sessions (source_path);
      CREATE TABLE harvest_runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        started_at INTEGER NOT NULL,
        finished_at INTEGER NOT NULL,
        stats TEXT NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'pending edits',
    sql: `
      CREATE TABLE pending_edits (
        project TEXT NOT NULL,
        target TEXT NOT NULL,
        op TEXT NOT NULL,
        content TEXT NOT NULL,
        anchor TEXT NOT NULL,
        rationale TEXT NOT NULL,
        tries INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (project, target, op, content)
      );
    `,
  },
  {
    version: 4,
    name: 'model spend and response cache',
    sql: `
      ALTER TABLE nights ADD COLUMN input_tokens INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE nights ADD COLUMN output_tokens INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE nights ADD COLUMN cost_usd REAL NOT NULL DEFAULT 0;
      ALTER TABLE nights ADD COLUMN cache_hits INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE response_cache (
        key TEXT PRIMARY KEY,
        role TEXT NOT NULL,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        text TEXT NOT NULL,
        input_tokens INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER NOT NULL,
        hits INTEGER NOT NULL DEFAULT 0
      );
    `,
  },
  {
    version: 5,
    name: 'turn actions',
    // Forgetting every file cursor makes the next harvest read each transcript whole again, which
    // replaces each stored session's turns, so sessions harvested before this version gain their actions.
    sql: `
      ALTER TABLE turns ADD COLUMN actions TEXT NOT NULL DEFAULT '[]';
      DELETE FROM source_files;
    `,
  },
  {
    version: 6,
    name: 'session labels',
    // A session's task-kind label from the model, keyed by the exact text it saw: labelled once, reused
    // by every later night while the miner keeps choosing the same request.
    sql: `
      CREATE TABLE session_labels (
        session_key TEXT NOT NULL,
        text_hash TEXT NOT NULL,
        label TEXT NOT NULL,
        labelled_at INTEGER NOT NULL,
        PRIMARY KEY (session_key, text_hash)
      );
    `,
  },
  {
    version: 7,
    name: 'forget the bundled demo',
    // `run --demo` used to harvest the bundled demo's transcripts into this store, where `--scope all`
    // nights learned its rules. The demo has its own store now; its sessions (read from the demo's
    // recorded transcripts, whatever the install path) and their cursors leave this one.
    sql: `
      DELETE FROM sessions
        WHERE source_path LIKE '%/templates/demo/claude/projects/-home-dev-acme-web/%'
           OR source_path LIKE '%\\templates\\demo\\claude\\projects\\-home-dev-acme-web\\%';
      DELETE FROM source_files
        WHERE path LIKE '%/templates/demo/claude/projects/-home-dev-acme-web/%'
           OR path LIKE '%\\templates\\demo\\claude\\projects\\-home-dev-acme-web\\%';
    `,
  },
  {
    version: 8,
    name: 'why an edit was rejected',
    // Reflection tells edits that made held-out scores worse (never again) from those with no measurable
    // effect (may come back); the reason says which. Rows from before keep '' and are read by their delta.
    sql: `ALTER TABLE rejected_edits ADD COLUMN reason TEXT NOT NULL DEFAULT '';`,
  },
  {
    version: 9,
    name: 'interrupted nights',
    // A running night records its process (pid and start time); the next command marks a running
    // night whose process is gone 'interrupted'. SQLite cannot change a CHECK in place, so the table
    // is rebuilt (ids and the AUTOINCREMENT counter kept; replays and proposals keep pointing at it).
    rebuildsTable: true,
    sql: `
      CREATE TEMP TABLE m9_seq AS SELECT seq FROM sqlite_sequence WHERE name = 'nights';
      CREATE TABLE nights_v9 (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        project TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'interrupted')),
        backend TEXT NOT NULL,
        n_sessions INTEGER NOT NULL DEFAULT 0,
        n_tasks INTEGER NOT NULL DEFAULT 0,
        baseline REAL,
        candidate REAL,
        accepted INTEGER NOT NULL DEFAULT 0,
        gate_action TEXT NOT NULL DEFAULT '',
        stopped TEXT NOT NULL DEFAULT '',
        calls INTEGER NOT NULL DEFAULT 0,
        tokens INTEGER NOT NULL DEFAULT 0,
        proposal_id TEXT NOT NULL DEFAULT '',
        error TEXT NOT NULL DEFAULT '',
        input_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        cost_usd REAL NOT NULL DEFAULT 0,
        cache_hits INTEGER NOT NULL DEFAULT 0,
        pid INTEGER,
        process_start TEXT NOT NULL DEFAULT ''
      );
      INSERT INTO nights_v9 (id, project, started_at, finished_at, status, backend, n_sessions, n_tasks, baseline, candidate, accepted, gate_action, stopped, calls, tokens, proposal_id, error, input_tokens, output_tokens, cost_usd, cache_hits) SELECT id, project, started_at, finished_at, status, backend, n_sessions, n_tasks, baseline, candidate, accepted, gate_action, stopped, calls, tokens, proposal_id, error, input_tokens, output_tokens, cost_usd, cache_hits FROM nights;
      DROP TABLE nights;
      ALTER TABLE nights_v9 RENAME TO nights;
      CREATE INDEX nights_by_project ON nights (project, id);
      DELETE FROM sqlite_sequence WHERE name = 'nights';
      INSERT INTO sqlite_sequence (name, seq)
        SELECT 'nights', MAX(COALESCE((SELECT seq FROM m9_seq), 0), COALESCE((SELECT MAX(id) FROM nights), 0));
      DROP TABLE m9_seq;
    `,
  },
  {
    version: 10,
    name: 'privacy: forgotten sessions, skipped files, traces',
    // forgotten_sessions: sessions `forget` deleted, never stored again unless `forget --reharvest`.
    // skipped_files: transcripts whose every session the user's exclusions or a repository's
    // .skillopt-sleep-ignore kept out, known only by a hash of their path (no readable trace), with the
    // hash of the rules that skipped them: unchanged file and rules = not parsed again.
    // session_traces: what was derived from a session (mined tasks and their replays, cached model
    // replies, ...), so forgetting it removes those too.
    sql: `
      CREATE TABLE forgotten_sessions (
        key TEXT PRIMARY KEY,
        forgotten_at INTEGER NOT NULL
      );
      CREATE TABLE skipped_files (
        path_hash TEXT PRIMARY KEY,
        size INTEGER NOT NULL,
        mtime_ms INTEGER NOT NULL,
        inode INTEGER NOT NULL,
        rules_hash TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE session_traces (
        session_key TEXT NOT NULL,
        kind TEXT NOT NULL,
        ref TEXT NOT NULL,
        PRIMARY KEY (session_key, kind, ref)
      ) WITHOUT ROWID;
      CREATE INDEX session_traces_by_ref ON session_traces (kind, ref);
    `,
  },
  {
    version: 11,
    name: 'forget: tombstone source paths, rows from before provenance',
    // `forget --reharvest` lifts a tombstone and drops the cursor of the transcript the session was read
    // from, so the next harvest reads it again; the session row (and its source_path) is gone by then.
    // Rows derived before traces were recorded cannot be told apart: they are traced to '*', which every
    // forget removes (`forget-repo.ts`), so no session's text outlives a forget in them.
    sql: `
      ALTER TABLE forgotten_sessions ADD COLUMN source_path TEXT NOT NULL DEFAULT '';
      INSERT OR IGNORE INTO session_traces (session_key, kind, ref) SELECT '*', 'task', id FROM tasks;
      INSERT OR IGNORE INTO session_traces (session_key, kind, ref)
        SELECT DISTINCT '*', 'replay', json_array(night_id, task_id) FROM replays;
      INSERT OR IGNORE INTO session_traces (session_key, kind, ref) SELECT '*', 'response_cache', key FROM response_cache;
      INSERT OR IGNORE INTO session_traces (session_key, kind, ref)
        SELECT '*', 'rejected_edit', json_array(project, target, op, content_norm) FROM rejected_edits;
      INSERT OR IGNORE INTO session_traces (session_key, kind, ref)
        SELECT '*', 'pending_edit', json_array(project, target, op, content) FROM pending_edits;
    `,
  },
  {
    version: 12,
    name: 'mined session features',
    // What the miner read from one session alone, so a night with nothing new mines no session again.
    // A row is valid for the session's `harvested_at` (a grown transcript rewrites the session and
    // moves it) and the miner's features version; it goes with the session (forget, retention).
    sql: `
      CREATE TABLE session_features (
        session_key TEXT PRIMARY KEY REFERENCES sessions(key) ON DELETE CASCADE,
        version TEXT NOT NULL,
        harvested_at INTEGER NOT NULL,
        features TEXT NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 13,
    name: 'mined projects',
    // A project's mined clusters and tasks, under a digest of what they were mined from (the sessions
    // as stored, the options, the miner's code): a harvest or night with nothing new mines nothing.
    // The text comes from sessions, so any forget drops every row (it is only a cache). `mined` is
    // V8's serialization: several MB for a large project, read back ~5x faster than JSON.
    sql: `
      CREATE TABLE mined_projects (
        project TEXT PRIMARY KEY,
        input_digest TEXT NOT NULL,
        mined BLOB NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 14,
    name: 'mined projects: answer texts apart',
    // The correction reports' answer texts are most of a mined result's bytes and only a model pass
    // reads them: they get a column of their own, read on first use. A cache, so old rows just go.
    sql: `
      DELETE FROM mined_projects;
      ALTER TABLE mined_projects ADD COLUMN texts BLOB NOT NULL DEFAULT x'';
    `,
  },
  ...LATER_MIGRATIONS,
];
