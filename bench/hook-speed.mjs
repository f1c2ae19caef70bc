/* eslint-disable no-console */
/* global process, console */
// The Claude Code SessionEnd hook against a bare `node -e 0` start, interleaved in one loop (medians).
// Run: node bench/hook-speed.mjs [rounds]
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const HOOK = path.resolve(import.meta.dirname, '../integrations/claude-code/hooks/session-end.mjs');
const rounds = Number(process.argv[2] ?? 11);
const home = mkdtempSync(path.join(os.tmpdir(), 'sos-hook-bench-'));
const env = { PATH: process.env.PATH ?? '', HOME: home, SKILLOPT_SLEEP_HOME: path.join(home, 'state') };
const input = JSON.stringify({
  session_id: 'abc-123',
  transcript_path: path.join(home, '.claude/projects/-work-app/abc-123.jsonl'),
  cwd: '/work/app',
  hook_event_name: 'SessionEnd',
  reason: 'exit',
});
const timed = (args, opts) => {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, opts);
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
};
const bare = [];
const hook = [];
for (let i = 0; i < rounds; i++) {
  bare.push(timed(['-e', '0'], { env: { PATH: env.PATH } }));
  hook.push(timed([HOOK], { input, env }));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const [h, b] = [median(hook), median(bare)];
console.log(
  `session-end hook: median ${h.toFixed(1)} ms, bare node ${b.toFixed(1)} ms, ratio ${(h / b).toFixed(2)} (${rounds} rounds)`,
);
