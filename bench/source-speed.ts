/**
 * One source's harvester beside the bare parse of the same files (issue 39: Gemini CLI and Pi, then OpenCode
 * and Goose, whose files are the conversations of their SQLite stores), in one process, rounds interleaved:
 *   npx tsc -p bench/tsconfig.bench.json
 *   node bench/out/js/bench/gen-corpus.js --out /tmp/gp200 --mb 200 --mix gemini=50,pi=50
 *   node bench/out/js/bench/source-speed.js --home /tmp/gp200/home [--sources gemini,pi] [--rounds 5]
 * Per source (CPU time, median of the rounds):
 *   bare     read every file and JSON.parse every line, a whole `.json` at once, keep nothing (`bare-parse.ts`;
 *            for a store: every JSON column of it read and parsed)
 *   parse    the harvester's parse of every file from its start, as a cold harvest reads it
 *   harvest  a cold `harvest()` of the source into a fresh store: parse, redaction, insert, cursors
 * A ratio is the speed beside the bare parse (bare time / its time): above 1 is faster than it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpuMs, median } from './measure.js';
import os from 'node:os';
import path from 'node:path';
import { harvesters } from '../harvesters/index.js';
import { bareParse } from './bare-parse.js';
import { fixedClock } from '../src/core/clock.js';
import { silentLogger } from '../src/core/logger.js';
import type { SourceId } from '../src/core/session.js';
import { harvest } from '../src/harvest/harvest.js';
import { openStore } from '../src/store/db.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

const home = arg('home');
if (home === undefined)
  throw new Error('usage: source-speed --home <dir> [--sources gemini,pi] [--rounds n]');
const sources = (arg('sources') ?? 'gemini,pi').split(',') as SourceId[];
const rounds = Number(arg('rounds') ?? '5');
const ctx = { home, env: {} };

const scratch = mkdtempSync(path.join(os.tmpdir(), 'source-speed-'));
console.log(`# harvesters beside the bare parse: ${rounds} rounds, Node ${process.version}\n`);
console.log(
  '| source | files | MB | sessions | turns | bare ms | parse ms (speed × bare) | cold harvest ms (× bare) |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const id of sources) {
  const harvester = harvesters[id];
  if (harvester === undefined) throw new Error(`unknown source ${id}`);
  const files = await harvester.discover(ctx);
  const paths = files.map((f) => f.path);
  // The JSON the bare parse reads (an SQLite store's conversation files count rows, not bytes).
  const mb = bareParse(paths).bytes / 1e6;
  const times = { bare: [] as number[], parse: [] as number[], harvest: [] as number[] };
  let sessions = 0;
  let turns = 0;
  for (let r = 0; r < rounds; r++) {
    times.bare.push(await cpuMs(() => bareParse(paths)));
    times.parse.push(
      await cpuMs(async () => {
        sessions = 0;
        turns = 0;
        for (const file of files) {
          const parsed = await harvester.parse(file, 0, { includeOpenLastLine: true });
          sessions += parsed.sessions.length;
          for (const s of parsed.sessions) turns += s.turns.length;
        }
      }),
    );
    const storeFile = path.join(scratch, `${id}-${r}.sqlite`);
    const db = openStore(storeFile);
    times.harvest.push(
      await cpuMs(() =>
        harvest({ db, ctx, clock: fixedClock(Date.now()), logger: silentLogger, sources: [id] }),
      ),
    );
    db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(storeFile + suffix, { force: true });
  }
  const bare = median(times.bare);
  const parse = median(times.parse);
  const cold = median(times.harvest);
  console.log(
    `| ${id} | ${files.length} | ${mb.toFixed(0)} | ${sessions} | ${turns} | ${bare.toFixed(0)} | ` +
      `${parse.toFixed(0)} (${(bare / parse).toFixed(2)}×) | ${cold.toFixed(0)} (${(bare / cold).toFixed(2)}×) |`,
  );
}
rmSync(scratch, { recursive: true, force: true });
