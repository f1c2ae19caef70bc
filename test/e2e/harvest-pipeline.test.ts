/**
 * The harvest stores the same rows, in the same order, whichever way it runs: parsed and redacted in
 * worker threads while the main thread writes, or all on the main thread. A generated corpus of every
 * source (plus the per-source fixtures, with their odd cases) is harvested cold, then again after a
 * transcript grew, both ways; every stored row is hashed in write order (rowid) and the two hashes must
 * equal each other and the hash the code before the pipeline gave (EXPECTED, computed on that code).
 * The harvest is the built one (dist): a worker runs compiled JavaScript, never the TypeScript sources.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, readFileSync, readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type * as HarvestModule from '../../src/harvest/harvest.js';
import type * as DbModule from '../../src/store/db.js';
import type * as RedactUserModule from '../../src/core/redact-user.js';
import { sandbox } from './cli-helpers.js';

const DIST = path.resolve(import.meta.dirname, '../../dist/src');
const GENERATOR = path.resolve(import.meta.dirname, '../../bench/out/js/bench/gen-corpus.js');
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');

/** sha256 of every stored row (sessions, turns, cursors, runs) computed on the code before the pipeline. */
// Computed on the code before the pipeline, with the 13 sources of 784d17d (a harvest run's stats name
// every source, so each new source changes it; 5acd658, with 10 sources, gave 53909c57…).
const EXPECTED = 'e63fa32da1734310302cce8e297cd83c7980f49939f23adb85e94e46e92ca8f7';

/** After every record of the corpus and fixtures: files are dated here, so no time depends on the checkout. */
const FILE_TIME = Date.UTC(2026, 10, 15);
const NOW = Date.UTC(2026, 11, 1);

function walkFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walkFiles(full, out);
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

/** A home with a generated corpus of every source and the fixtures of Claude Code, Codex, Gemini CLI, Pi and Copilot CLI. */
function corpusHome(root: string): { home: string; env: Record<string, string> } {
  const corpus = path.join(root, 'corpus');
  execFileSync(
    process.execPath,
    [
      ...[GENERATOR, '--out', corpus, '--mb', '4', '--seed', '41', '--secret-rate', '0.2'],
      ...['--mix', 'claude=30,codex=15,copilot=10,copilot-cli=10,gemini=10,pi=10,cursor-cli=8,aider=7'],
    ],
    { stdio: 'ignore' },
  );
  const home = path.join(corpus, 'home');
  cpSync(path.join(FIXTURES, 'claude/projects'), path.join(home, '.claude/projects'), { recursive: true });
  cpSync(path.join(FIXTURES, 'codex/codex-home'), path.join(home, '.codex'), { recursive: true });
  cpSync(path.join(FIXTURES, 'gemini/.gemini'), path.join(home, '.gemini'), { recursive: true });
  cpSync(path.join(FIXTURES, 'pi/.pi'), path.join(home, '.pi'), { recursive: true });
  cpSync(path.join(FIXTURES, 'copilot-cli/.copilot'), path.join(home, '.copilot'), { recursive: true });
  for (const file of walkFiles(home)) utimesSync(file, FILE_TIME / 1000, FILE_TIME / 1000);
  const aiderFolders = (
    JSON.parse(readFileSync(path.join(corpus, 'corpus.json'), 'utf8')) as { aiderFolders: string[] }
  ).aiderFolders.map((f) => path.join(home, f));
  return { home, env: { SKILLOPT_SLEEP_AIDER_FOLDERS: aiderFolders.join(',') } };
}

/** Two exchanges appended to the largest Claude Code transcript, continuing its session. */
function growTranscript(home: string): void {
  const files = walkFiles(path.join(home, '.claude/projects')).filter(
    (f) => f.endsWith('.jsonl') && !f.includes('subagents'),
  );
  const largest = files.sort((a, b) => statSync(b).size - statSync(a).size || (a < b ? -1 : 1))[0];
  if (largest === undefined) throw new Error('no Claude Code transcript');
  const first = JSON.parse(readFileSync(largest, 'utf8').split('\n')[0] ?? '{}') as Record<string, unknown>;
  const records = ['please also run the linter', 'Ran it: no problems found.', 'thanks'].map((text, i) => ({
    type: i % 2 === 0 ? 'user' : 'assistant',
    uuid: `grown-${i}`,
    parentUuid: i === 0 ? null : `grown-${i - 1}`,
    sessionId: first['sessionId'],
    cwd: first['cwd'],
    timestamp: new Date(FILE_TIME + 1000 * (i + 1)).toISOString(),
    message:
      i % 2 === 0
        ? { role: 'user', content: text }
        : { role: 'assistant', content: [{ type: 'text', text }] },
  }));
  appendFileSync(largest, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  utimesSync(largest, (FILE_TIME + 60_000) / 1000, (FILE_TIME + 60_000) / 1000);
}

/** Every row the harvest wrote, in write order, paths relative to the home (inodes and the run's id left out). */
function storedRows(file: string, home: string): string {
  const db = new Database(file, { readonly: true });
  const rel = (v: unknown): unknown => (typeof v === 'string' ? v.split(home).join('<home>') : v);
  const rows = (sql: string): unknown[] =>
    (db.prepare(sql).all() as Array<Record<string, unknown>>).map((r) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, rel(v)])),
    );
  const all = {
    sessions: rows('SELECT * FROM sessions ORDER BY rowid'),
    turns: rows('SELECT rowid, * FROM turns ORDER BY rowid'),
    cursors: rows(
      'SELECT path, source, size, mtime_ms, parsed_offset, bad_lines, updated_at FROM source_files ORDER BY rowid',
    ),
    runs: rows('SELECT started_at, finished_at, stats FROM harvest_runs ORDER BY id'),
  };
  db.close();
  // Aider's session ids begin with a hash of the history's path, which holds the temporary folder's name.
  let text = JSON.stringify(all);
  for (const file of walkFiles(home).filter((f) => f.endsWith('.aider.chat.history.md'))) {
    const id = createHash('sha256').update(file).digest('hex').slice(0, 16);
    text = text.split(id).join(`<aider:${path.relative(home, file)}>`);
  }
  return text;
}

type Mode = 'sync' | 'workers';

async function harvestTwice(mode: Mode): Promise<{ hash: string; sessions: number; workers: number }> {
  const { harvest } = (await import(path.join(DIST, 'harvest/harvest.js'))) as typeof HarvestModule;
  const { openStore } = (await import(path.join(DIST, 'store/db.js'))) as typeof DbModule;
  const { withRedactPatterns } = (await import(
    path.join(DIST, 'core/redact-user.js')
  )) as typeof RedactUserModule;
  const box = sandbox();
  const { home, env } = corpusHome(box.root);
  const storeFile = path.join(box.root, 'store.sqlite');
  const db = openStore(storeFile);
  let sessions = 0;
  let workers = 0;
  // A user pattern too: the workers must redact with the scope's patterns, as the main thread does.
  await withRedactPatterns([{ name: 'ticket', regex: 'proj-[0-9]+' }], async () => {
    for (const [round, now] of [NOW, NOW + 3_600_000].entries()) {
      if (round === 1) growTranscript(home);
      const summary = await harvest({
        db,
        ctx: { home, env },
        clock: { now: () => now },
        logger: { progress() {}, warn() {} },
        pipeline: mode,
      });
      sessions += summary.sessionsStored;
      workers = Math.max(workers, summary.parseWorkers);
    }
  });
  db.close();
  const hash = createHash('sha256').update(storedRows(storeFile, home)).digest('hex');
  return { hash, sessions, workers };
}

describe('the harvest pipeline', () => {
  it('stores the same rows in the same order in worker threads and on the main thread', async () => {
    const sync = await harvestTwice('sync');
    const workers = await harvestTwice('workers');
    expect(sync.sessions).toBeGreaterThan(40);
    expect([sync.workers, workers.workers > 0]).toEqual([0, true]);
    expect(workers.hash).toBe(sync.hash);
    expect(sync.hash).toBe(EXPECTED);
  }, 120_000);
});
