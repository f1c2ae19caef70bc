/* eslint-disable no-console */
/**
 * What a mock night asks for, old tree beside new: requests by role and the prompt bytes a real model
 * would have been sent. Each tree's own `runNight` drives the night; its backend is that tree's mock,
 * answering every request, with each request also rendered through that tree's real `LlmBackend`
 * (its prompts, its guarded chat and response cache) to a provider that records it and replies with
 * the mock's answer. So "asked" is what the trainer asked the backend (the mock's count), "sent" what a
 * real backend with an empty response cache would have sent, and the bytes are those requests' prompts.
 *
 *   node bench/night-cost.mjs OLD_TREE NEW_TREE [--eval /tmp/skillopt-eval/dev-b] [--gen DIR]
 *
 * A tree is a checkout with `dist/` built. Nights: the dev-b projects webshop and billing-api (when
 * `--eval` points at the unpacked corpus), a tasks file written from webshop's sessions (every task
 * mined, those no judge can score included), and project 1 of a corpus `bench/gen-corpus.ts` wrote
 * (`--gen`). `bench/night-cost.sh` builds the old tree and runs this. Always: the sessions of the recorded
 * lessons night (`test/e2e/lessons-night-corpus.ts`, from this tree's `bench/out`), with a model judge.
 */
/* global process, console, Buffer */
import { AsyncLocalStorage } from 'node:async_hooks';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [oldTree, newTree] = process.argv.slice(2);
const arg = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
};
if (!oldTree || !newTree) {
  console.error('usage: node bench/night-cost.mjs OLD_TREE NEW_TREE [--eval DIR] [--gen DIR]');
  process.exit(2);
}

async function treeModules(tree) {
  const at = (p) => import(path.resolve(tree, 'dist/src', p));
  return {
    ...(await at('night/run-night.js')),
    ...(await at('store/db.js')),
    ...(await at('config/schema.js')),
    ...(await at('core/clock.js')),
    ...(await at('core/logger.js')),
    ...(await at('core/limiter.js')),
    ...(await at('backends/mock/mock-backend.js')),
    ...(await at('backends/llm/llm-backend.js')),
    ...(await at('backends/llm/guarded-chat.js')),
    ...(await at('backends/llm/spend-meter.js')),
    ...(await at('backends/llm/retry.js')),
    ...(await at('store/response-cache-repo.js')),
  };
}

const bytes = (req) =>
  Buffer.byteLength(req.system, 'utf8') +
  req.messages.reduce((n, m) => n + Buffer.byteLength(m.content, 'utf8'), 0);

/** The mock's answers, each request also rendered as a real backend would send it. */
function countingBackend(m, offline) {
  const mock = new m.MockBackend();
  const reply = new AsyncLocalStorage();
  const roles = ['attempt', 'judge', 'reflect'];
  const tally = Object.fromEntries(roles.map((r) => [r, { asked: 0, sent: 0, bytes: 0 }]));
  const provider = {
    name: 'mock-as-llm',
    model: 'm',
    kind: 'api',
    send(req) {
      const { role, text } = reply.getStore();
      tally[role].sent += 1;
      tally[role].bytes += bytes(req);
      return Promise.resolve({ text, usage: { inputTokens: 1, outputTokens: 1 } });
    },
  };
  const meter = new m.SpendMeter({ maxCalls: null, maxTokens: null, maxCostUsd: null });
  const chat = new m.GuardedChat(provider, {
    meter,
    cache: m.memoryResponseCache(),
    limiter: new m.Limiter(4),
    retry: m.defaultRetryPolicy(0),
    price: null,
    logger: m.silentLogger,
  });
  const llm = new m.LlmBackend({ target: chat, optimizer: chat }, meter);
  const through = async (role, text, send) => {
    tally[role].asked += 1;
    await reply.run({ role, text }, send);
  };
  return {
    tally,
    backend: {
      name: 'mock',
      // Not offline: a rule task's criteria are judged (by the mock's keyword judge), as on a real model.
      offline,
      async attempt(req) {
        const a = await mock.attempt(req);
        await through('attempt', a.response, () => llm.attempt(req));
        return a;
      },
      async reflect(req) {
        const r = await mock.reflect(req);
        const edits = r.edits.map(({ op, content, anchor, rationale }) => ({
          op,
          content,
          anchor,
          rationale,
        }));
        if (req.failures.length + req.successes.length > 0)
          await through('reflect', JSON.stringify({ edits }), () => llm.reflect(req));
        return r;
      },
      async judgeRubric(req) {
        const j = await mock.judgeRubric(req);
        const text = JSON.stringify({ hard: j.hard, soft: j.soft, rationale: j.rationale });
        await through('judge', text, () => llm.judgeRubric(req));
        return j;
      },
      rewrite: (req) => mock.rewrite(req),
    },
  };
}

async function night(m, spec) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'night-cost-'));
  try {
    const { backend, tally } = countingBackend(m, spec.modelJudge !== true);
    const config = { ...m.defaultConfig(), lookback_hours: 0, ...spec.config };
    const report = await m.runNight(
      {
        project: spec.project,
        config,
        mode: 'dry-run',
        harvestCtx: { home: spec.home, env: {} },
        ...(spec.mapCwd ? { mapCwd: spec.mapCwd } : {}),
        ...(spec.tasksFile ? { tasksFile: spec.tasksFile } : {}),
      },
      {
        home: path.join(root, 'state'),
        userHome: spec.home,
        env: {},
        clock: m.fixedClock(Date.UTC(2026, 11, 1)),
        db: m.openStore(':memory:'),
        backend,
        logger: m.silentLogger,
      },
    );
    return { report, tally };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function nights() {
  const specs = [];
  // The recorded lessons night's sessions (test/e2e/lessons-night-corpus.ts), judged by a model judge.
  const { writeLessonsNightCorpus } = await import(
    path.resolve(newTree, 'bench/out/js/test/e2e/lessons-night-corpus.js')
  );
  const lessonsRoot = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'night-cost-lessons-')));
  const lessonsProject = path.join(lessonsRoot, 'project');
  mkdirSync(lessonsProject, { recursive: true });
  writeLessonsNightCorpus(path.join(lessonsRoot, 'home'), lessonsProject);
  specs.push({
    name: 'lessons night (model judge)',
    home: path.join(lessonsRoot, 'home'),
    project: lessonsProject,
    modelJudge: true,
  });
  const evalDir = arg('eval');
  if (evalDir && existsSync(path.join(evalDir, 'work'))) {
    for (const name of ['webshop', 'billing-api'])
      specs.push({ name: `dev-b ${name}`, home: evalDir, project: path.join(evalDir, 'work', name) });
    // The memory pass too (evolve_memory): its baseline is the skill pass's candidate.
    specs.push({
      name: 'dev-b webshop, + memory',
      home: evalDir,
      project: path.join(evalDir, 'work', 'webshop'),
      config: { evolve_memory: true },
    });
    const tasksFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'night-cost-tasks-')), 'webshop.json');
    const state = path.dirname(tasksFile);
    // Every mined task, as `harvest --output` writes them (marked reviewed: the mock sends nothing).
    execFileSync(
      process.execPath,
      [
        path.resolve(newTree, 'dist/src/cli/main.js'),
        'harvest',
        '--lookback-hours',
        '0',
        '--output',
        tasksFile,
      ],
      {
        cwd: path.join(evalDir, 'work', 'webshop'),
        env: { ...process.env, HOME: evalDir, SKILLOPT_SLEEP_HOME: state },
        stdio: 'ignore',
      },
    );
    specs.push({
      name: 'dev-b webshop, tasks file',
      home: evalDir,
      project: path.join(evalDir, 'work', 'webshop'),
      tasksFile,
    });
  }
  const gen = arg('gen');
  if (gen && existsSync(path.join(gen, 'home'))) {
    const project = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'night-cost-proj-')));
    mkdirSync(project, { recursive: true });
    const recorded = '/work/proj-1';
    specs.push({
      name: 'gen-corpus proj-1',
      home: path.join(gen, 'home'),
      project,
      mapCwd: (cwd) =>
        cwd === recorded || cwd.startsWith(`${recorded}/`) ? project + cwd.slice(recorded.length) : cwd,
    });
  }
  return specs;
}

const pad = (s, n) => String(s).padEnd(n);
const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
const score = (x) => (x === null || x === undefined ? '—' : Number(x).toFixed(3));

const trees = { old: await treeModules(oldTree), new: await treeModules(newTree) };
const rows = [];
for (const spec of await nights()) {
  for (const [label, m] of Object.entries(trees)) {
    const { report, tally } = await night(m, spec);
    const total = (k) => tally.attempt[k] + tally.judge[k] + tally.reflect[k];
    rows.push({
      night: spec.name,
      tree: label,
      tasks: report.n_tasks,
      skipped: `${report.n_unjudged ?? 0}/${report.n_one_off ?? 0}`,
      split: `${report.n_train}/${report.n_val}`,
      asked: total('asked'),
      sent: total('sent'),
      attempt: `${tally.attempt.sent} (${tally.attempt.asked})`,
      judge: `${tally.judge.sent} (${tally.judge.asked})`,
      reflect: `${tally.reflect.sent}`,
      bytes: kb(total('bytes')),
      reflectBytes: kb(tally.reflect.bytes),
      held: `${score(report.baseline)} → ${score(report.candidate)}`,
      rules: report.learned_rules.length,
      learned: report.learned_rules,
      dropped: report.rejected_edits.map((e) => `${e.content} — ${e.reason}`),
      phases: report.requests
        ? Object.entries(report.requests.replays)
            .map(([p, t]) => `${p} ${t.attempts}${t.reused_answers ? `+${t.reused_answers}r` : ''}`)
            .join(', ')
        : '',
    });
  }
}
const cols = [
  ['night', 'night', 26],
  ['tree', 'tree', 4],
  ['tasks', 'tasks', 6],
  ['skipped', 'unjudged/one-off', 17],
  ['split', 'train/val', 10],
  ['asked', 'asked', 6],
  ['sent', 'sent', 5],
  ['attempt', 'attempt sent (asked)', 21],
  ['judge', 'judge sent (asked)', 19],
  ['reflect', 'reflect', 8],
  ['bytes', 'prompt bytes', 13],
  ['reflectBytes', 'reflect bytes', 14],
  ['held', 'held-out before → after', 24],
  ['rules', 'rules', 5],
];
console.log(cols.map(([, h, w]) => pad(h, w)).join(' '));
for (const r of rows) console.log(cols.map(([k, , w]) => pad(r[k], w)).join(' '));
console.log('\nnew tree, attempts by phase (+ reused):');
for (const r of rows.filter((x) => x.tree === 'new')) console.log(`  ${r.night}: ${r.phases}`);
if (process.argv.includes('--rules'))
  for (const r of rows)
    console.log(
      `\n${r.night} (${r.tree}):\n  kept: ${r.learned.join('\n        ')}\n  refused: ${r.dropped.join('\n           ')}`,
    );
