/**
 * The functions with the most self time in a V8 CPU profile (`node --cpu-prof`), as a table.
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/out/js/bench/mine.js --sessions 20000 --runs 1 --no-2x
 *   node bench/out/js/bench/cpu-top.js /tmp/prof/*.cpuprofile [--top 25] [--filter src/miner]
 * Self time is the time spent in the function's own code (not in what it calls), from the sample
 * counts; `total` adds what it calls. `--filter` keeps functions whose file path contains the text
 * (the shares stay shares of the whole profile).
 */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
}

const file = process.argv[2];
if (file === undefined || file.startsWith('--')) {
  console.error('usage: cpu-top.js PROFILE.cpuprofile [--top N] [--filter TEXT]');
  process.exit(2);
}
const top = Number(arg('top', '25'));
const filter = arg('filter', '');
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;

// Time per sample: the delta that follows it (the last one gets the profile's end).
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i + 1] ?? 0;
  selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
});
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const keyOf = (node: ProfileNode): string => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^file:\/\//, '').replace(/^.*\/bench\/out\/js\//, '');
  return `${functionName || '(anonymous)'} ${where === '' ? '' : `${where}:${lineNumber + 1}`}`.trim();
};
const self = new Map<string, number>();
const total = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id);
  if (node === undefined) continue;
  self.set(keyOf(node), (self.get(keyOf(node)) ?? 0) + us);
  // Total: once per function on the sample's stack (recursion counted once).
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const n = byId.get(at);
    if (n === undefined) break;
    const key = keyOf(n);
    if (seen.has(key)) continue;
    seen.add(key);
    total.set(key, (total.get(key) ?? 0) + us);
  }
}
const all = [...selfUs.values()].reduce((a, b) => a + b, 0);
const rows = [...self]
  .filter(([key]) => filter === '' || key.includes(filter))
  .sort((a, b) => b[1] - a[1])
  .slice(0, top);
console.log(`profile ${(all / 1e6).toFixed(1)} s sampled`);
console.log('self ms   self %  total ms  function');
for (const [key, us] of rows) {
  console.log(
    `${(us / 1000).toFixed(0).padStart(7)}  ${((100 * us) / all).toFixed(1).padStart(6)}  ${((total.get(key) ?? 0) / 1000).toFixed(0).padStart(8)}  ${key}`,
  );
}
