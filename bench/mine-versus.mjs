/**
 * Two builds of the miner on the same sessions in one process, alternating (see mine-versus.sh):
 *   node bench/mine-versus.mjs OLD_OUT NEW_OUT [--sessions 20000] [--runs 3]
 * OLD_OUT and NEW_OUT are bench output folders (`bench/out/js` of each checkout). Prints JSON with the
 * median wall and CPU time of each and their ratios (new ÷ old): a speed-up measured side by side,
 * not against a number from another day.
 */
import process from 'node:process';
import { performance } from 'node:perf_hooks';

const [oldDir, newDir] = process.argv.slice(2);
if (!oldDir || !newDir)
  throw new Error('usage: node bench/mine-versus.mjs OLD_OUT NEW_OUT [--sessions N] [--runs R]');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const sessionsArg = arg('sessions', 20000);
const runs = arg('runs', 3);
const builds = {
  old: await import(`${oldDir}/src/miner/mine.js`),
  new: await import(`${newDir}/src/miner/mine.js`),
};
// The corpus comes from the new checkout's generator: both miners read the very same sessions.
const { generateCorpus, PROJECT } = await import(`${newDir}/bench/mine-corpus.js`);
const { sessions } = generateCorpus({ sessions: sessionsArg, seed: 1 });
const once = (miner) => {
  const cpu = process.cpuUsage();
  const start = performance.now();
  miner.mineSessions(sessions, { project: PROJECT, maxTasks: Number.MAX_SAFE_INTEGER });
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
};
once(builds.old);
once(builds.new);
const samples = { old: [], new: [] };
for (let r = 0; r < runs; r++) for (const name of ['old', 'new']) samples[name].push(once(builds[name]));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = (name) => ({
  wall_ms: Math.round(median(samples[name].map((s) => s.wall))),
  cpu_ms: Math.round(median(samples[name].map((s) => s.cpu))),
});
const before = summary('old');
const after = summary('new');
process.stdout.write(
  `${JSON.stringify({ sessions: sessionsArg, runs, old: before, new: after, wall_ratio: +(after.wall_ms / before.wall_ms).toFixed(3), cpu_ratio: +(after.cpu_ms / before.cpu_ms).toFixed(3) }, null, 2)}\n`,
);
