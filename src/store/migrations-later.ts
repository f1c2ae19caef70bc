/**
 * The schema migrations from 15 on (`migrations.ts` holds 1–14 and the whole list). Never edit a
 * shipped migration: add the next number here.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Rebuilds a table other tables reference: run with foreign keys off, then checked (`db.ts`). */
  rebuildsTable?: boolean;
}

export const LATER_MIGRATIONS: readonly Migration[] = [
  {
    version: 15,
    name: 'batch nights',
    // A `--batch` night spans invocations: each round's requests go to the provider's batch engine
    // as one batch, and the next `run` polls it. One batch night per project at a time (like a handoff
    // queue); its rows go when it finishes or fails. `custom_id` is the request's response-cache key,
    // so a collected answer is the cache entry an interactive night would have made. `request` is the
    // redacted request as sent (JSON); `error_kind` is 'retryable' or 'fatal' for an errored request.
    sql: `
      CREATE TABLE batch_jobs (
        project TEXT NOT NULL,
        batch_id TEXT NOT NULL,
        night_started INTEGER NOT NULL,
        provider TEXT NOT NULL,
        state TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        request_count INTEGER NOT NULL,
        PRIMARY KEY (project, batch_id)
      ) WITHOUT ROWID;
      CREATE TABLE batch_requests (
        project TEXT NOT NULL,
        custom_id TEXT NOT NULL,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        request TEXT NOT NULL,
        batch_id TEXT,
        attempt INTEGER NOT NULL DEFAULT 0,
        answer TEXT,
        input_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        error TEXT NOT NULL DEFAULT '',
        error_kind TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL,
        PRIMARY KEY (project, custom_id)
      ) WITHOUT ROWID;
      CREATE INDEX batch_requests_batch ON batch_requests (project, batch_id);
    `,
  },
  {
    version: 16,
    name: 'mined results in rowid tables',
    // A WITHOUT ROWID table keeps its rows in the key's b-tree, made for small rows; these hold
    // kilobytes (features) to megabytes (a mined result) a row, and reading a 2 MB result back took
    // 3-5x as long as from a rowid table. Same columns and constraints; the rows are kept.
    sql: `
      CREATE TABLE session_features_v16 (
        session_key TEXT PRIMARY KEY REFERENCES sessions(key) ON DELETE CASCADE,
        version TEXT NOT NULL,
        harvested_at INTEGER NOT NULL,
        features TEXT NOT NULL
      );
      INSERT INTO session_features_v16 (session_key, version, harvested_at, features)
        SELECT session_key, version, harvested_at, features FROM session_features;
      DROP TABLE session_features;
      ALTER TABLE session_features_v16 RENAME TO session_features;
      CREATE TABLE mined_projects_v16 (
        project TEXT PRIMARY KEY,
        input_digest TEXT NOT NULL,
        mined BLOB NOT NULL,
        texts BLOB NOT NULL DEFAULT x''
      );
      INSERT INTO mined_projects_v16 (project, input_digest, mined, texts)
        SELECT project, input_digest, mined, texts FROM mined_projects;
      DROP TABLE mined_projects;
      ALTER TABLE mined_projects_v16 RENAME TO mined_projects;
    `,
  },
  {
    version: 17,
    name: 'forgotten lessons',
    // Lessons the user forgot (`lessons forget`): mining drops a lesson with a forgotten id, evidence
    // or rule. Hashes only (the session key's, the normalised rule's), never text: forgetting the
    // sessions deletes their evidence rows, and a lesson left with none goes (`forget-repo.ts`).
    sql: `
      CREATE TABLE forgotten_lessons (
        lesson_id TEXT PRIMARY KEY,
        project TEXT NOT NULL,
        rule_key TEXT NOT NULL,
        forgotten_at INTEGER NOT NULL
      );
      CREATE TABLE forgotten_lesson_evidence (
        lesson_id TEXT NOT NULL REFERENCES forgotten_lessons(lesson_id) ON DELETE CASCADE,
        session_hash TEXT NOT NULL,
        turn INTEGER NOT NULL,
        PRIMARY KEY (lesson_id, session_hash, turn)
      ) WITHOUT ROWID;
      CREATE INDEX forgotten_lesson_evidence_session ON forgotten_lesson_evidence (session_hash);
    `,
  },
  {
    version: 18,
    name: 'proposal manifests and journals',
    // A proposal folder arrives with a clone: the store keeps the manifest a night staged and the
    // journal an adopt or revert wrote, and only those are trusted (`src/core/proposal-ledger.ts`).
    // Rows staged before this version keep NULL (trusted only for files inside their project).
    sql: `
      ALTER TABLE proposals ADD COLUMN manifest TEXT;
      ALTER TABLE proposals ADD COLUMN journal TEXT;
    `,
  },
  {
    version: 19,
    name: 'rejected rules',
    // A rule the user rejected (`reject`) joins the forgotten lessons (`origin`), and every forgotten
    // rule keeps the hashes of its distinctive tokens and of its checks, so a rewording of it is known
    // (`src/core/forgotten-lesson.ts`). Hashes only, as before.
    sql: `
      ALTER TABLE forgotten_lessons ADD COLUMN origin TEXT NOT NULL DEFAULT 'forget';
      CREATE TABLE forgotten_lesson_marks (
        lesson_id TEXT NOT NULL REFERENCES forgotten_lessons(lesson_id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('token', 'check')),
        hash TEXT NOT NULL,
        PRIMARY KEY (lesson_id, kind, hash)
      ) WITHOUT ROWID;
    `,
  },
];
