/**
 * Generate a realistic, deterministic corpus of coding-agent session logs in a fake HOME.
 *
 *   npx tsc -p bench/tsconfig.bench.json
 *   node bench/out/js/bench/gen-corpus.js --out /tmp/corpus --mb 200 [--seed 1] [--force]
 *
 * (Node 20 has no --experimental-strip-types, so bench scripts are compiled into bench/out/, which is
 * git-, lint- and prettier-ignored. `bench/run.sh gen-corpus ...` does both steps.)
 *
 * --sessions N stops at N sessions (split by --mix) instead of --mb; --output-scale F multiplies tool output
 * sizes (with --sessions, it sets the bytes per session: the speed bench holds sessions fixed and varies bytes);
 * --max-turns N (default 30) and --max-steps N (tool steps per exchange) make short sessions.
 * Options: --projects 10, --secret-rate 0.02 (per exchange), --end <ISO|now> (default
 * 2026-11-01T00:00:00Z; sessions span --span-days 28 before it), --mix claude=55,codex=25,copilot=10,copilot-cli=10
 * (gemini, pi, cursor-cli, aider, opencode and goose take a share only when named, so the default corpus is unchanged).
 * Writes <out>/home/{.claude,.codex,.config/Code,.copilot,.gemini,.pi,.cursor}, Aider's histories in
 * <out>/home/work/<project>/, <out>/planted-secrets.txt (one needle per
 * line), <out>/planted-secrets.jsonl, <out>/sessions.jsonl (ground truth) and <out>/corpus.json;
 * prints a summary JSON on stdout.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { WrittenSession } from './corpus/claude.js';
import { writeClaudeSession } from './corpus/claude.js';
import { baseInstructions, writeCodexSession } from './corpus/codex.js';
import { writeCopilotCliSession } from './corpus/copilot-cli.js';
import { writeCopilotSession } from './corpus/copilot-vscode.js';
import { writeGeminiSession } from './corpus/gemini.js';
import { writePiSession } from './corpus/pi.js';
import { writeCursorCliSession } from './corpus/cursor-cli.js';
import { closeAgentStores } from './corpus/agent-store.js';
import { writeGooseSession } from './corpus/goose.js';
import { writeOpenCodeSession } from './corpus/opencode.js';
import { writeAiderSession } from './corpus/aider.js';
import { Filler } from './corpus/filler.js';
import type { SessionPlan } from './corpus/plan.js';
import { Planner } from './corpus/plan.js';
import { makeProjects } from './corpus/project.js';
import { Rng } from './corpus/rng.js';
import { BufferedFile } from './corpus/writer.js';

const SOURCES = [
  'claude',
  'codex',
  'copilot',
  'copilot-cli',
  'gemini',
  'pi',
  'cursor-cli',
  'aider',
  'opencode',
  'goose',
] as const;
type Source = (typeof SOURCES)[number];

const DEFAULT_END = '2026-11-01T00:00:00.000Z';

interface SourceStats {
  bytes: number;
  files: number;
  sessions: number;
  turns: number;
  interrupted: number;
  secrets: number;
}

function parseMix(spec: string): Record<Source, number> {
  const mix: Record<Source, number> = {
    claude: 0,
    codex: 0,
    copilot: 0,
    'copilot-cli': 0,
    gemini: 0,
    pi: 0,
    'cursor-cli': 0,
    aider: 0,
    opencode: 0,
    goose: 0,
  };
  for (const part of spec.split(',')) {
    const [name, value] = part.split('=');
    if (!SOURCES.includes(name as Source) || value === undefined || !Number.isFinite(Number(value))) {
      throw new Error(`bad --mix entry "${part}"`);
    }
    mix[name as Source] = Number(value);
  }
  const total = SOURCES.reduce((sum, s) => sum + mix[s], 0);
  for (const s of SOURCES) mix[s] /= total;
  return mix;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      root: { type: 'string', default: '/work' },
      mb: { type: 'string', default: '200' },
      seed: { type: 'string', default: '1' },
      projects: { type: 'string', default: '10' },
      'secret-rate': { type: 'string', default: '0.02' },
      end: { type: 'string', default: DEFAULT_END },
      'span-days': { type: 'string', default: '28' },
      mix: { type: 'string', default: 'claude=55,codex=25,copilot=10,copilot-cli=10' },
      sessions: { type: 'string' },
      'output-scale': { type: 'string', default: '1' },
      'max-turns': { type: 'string', default: '30' },
      'max-steps': { type: 'string' },
      force: { type: 'boolean', default: false },
    },
  });
  if (values.out === undefined) throw new Error('--out <dir> is required');
  const out = path.resolve(values.out);
  const home = path.join(out, 'home');
  const seed = Number(values.seed);
  const totalBytes = Math.round(Number(values.mb) * 1024 * 1024);
  const secretRate = Number(values['secret-rate']);
  const endMs = values.end === 'now' ? Date.now() : Date.parse(values.end);
  const spanMs = Number(values['span-days']) * 86_400_000;
  if (!Number.isFinite(endMs) || !Number.isFinite(totalBytes) || !Number.isFinite(seed))
    throw new Error('bad --end, --mb or --seed');
  const mix = parseMix(values.mix);
  const totalSessions = values.sessions === undefined ? null : Number(values.sessions);
  const outputScale = Number(values['output-scale']);
  const maxTurns = Number(values['max-turns']);
  const maxSteps = values['max-steps'] === undefined ? undefined : Number(values['max-steps']);
  if (!(maxTurns >= 1) || (maxSteps !== undefined && !(maxSteps >= 1)))
    throw new Error('bad --max-turns or --max-steps');
  if ((totalSessions !== null && !(totalSessions > 0)) || !(outputScale > 0))
    throw new Error('bad --sessions or --output-scale');
  if (fs.existsSync(home)) {
    if (!values.force) throw new Error(`${home} exists; pass --force to replace it`);
    fs.rmSync(home, { recursive: true, force: true });
  }
  fs.mkdirSync(home, { recursive: true });

  const began = performance.now();
  const master = new Rng(seed);
  // The projects' folders (`--root`, default /work): a night needs its project to exist on disk.
  const projects = makeProjects(master.fork('projects'), Number(values.projects)).map((p) => ({
    ...p,
    root: `${values.root ?? '/work'}/${p.name}`,
  }));
  const needlesFile = new BufferedFile(path.join(out, 'planted-secrets.txt'));
  const plantedFile = new BufferedFile(path.join(out, 'planted-secrets.jsonl'));
  const manifest = new BufferedFile(path.join(out, 'sessions.jsonl'));
  const secretsByKind: Record<string, number> = {};
  const stats = {} as Record<Source, SourceStats>;
  const seenWorkspaces = new Set<string>();
  const aiderFolders = new Set<string>();

  for (const source of SOURCES) {
    // Forked first whatever its share, so the other sources' draws do not depend on it.
    const rng = master.fork(source);
    stats[source] = { bytes: 0, files: 0, sessions: 0, turns: 0, interrupted: 0, secrets: 0 };
    // A source without a share writes nothing, not even the one session `--sessions` rounds up to.
    if (mix[source] === 0) continue;
    const filler = new Filler(rng.fork('filler'));
    filler.sizeScale = outputScale;
    const planner = new Planner(rng.fork('plan'), filler, projects);
    const writerRng = rng.fork('writer');
    const instructions = source === 'codex' ? baseInstructions((n) => planner.prose(n)) : '';
    const budget = totalBytes * mix[source];
    const sessionBudget =
      totalSessions === null ? null : Math.max(1, Math.round(totalSessions * mix[source]));
    const s = stats[source];
    while (sessionBudget === null ? s.bytes < budget : s.sessions < sessionBudget) {
      const progress = sessionBudget === null ? s.bytes / budget : s.sessions / sessionBudget;
      const start = endMs - spanMs + Math.floor(progress * (spanMs - 8 * 3_600_000)) + rng.int(0, 3_600_000);
      const plan = planner.session({
        start,
        secretRate,
        minTurns: Math.min(2, maxTurns),
        maxTurns,
        ...(maxSteps === undefined ? {} : { maxSteps }),
      });
      const written = write(source, home, plan, writerRng, instructions, seenWorkspaces);
      if (source === 'aider') aiderFolders.add(path.relative(home, path.dirname(written.path)));
      s.bytes += written.bytes;
      s.files += written.files;
      s.sessions++;
      s.turns += written.prompts;
      s.interrupted += plan.exchanges.filter((e) => e.interrupted).length;
      for (const { secret, role } of plan.secrets) {
        s.secrets++;
        secretsByKind[secret.kind] = (secretsByKind[secret.kind] ?? 0) + 1;
        for (const needle of secret.needles) needlesFile.write(needle + '\n');
        plantedFile.line({
          kind: secret.kind,
          role,
          source,
          sessionId: written.sessionId,
          needles: secret.needles,
        });
      }
      manifest.line({
        source,
        sessionId: written.sessionId,
        path: path.relative(out, written.path),
        // Aider's working folder is its history's folder (under the corpus home).
        cwd: source === 'aider' ? path.dirname(written.path) : plan.cwd,
        project: plan.project.root,
        start: new Date(plan.start).toISOString(),
        end: new Date(plan.end).toISOString(),
        prompts: written.prompts,
        tasks: plan.taskIds,
        secrets: plan.secrets.length,
      });
    }
  }
  closeAgentStores();
  const needleBytes = needlesFile.close();
  plantedFile.close();
  manifest.close();
  fs.writeFileSync(
    path.join(out, 'corpus.json'),
    JSON.stringify(
      {
        seed,
        mb: Number(values.mb),
        end: new Date(endMs).toISOString(),
        spanDays: Number(values['span-days']),
        home: 'home',
        // Folders (under home) holding an Aider history: SKILLOPT_SLEEP_AIDER_FOLDERS for a harvest.
        aiderFolders: [...aiderFolders].sort(),
        projects: projects.map((p) => ({ root: p.root, lang: p.lang, pm: p.pm, branch: p.branch })),
      },
      null,
      2,
    ) + '\n',
  );
  const sum = (k: keyof SourceStats): number => SOURCES.reduce((acc, src) => acc + stats[src][k], 0);
  const totalWritten = sum('bytes');
  console.log(
    JSON.stringify(
      {
        out,
        home,
        seed,
        elapsedMs: Math.round(performance.now() - began),
        totalBytes: totalWritten,
        totalMB: +(totalWritten / 1048576).toFixed(1),
        sources: Object.fromEntries(
          SOURCES.map((src) => [
            src,
            { ...stats[src], share: +(stats[src].bytes / totalWritten).toFixed(3) },
          ]),
        ),
        files: sum('files'),
        sessions: sum('sessions'),
        turns: sum('turns'),
        secretsPlanted: sum('secrets'),
        secretNeedles:
          needleBytes > 0
            ? fs.readFileSync(path.join(out, 'planted-secrets.txt'), 'utf8').split('\n').length - 1
            : 0,
        secretsByKind,
        projects: projects.length,
      },
      null,
      2,
    ),
  );
}

function write(
  source: Source,
  home: string,
  plan: SessionPlan,
  rng: Rng,
  instructions: string,
  seenWorkspaces: Set<string>,
): WrittenSession {
  switch (source) {
    case 'claude':
      return writeClaudeSession(home, plan, rng);
    case 'codex':
      return writeCodexSession(home, plan, rng, instructions);
    case 'copilot':
      return writeCopilotSession(home, plan, rng, seenWorkspaces);
    case 'copilot-cli':
      return writeCopilotCliSession(home, plan, rng);
    case 'gemini':
      return writeGeminiSession(home, plan, rng, seenWorkspaces);
    case 'pi':
      return writePiSession(home, plan, rng);
    case 'cursor-cli':
      return writeCursorCliSession(home, plan, rng);
    case 'aider':
      return writeAiderSession(home, plan, rng);
    case 'opencode':
      return writeOpenCodeSession(home, plan, rng);
    case 'goose':
      return writeGooseSession(home, plan, rng);
  }
}

main();
