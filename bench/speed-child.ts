/**
 * One measured piece of work for bench/speed.ts, in its own process so its CPU and peak memory are its own.
 * Prints one JSON line: CPU and wall milliseconds of the work alone (module loading excluded), input bytes,
 * sessions, peak RSS of the whole process.
 *   node bench/out/js/bench/speed-child.js bare --home <corpus>/home [--source claude]
 *   node bench/out/js/bench/speed-child.js harvest --home <corpus>/home --state <dir> [--source claude] [--pipeline auto|workers|sync]
 * `bare` is the anchor: read every transcript file the harvest would read and JSON.parse every line (a
 * whole-document `.json` file is one parse), keeping nothing: what a parse-everything reader costs.
 */
import path from 'node:path';
import { bareParse } from './bare-parse.js';
import { systemClock } from '../src/core/clock.js';
import { silentLogger } from '../src/core/logger.js';
import { harvest } from '../src/harvest/harvest.js';
import { harvesters, SOURCE_IDS } from '../harvesters/index.js';
import { openStore } from '../src/store/db.js';
import type { SourceId } from '../src/core/session.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

const mode = process.argv[2];
const home = arg('home');
if ((mode !== 'bare' && mode !== 'harvest') || home === undefined)
  throw new Error('usage: speed-child bare|harvest --home <dir> [--state <dir>] [--source id]');
const source = arg('source') as SourceId | undefined;
const ids: readonly SourceId[] = source ? [source] : SOURCE_IDS;
const ctx = { home, env: {} };

const cpuMs = (since: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};

let result: Record<string, unknown>;
if (mode === 'bare') {
  // The file list comes from the harvesters' own discovery, outside the timed part (as the harvest's is inside).
  const files = (await Promise.all(ids.map((id) => harvesters[id].discover(ctx)))).flat();
  const started = process.cpuUsage();
  const wallStart = performance.now();
  const { bytes, lines } = bareParse(files.map((f) => f.path));
  result = {
    cpu_ms: cpuMs(started),
    wall_ms: performance.now() - wallStart,
    bytes,
    files: files.length,
    lines,
  };
} else {
  const state = arg('state');
  if (state === undefined) throw new Error('harvest needs --state <dir>');
  const db = openStore(path.join(state, 'store.sqlite'));
  const started = process.cpuUsage();
  const wallStart = performance.now();
  const pipeline = arg('pipeline') as 'auto' | 'workers' | 'sync' | undefined;
  const summary = await harvest({
    ...(pipeline ? { pipeline } : {}),
    ...(arg('workers') !== undefined ? { parseWorkers: Number(arg('workers')) } : {}),
    db,
    ctx,
    clock: systemClock,
    logger: silentLogger,
    sources: [...ids],
  });
  const cpu = cpuMs(started);
  const wall = performance.now() - wallStart;
  db.close();
  const bytes = Object.values(summary.bySource).reduce((n, s) => n + (s?.bytes_read ?? 0), 0);
  result = {
    cpu_ms: cpu,
    wall_ms: wall,
    bytes,
    files: summary.filesSeen,
    sessions: summary.sessionsStored,
    workers: summary.parseWorkers,
  };
}
console.log(JSON.stringify({ ...result, peak_rss_mib: process.resourceUsage().maxRSS / 1024 }));
