/* eslint-disable no-console */
/* global process, console, URL */
// Start-up time of the CLI (issue 20 item 4): `node -e 0`, `--help`, `--version` and `status`, interleaved
// round by round so machine noise hits every case alike; prints wall-time medians and the deltas
// against bare node. Usage: node bench/startup.mjs [--rounds N] [main.js ...] (default dist/src/cli/main.js;
// give two to compare builds, e.g. a copy of main's dist and this one).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
let rounds = 9;
const mains = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--rounds') rounds = Number(args[++i]);
  else mains.push(path.resolve(args[i]));
}
if (mains.length === 0) mains.push(fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url)));

const temp = mkdtempSync(path.join(tmpdir(), 'sleep-startup-'));
const env = { ...process.env, HOME: temp, SKILLOPT_SLEEP_HOME: path.join(temp, 'state') };
const cases = [{ name: 'node -e 0', argv: ['-e', '0'] }];
for (const [i, main] of mains.entries()) {
  const tag = mains.length > 1 ? `#${i + 1} ` : '';
  for (const a of ['--help', '--version', 'status'])
    cases.push({ name: `${tag}${a}`, argv: [main, a], main: i });
}

/** Wall ms of one run: what a user waits for. */
function time(argv) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { env, cwd: temp, stdio: ['ignore', 'ignore', 'pipe'] });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  return wall;
}

const wall = cases.map(() => []);
for (let r = 0; r < rounds; r++) for (const [i, c] of cases.entries()) wall[i].push(time(c.argv));
rmSync(temp, { recursive: true, force: true });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const bare = median(wall[0]);
console.log(`rounds ${rounds}, medians of wall time (ms)`);
for (const [i, c] of cases.entries()) {
  const m = median(wall[i]);
  const delta = i === 0 ? '' : `  (+${(m - bare).toFixed(0)} ms beyond node -e 0)`;
  console.log(`${c.name.padEnd(16)} ${m.toFixed(0).padStart(5)}${delta}`);
}
