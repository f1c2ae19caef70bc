/**
 * `harvest_runs`: one row per harvest that read something, its stats as JSON (per source: files, sessions,
 * values redacted per kind). `status` sums the redaction counts of every row; values are never stored.
 */
import type { Db } from './db.js';

/** Values redacted per kind (`openai-key`, a `redact_patterns` name, `custom`…). */
export type RedactionCounts = Record<string, number>;

export interface HarvestRunStats {
  files_seen: number;
  files_parsed: number;
  sessions_stored: number;
  /** Per source: the harvest's `SourceStats`, `redactions` among them. */
  by_source: Partial<Record<string, { redactions: RedactionCounts }>>;
}

export function insertHarvestRun(
  db: Db,
  startedAt: number,
  finishedAt: number,
  stats: HarvestRunStats,
): void {
  db.prepare('INSERT INTO harvest_runs (started_at, finished_at, stats) VALUES (?, ?, ?)').run(
    startedAt,
    finishedAt,
    JSON.stringify(stats),
  );
}

/** The values redacted by every recorded harvest, per source and kind (sources and kinds sorted). */
export function redactionTotals(db: Db): Record<string, RedactionCounts> {
  const rows = db
    .prepare(
      `SELECT s.key AS source, k.key AS kind, SUM(k.value) AS n
         FROM harvest_runs r, json_each(r.stats, '$.by_source') s, json_each(s.value, '$.redactions') k
        WHERE json_valid(r.stats) AND k.type = 'integer'
        GROUP BY s.key, k.key
        ORDER BY s.key, k.key`,
    )
    .all() as Array<{ source: string; kind: string; n: number }>;
  const totals: Record<string, RedactionCounts> = {};
  for (const { source, kind, n } of rows) if (n > 0) (totals[source] ??= {})[kind] = n;
  return totals;
}
