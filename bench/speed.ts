/**
 * Issue 20's goals, side by side with their anchors, in one script. Every piece runs in its own process
 * and the pieces of one round are interleaved, so machine noise hits the anchor and the measure alike.
 *   bench/run.sh gen-corpus --out /tmp/speed-a --sessions 2000 --output-scale 0.02
 *   bench/run.sh gen-corpus --out /tmp/speed-b --sessions 2000 --output-scale 1
 *   bench/run.sh gen-corpus --out /tmp/speed-night --sessions 8000 --max-turns 3 --max-steps 1 --output-scale 0.05 --end now
 *   npm run build && node bench/out/js/bench/speed.js --corpus /tmp/speed-a --corpus /tmp/speed-b \
 *     --corpus /tmp/speed-night --night-corpus /tmp/speed-night [--rounds 5] [--only harvest,reharvest,night,startup,calls]
 * The cost model (ms per session + ms per MiB) needs corpora whose bytes per session differ widely: the
 * night corpus (17 KB a session) beside 200 KB sessions separates the two; corpora of like sessions do not.
 * The anchor of the harvest rows is a bare loop that JSON.parses every line of the same files
 * (speed-child.ts `bare`): the Python reference reads at that limit and stores nothing. CPU time is the
 * measure (user + system); MB are 10^6 bytes.
 */
import { PERSONA_FILES, personaNightCalls } from './calls.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.resolve(here, '../../../..');
const child = path.join(here, 'speed-child.js');
const usageHook = path.join(here, 'usage-at-exit.js');
const cli = path.join(root, 'dist/src/cli/main.js');

function args(name: string): string[] {
  const out: string[] = [];
  process.argv.forEach((a, i) => {
    if (a === `--${name}` && process.argv[i + 1] !== undefined) out.push(process.argv[i + 1] as string);
  });
  return out;
}
const corpora = args('corpus');
const nightCorpus = args('night-corpus')[0];
const rounds = Number(args('rounds')[0] ?? '5');
const project = args('project')[0] ?? '/work/proj-1';
const only = new Set((args('only')[0] ?? 'harvest,reharvest,night,startup,calls').split(','));
const scratch = mkdtempSync(path.join(os.tmpdir(), 'speed-'));

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const fmt = (n: number, d = 0): string => n.toFixed(d);
const mb = (bytes: number): number => bytes / 1e6;

interface ChildResult {
  cpu_ms: number;
  bytes: number;
  sessions?: number;
  peak_rss_mib: number;
}

function runChild(argv: string[]): ChildResult {
  const r = spawnSync(process.execPath, [child, ...argv], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`speed-child ${argv.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as ChildResult;
}

interface CliRun {
  wall_ms: number;
  cpu_ms: number;
  peak_rss_mib: number;
  stdout: string;
}

/** The built CLI in a fresh process with `home` and `state`; CPU and RSS of the whole process. */
function runCli(argv: string[], home: string, state: string, hook = true): CliRun {
  const usage = path.join(scratch, `usage-${process.hrtime.bigint()}.jsonl`);
  const env = {
    ...process.env,
    HOME: home,
    SKILLOPT_SLEEP_HOME: state,
    SPEED_USAGE_OUT: usage,
    NO_COLOR: '1',
  };
  const started = performance.now();
  const r = spawnSync(process.execPath, [...(hook ? ['--import', usageHook] : []), cli, ...argv], {
    encoding: 'utf8',
    env,
    maxBuffer: 64 << 20,
  });
  const wall = performance.now() - started;
  if (r.status !== 0) throw new Error(`skillopt-sleep ${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  const line = hook
    ? (JSON.parse(readFileSync(usage, 'utf8').trim()) as { cpu_ms: number; peak_rss_mib: number })
    : null;
  return {
    wall_ms: wall,
    cpu_ms: line?.cpu_ms ?? 0,
    peak_rss_mib: line?.peak_rss_mib ?? 0,
    stdout: r.stdout,
  };
}

function bareNode(): number {
  const started = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  return performance.now() - started;
}

const freshState = (): string => mkdtempSync(path.join(scratch, 'state-'));

// ---------------------------------------------------------------------------------------------
// Harvest: cold, Claude Code only and all sources, each beside the bare parse loop of the same files.

interface CorpusRow {
  corpus: string;
  sessions: number;
  claude: { bare: ChildResult[]; harvest: ChildResult[] };
  all: { bare: ChildResult[]; harvest: ChildResult[] };
}

function harvestRows(corpus: string): CorpusRow {
  const home = path.join(corpus, 'home');
  const row: CorpusRow = {
    corpus,
    sessions: 0,
    claude: { bare: [], harvest: [] },
    all: { bare: [], harvest: [] },
  };
  for (let r = 0; r < rounds; r++) {
    row.claude.bare.push(runChild(['bare', '--home', home, '--source', 'claude']));
    row.claude.harvest.push(
      runChild(['harvest', '--home', home, '--state', freshState(), '--source', 'claude']),
    );
    row.all.bare.push(runChild(['bare', '--home', home]));
    const all = runChild(['harvest', '--home', home, '--state', freshState()]);
    row.all.harvest.push(all);
    row.sessions = all.sessions ?? 0;
  }
  return row;
}

const throughput = (runs: ChildResult[]): number =>
  mb(runs[0]?.bytes ?? 0) / (median(runs.map((x) => x.cpu_ms)) / 1000);

function printHarvest(rows: CorpusRow[]): void {
  console.log('\n## Cold harvest (CPU time of the work, medians of %d rounds)\n', rounds);
  console.log(
    '| corpus | sessions | input MB | what | bare parse MB/s | harvest MB/s | ratio | harvest peak RSS MiB |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    for (const what of ['claude', 'all'] as const) {
      const part = row[what];
      const bare = throughput(part.bare);
      const h = throughput(part.harvest);
      const rss = median(part.harvest.map((x) => x.peak_rss_mib));
      console.log(
        `| ${path.basename(row.corpus)} | ${row.sessions} | ${fmt(mb(part.harvest[0]?.bytes ?? 0))} | ${what === 'claude' ? 'Claude Code' : 'all sources'} | ${fmt(bare)} | ${fmt(h)} | **${fmt(h / bare, 2)}×** | ${fmt(rss)} |`,
      );
    }
  }
  if (rows.length >= 2) {
    // cpu = a·sessions + b·MiB over the corpora (least squares, no intercept): a is the fixed cost per session.
    let ss = 0,
      sm = 0,
      mm = 0,
      sc = 0,
      mc = 0;
    for (const row of rows) {
      const s = row.sessions;
      const m = (row.all.harvest[0]?.bytes ?? 0) / 1048576;
      const c = median(row.all.harvest.map((x) => x.cpu_ms));
      ss += s * s;
      sm += s * m;
      mm += m * m;
      sc += s * c;
      mc += m * c;
    }
    const det = ss * mm - sm * sm;
    if (Math.abs(det) > 1e-9) {
      const a = (sc * mm - mc * sm) / det;
      const b = (ss * mc - sm * sc) / det;
      // The fit only separates the two costs when the corpora's bytes per session differ widely.
      const perSession = rows.map((row) => (row.all.harvest[0]?.bytes ?? 0) / 1048576 / row.sessions);
      console.log(
        `\ncost model, all sources: ${fmt(a, 3)} ms fixed per session + ${fmt(b, 2)} ms per MiB of input` +
          ` (MiB per session ${fmt(Math.min(...perSession), 3)}–${fmt(Math.max(...perSession), 3)})`,
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Re-harvest with nothing new, beside the same command over an empty home (start-up, store open, mining nothing).

function reharvestRows(corpus: string): void {
  const home = path.join(corpus, 'home');
  const state = freshState();
  const emptyHome = mkdtempSync(path.join(scratch, 'empty-home-'));
  const emptyState = freshState();
  const base = ['harvest', '--project', project, '--json'];
  const lifted = [...base, '--lookback-hours', '0', '--max-sessions', '1000000'];
  runCli(base, home, state); // the cold harvest, not timed
  runCli(base, emptyHome, emptyState); // the anchor's store exists too
  const anchor: CliRun[] = [];
  const again: CliRun[] = [];
  const againLifted: CliRun[] = [];
  for (let r = 0; r < rounds; r++) {
    anchor.push(runCli(lifted, emptyHome, emptyState));
    again.push(runCli(base, home, state));
    againLifted.push(runCli(lifted, home, state));
  }
  const sessions = (JSON.parse(againLifted[0]?.stdout ?? '{}') as { n_sessions?: number }).n_sessions;
  console.log(
    `\n## Re-harvest with nothing new (${path.basename(corpus)}, project ${project}: ${sessions} sessions mined with caps lifted)\n`,
  );
  console.log('| run | wall ms | CPU ms | beyond the empty-home anchor (wall / CPU) |');
  console.log('|---|---|---|---|');
  const aw = median(anchor.map((x) => x.wall_ms));
  const ac = median(anchor.map((x) => x.cpu_ms));
  const line = (name: string, runs: CliRun[]): void => {
    const w = median(runs.map((x) => x.wall_ms));
    const c = median(runs.map((x) => x.cpu_ms));
    console.log(`| ${name} | ${fmt(w)} | ${fmt(c)} | **${fmt(w - aw)} / ${fmt(c - ac)} ms** |`);
  };
  line('anchor: same command, empty home', anchor);
  line('default caps', again);
  line('caps lifted (--lookback-hours 0 --max-sessions 1000000)', againLifted);
}

// ---------------------------------------------------------------------------------------------
// The first mock night on a machine with history: harvest included, fresh state each round.

function nightRows(corpus: string): void {
  const home = path.join(corpus, 'home');
  const runs: CliRun[] = [];
  const nodes: number[] = [];
  let report: Record<string, unknown> = {};
  for (let r = 0; r < rounds; r++) {
    nodes.push(bareNode());
    const run = runCli(['dry-run', '--backend', 'mock', '--project', project, '--json'], home, freshState());
    runs.push(run);
    report = JSON.parse(run.stdout) as Record<string, unknown>;
  }
  const sessions = readFileSync(path.join(corpus, 'sessions.jsonl'), 'utf8').trim().split('\n').length;
  console.log(
    `\n## First mock night (${path.basename(corpus)}: ${sessions} sessions on the machine, harvest included)\n`,
  );
  console.log('| measure | median |');
  console.log('|---|---|');
  console.log(`| process CPU ms (start-up included) | **${fmt(median(runs.map((x) => x.cpu_ms)))}** |`);
  console.log(`| wall ms | ${fmt(median(runs.map((x) => x.wall_ms)))} |`);
  console.log(`| peak RSS MiB | ${fmt(median(runs.map((x) => x.peak_rss_mib)))} |`);
  console.log(`| bare \`node -e 0\` wall ms | ${fmt(median(nodes))} |`);
  console.log(`| sessions mined / tasks | ${String(report['n_sessions'])} / ${String(report['n_tasks'])} |`);
}

// ---------------------------------------------------------------------------------------------
// Start-up: --help, --version and status beside a bare `node -e 0`, wall time.

function startupRows(): void {
  const home = mkdtempSync(path.join(scratch, 'startup-home-'));
  const state = freshState();
  const rows: Record<string, number[]> = { 'node -e 0': [], '--help': [], '--version': [], status: [] };
  for (let r = 0; r < Math.max(rounds, 7); r++) {
    rows['node -e 0']?.push(bareNode());
    rows['--help']?.push(runCli(['--help'], home, state, false).wall_ms);
    rows['--version']?.push(runCli(['--version'], home, state, false).wall_ms);
    rows['status']?.push(runCli(['status'], home, state, false).wall_ms);
  }
  const bare = median(rows['node -e 0'] ?? []);
  console.log(`\n## Start-up (wall ms, medians of ${Math.max(rounds, 7)})\n`);
  console.log('| command | wall ms | beyond `node -e 0` |');
  console.log('|---|---|---|');
  for (const [name, xs] of Object.entries(rows))
    console.log(
      `| ${name} | ${fmt(median(xs))} | ${name === 'node -e 0' ? '' : `**${fmt(median(xs) - bare)}**`} |`,
    );
}

// ---------------------------------------------------------------------------------------------
// Model calls of a night on the reference's persona tasks files (mock backend, same result).

/** The persona nights through the real prompt builders (bench/calls.ts): calls and the bytes a provider would receive. */
async function callRows(): Promise<void> {
  console.log(
    '\n## Model calls per night, persona tasks files (mock answers, prompts rendered by the LLM backend)\n',
  );
  console.log('| tasks file | baseline → candidate | gate | accepted edits | calls | prompt bytes |');
  console.log('|---|---|---|---|---|---|');
  for (const persona of PERSONA_FILES) {
    const r = await personaNightCalls(persona);
    console.log(
      `| ${persona} | ${r.baseline.toFixed(3)} → ${r.candidate.toFixed(3)} | ${r.gateAction} | ${r.accepted.length} | **${r.calls}** | **${r.promptBytes}** |`,
    );
  }
}

try {
  console.log(
    `# bench/speed.ts — ${new Date().toISOString()}, Node ${process.version}, ${os.cpus().length} cores, ${rounds} rounds`,
  );
  if (only.has('harvest') && corpora.length > 0) printHarvest(corpora.map(harvestRows));
  if (only.has('reharvest') && corpora[0] !== undefined) reharvestRows(corpora[0]);
  if (only.has('night') && nightCorpus !== undefined) nightRows(nightCorpus);
  if (only.has('startup')) startupRows();
  if (only.has('calls')) await callRows();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
