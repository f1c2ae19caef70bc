/**
 * Add one small Claude Code session (a few KB) to a corpus made by gen-corpus, for timing an
 * incremental harvest. Prints the path of the file it wrote.
 *
 *   npx tsc -p bench/tsconfig.bench.json
 *   node bench/out/js/bench/append-session.js --out /tmp/corpus            # new <uuid>.jsonl
 *   node bench/out/js/bench/append-session.js --out /tmp/corpus --grow     # append 1-2 turns to an existing transcript
 *
 * Options: --seed N (default: the clock, so each call writes a different session), --turns N (max
 * prompts, default 2), --file <path> (with --grow; default: the largest Claude transcript). Timestamps
 * and mtime are "now". The session is added to <out>/sessions.jsonl; it plants no secrets.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ClaudeWriteOptions } from './corpus/claude.js';
import { writeClaudeSession } from './corpus/claude.js';
import { Filler } from './corpus/filler.js';
import { Planner } from './corpus/plan.js';
import { makeProjects } from './corpus/project.js';
import { Rng } from './corpus/rng.js';

interface CorpusMeta {
  seed: number;
  home: string;
  projects: { root: string }[];
}

function walk(dir: string, found: string[]): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'subagents') walk(full, found);
    } else if (entry.name.endsWith('.jsonl')) found.push(full);
  }
}

type AppendTarget = NonNullable<ClaudeWriteOptions['appendTo']>;

/** sessionId, version, cwd and last uuid of an existing transcript, from its last record. */
function transcriptTail(file: string): { target: AppendTarget; cwd: string } {
  const size = fs.statSync(file).size;
  const fd = fs.openSync(file, 'r');
  const length = Math.min(size, 4 << 20);
  const buf = Buffer.alloc(length);
  fs.readSync(fd, buf, 0, length, size - length);
  fs.closeSync(fd);
  const lines = buf.toString('utf8').trimEnd().split('\n').reverse();
  for (const line of lines) {
    try {
      const rec = JSON.parse(line) as Record<string, unknown>;
      if (
        typeof rec['uuid'] === 'string' &&
        typeof rec['sessionId'] === 'string' &&
        rec['isSidechain'] !== true
      ) {
        const target = {
          path: file,
          sessionId: rec['sessionId'],
          parentUuid: rec['uuid'],
          version: typeof rec['version'] === 'string' ? rec['version'] : '2.1.123',
        };
        return { target, cwd: typeof rec['cwd'] === 'string' ? rec['cwd'] : '' };
      }
    } catch {
      // a partial first line of the window; keep looking
    }
  }
  throw new Error(`no conversational record found at the end of ${file}`);
}

function main(): void {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      seed: { type: 'string' },
      turns: { type: 'string', default: '2' },
      grow: { type: 'boolean', default: false },
      file: { type: 'string' },
    },
  });
  if (values.out === undefined) throw new Error('--out <dir> is required');
  const out = path.resolve(values.out);
  const meta = JSON.parse(fs.readFileSync(path.join(out, 'corpus.json'), 'utf8')) as CorpusMeta;
  const home = path.join(out, meta.home);
  const rng = new Rng(values.seed !== undefined ? Number(values.seed) : Date.now() % 4294967296);
  // Same seed as the corpus, so the projects (files, habits) are the corpus's own.
  const projects = makeProjects(new Rng(meta.seed).fork('projects'), meta.projects.length);
  const filler = new Filler(rng.fork('filler'));
  filler.sizeCap = 120;
  const planner = new Planner(rng.fork('plan'), filler, projects);
  const now = Date.now();
  const maxTurns = Math.max(1, Number(values.turns) || 2);

  let appendTo: AppendTarget | undefined;
  let cwd: string | undefined;
  if (values.grow) {
    let file = values.file;
    if (file === undefined) {
      const all: string[] = [];
      walk(path.join(home, '.claude', 'projects'), all);
      file = all.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size || a.localeCompare(b))[0];
    }
    if (file === undefined) throw new Error('no Claude transcript to grow');
    const tail = transcriptTail(file);
    appendTo = tail.target;
    cwd = tail.cwd || undefined;
  }
  // Gaps between prompts are <= 15 min and an exchange lasts minutes: 30 min per prompt keeps it in the past.
  const plan = planner.session({
    start: now - (maxTurns + 1) * 30 * 60_000,
    secretRate: 0,
    minTurns: 1,
    maxTurns,
    cwd,
    maxSteps: 1,
  });
  const before = appendTo !== undefined ? fs.statSync(appendTo.path).size : 0;
  const written = writeClaudeSession(home, plan, rng, { appendTo });
  const t = new Date(now);
  fs.utimesSync(written.path, t, t);
  fs.appendFileSync(
    path.join(out, 'sessions.jsonl'),
    JSON.stringify({
      source: 'claude',
      sessionId: written.sessionId,
      path: path.relative(out, written.path),
      cwd: plan.cwd,
      project: plan.project.root,
      start: new Date(plan.start).toISOString(),
      end: new Date(plan.end).toISOString(),
      prompts: written.prompts,
      tasks: plan.taskIds,
      secrets: 0,
      appended: appendTo !== undefined ? 'grow' : 'new',
      bytesAdded: fs.statSync(written.path).size - before,
    }) + '\n',
  );
  console.log(written.path);
}

main();
