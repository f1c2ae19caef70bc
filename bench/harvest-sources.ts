/**
 * The Cursor CLI and Aider harvesters (or any others: `--sources opencode,goose` on a corpus of
 * `--mix opencode=50,goose=50`) beside the bare parse of the same files, in one process, the pieces of each
 * round interleaved (CPU time, median of the rounds):
 *   npx tsc -p bench/tsconfig.bench.json
 *   node bench/out/js/bench/gen-corpus.js --out /tmp/ca --mb 50 --mix cursor-cli=50,aider=50
 *   TZ=UTC node bench/out/js/bench/harvest-sources.js --corpus /tmp/ca [--sources cursor-cli,aider] [--rounds 5]
 * Per source:
 *   bare     read every file the harvester discovers and parse every line: JSON.parse for JSONL, for
 *            Markdown every line decoded and its first character looked at (bare-parse.ts)
 *   parse    the harvester's own parse of every file (records to sessions, actions, times)
 *   cold     a whole harvest into a new store: discovery, parse, redaction, inserts, cursors
 *   warm     the same harvest again: nothing changed, nothing read
 * and a check of what was stored against the corpus's ground truth (sessions.jsonl): sessions, prompts, cwd.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpuMs, median } from './measure.js';
import os from 'node:os';
import path from 'node:path';
import { harvesters } from '../harvesters/index.js';
import type { HarvestContext } from '../harvesters/types.js';
import { bareParse } from './bare-parse.js';
import { systemClock } from '../src/core/clock.js';
import { silentLogger } from '../src/core/logger.js';
import type { SourceId } from '../src/core/session.js';
import { harvest } from '../src/harvest/harvest.js';
import { openStore } from '../src/store/db.js';
import { querySessions } from '../src/store/sessions-repo.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

const corpus = arg('corpus');
if (corpus === undefined)
  throw new Error('usage: harvest-sources --corpus <dir> [--sources a,b] [--rounds n]');
const sources = (arg('sources') ?? 'cursor-cli,aider').split(',') as SourceId[];
const rounds = Number(arg('rounds') ?? '5');
const home = path.join(corpus, 'home');
const meta = JSON.parse(readFileSync(path.join(corpus, 'corpus.json'), 'utf8')) as {
  aiderFolders?: string[];
};
const ctx: HarvestContext = {
  home,
  env: { SKILLOPT_SLEEP_AIDER_FOLDERS: (meta.aiderFolders ?? []).map((f) => path.join(home, f)).join(',') },
};
interface Truth {
  source: string;
  sessionId: string;
  cwd: string;
  prompts: number;
}
const truth = readFileSync(path.join(corpus, 'sessions.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => JSON.parse(l) as Truth);

const scratch = mkdtempSync(path.join(os.tmpdir(), 'harvest-sources-'));
console.log(`# ${sources.join(', ')} harvest speed: ${corpus}, ${rounds} rounds, Node ${process.version}\n`);
console.log(
  '| source | files | MB | sessions | bare ms | parse ms (ratio) | cold harvest ms (ratio) | warm harvest ms |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const id of sources) {
  const harvester = harvesters[id];
  const files = await harvester.discover(ctx);
  const paths = files.map((f) => f.path);
  // The bytes the bare parse reads (an SQLite store's conversation files count rows, not bytes).
  const mb = bareParse(paths).bytes / 1e6;
  const runs = { bare: [] as number[], parse: [] as number[], cold: [] as number[], warm: [] as number[] };
  let stored: ReturnType<typeof querySessions> = [];
  for (let r = 0; r < rounds; r++) {
    runs.bare.push(await cpuMs(() => bareParse(paths)));
    runs.parse.push(
      await cpuMs(async () => {
        for (const f of files) await harvester.parse(f, 0, { includeOpenLastLine: true });
      }),
    );
    const file = path.join(scratch, `${id}-${r}.sqlite`);
    const db = openStore(file);
    const run = () => harvest({ db, ctx, clock: systemClock, logger: silentLogger, sources: [id] });
    runs.cold.push(await cpuMs(run));
    runs.warm.push(await cpuMs(run));
    if (r === 0) stored = querySessions(db, { project: '/', scope: 'all', sinceMs: null, limit: 1e6 });
    db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  }
  const m = {
    bare: median(runs.bare),
    parse: median(runs.parse),
    cold: median(runs.cold),
    warm: median(runs.warm),
  };
  // RESULTS.md's convention for harvest rows: speed against the bare loop's, bare ms ÷ these ms.
  const x = (v: number) => `${v.toFixed(0)} (${(m.bare / v).toFixed(2)}×)`;
  console.log(
    `| ${id} | ${files.length} | ${mb.toFixed(1)} | ${stored.length} | ${m.bare.toFixed(0)} | ${x(m.parse)} | ${x(m.cold)} | ${m.warm.toFixed(1)} |`,
  );
  checkTruth(id, stored);
}
rmSync(scratch, { recursive: true, force: true });

/** What the store holds against what the generator wrote: every session, its prompts and its folder. */
function checkTruth(id: SourceId, stored: ReturnType<typeof querySessions>): void {
  const want = new Map(truth.filter((t) => t.source === id).map((t) => [t.sessionId, t]));
  const problems: string[] = [];
  for (const s of stored) {
    const t = want.get(s.sessionId);
    if (t === undefined) problems.push(`${s.sessionId}: not in the corpus`);
    else {
      const prompts = s.turns.filter((turn) => turn.role === 'user').length;
      if (prompts !== t.prompts) problems.push(`${s.sessionId}: ${prompts} prompts, wrote ${t.prompts}`);
      if (s.cwd !== t.cwd) problems.push(`${s.sessionId}: folder ${s.cwd}, wrote ${t.cwd}`);
      want.delete(s.sessionId);
    }
  }
  for (const missing of want.keys()) problems.push(`${missing}: not stored`);
  console.error(
    problems.length === 0
      ? `${id}: every session of the corpus stored with its prompts and folder`
      : `${id}: ${problems.length} differences, e.g. ${problems.slice(0, 3).join('; ')}`,
  );
}
