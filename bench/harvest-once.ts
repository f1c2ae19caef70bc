/**
 * One harvest of a corpus into a store, in its own process so its peak memory is its own. Prints one JSON
 * line: wall time, bytes read, per-source stats, peak RSS. Used by bench/harvest.ts.
 *   node bench/out/js/bench/harvest-once.js --home <corpus>/home --state <dir> [--source claude]
 */
import path from 'node:path';
import { systemClock } from '../src/core/clock.js';
import { silentLogger } from '../src/core/logger.js';
import { harvest } from '../src/harvest/harvest.js';
import { openStore } from '../src/store/db.js';
import type { SourceId } from '../src/core/session.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

const home = arg('home');
const state = arg('state');
if (!home || !state) throw new Error('usage: harvest-once --home <dir> --state <dir> [--source id]');
const source = arg('source') as SourceId | undefined;

const db = openStore(path.join(state, 'store.sqlite'));
const started = performance.now();
const summary = await harvest({
  db,
  ctx: { home, env: {} },
  clock: systemClock,
  logger: silentLogger,
  ...(source ? { sources: [source] } : {}),
});
const ms = performance.now() - started;
db.close();
const bytes = Object.values(summary.bySource).reduce((n, s) => n + (s?.bytes_read ?? 0), 0);
console.log(
  JSON.stringify({
    ms: Math.round(ms * 10) / 10,
    bytes,
    files: summary.filesSeen,
    parsed: summary.filesParsed,
    sessions: summary.sessionsStored,
    bad_lines: summary.badLines,
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    by_source: summary.bySource,
  }),
);
