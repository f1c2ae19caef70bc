/** The dashboard server over a sandbox with nights and a staged proposal, and raw HTTP to it (tests of `src/ui`). */
import http from 'node:http';
import { stageProposal } from '../../proposals/index.js';
import { cliLessonCounts, cliProposalActions } from '../../src/cli/commands/ui-action.js';
import type { CliContext } from '../../src/cli/context.js';
import { dbFile } from '../../src/config/paths.js';
import { fixedClock } from '../../src/core/clock.js';
import { RULES_SCHEMA } from '../../src/core/rule-evidence.js';
import { silentLogger } from '../../src/core/logger.js';
import { openStore, type Db } from '../../src/store/db.js';
import { finishNight, setNightProposal, startNight } from '../../src/store/nights-repo.js';
import { startUi, type RunningUi } from '../../src/ui/server.js';
import { type Sandbox } from './cli-helpers.js';
import { HAND_ALPHA, stageFixture, withSandboxLedger } from './proposal-fixture.js';

export const NOW = Date.UTC(2026, 0, 2, 12, 0, 0);
export const PLANTED = 'use tabs <script>alert(1)</script> please';

const open: Array<{ ui: RunningUi; db: Db }> = [];
/** Closes every server `serve` started (call in `afterEach`). */
export async function closeServers(): Promise<void> {
  for (const { ui, db } of open.splice(0)) {
    await ui.close();
    db.close();
  }
}

export function ctxOf(box: Sandbox): CliContext {
  return {
    env: { HOME: box.home, SKILLOPT_SLEEP_HOME: box.stateHome },
    home: box.stateHome,
    userHome: box.home,
    clock: fixedClock(NOW),
    logger: silentLogger,
    json: false,
  };
}

export const NIGHTS = [
  { at: Date.UTC(2026, 0, 1, 3), baseline: 0.25, candidate: 0.5, gate: 'accept_new_best', cost: 0.0123 },
  { at: Date.UTC(2026, 0, 2, 3), baseline: 0.5, candidate: 0.5, gate: 'reject', cost: 0 },
  { at: Date.UTC(2026, 0, 3, 3), baseline: null, candidate: null, gate: 'no_tasks', cost: 0 },
];

export function addNights(db: Db, project: string, proposalId: string): void {
  for (const [i, n] of NIGHTS.entries()) {
    const id = startNight(db, project, 'mock', n.at);
    finishNight(
      db,
      id,
      {
        nSessions: 3,
        nTasks: 2,
        baseline: n.baseline,
        candidate: n.candidate,
        accepted: i === 0,
        gateAction: n.gate,
        stopped: '',
        calls: 10 + i,
        tokens: 1000 * (i + 1),
        costUsd: n.cost,
        cacheHits: i,
      },
      n.at + 60_000,
    );
    if (i === 0) setNightProposal(db, id, proposalId);
  }
}

/**
 * A sandbox with two proposals and a server: `first`, the fixture's (night 1: alpha, beta and the memory,
 * each with a learned rule), and `id`, newer (night 2: alpha only, a full report.json with a planted
 * correction), the proposal of the first of three nights.
 */
export async function serve(
  box: Sandbox,
  trainDirs: string[] = [],
): Promise<{ ui: RunningUi; id: string; db: Db; first: string }> {
  const f = await stageFixture(box);
  const id = f.staged.id;
  // The fixture's report is a stub; this proposal gets a real one, with rules and their sentences.
  const staged = await withSandboxLedger(box, (ledger) =>
    stageProposal({
      projectDir: box.project,
      ledger,
      night: 2,
      now: Date.UTC(2026, 0, 1, 4),
      targets: [
        {
          kind: 'skill',
          livePath: f.alpha,
          baseText: HAND_ALPHA,
          proposedText: `${HAND_ALPHA}\n- Use pnpm, never npm.\n`,
        },
      ],
      reportMd: '# night 2\n',
      rules: JSON.stringify({
        schema: RULES_SCHEMA,
        version: 1,
        rules: [
          {
            n: 1,
            target: '.claude/skills/alpha/SKILL.md',
            line: '- Use pnpm, never npm.',
            checks: [],
            lessons: [],
          },
        ],
      }),
      reportJson: {
        night: 2,
        project: box.project,
        started_at: Date.UTC(2026, 0, 1, 3),
        ended_at: Date.UTC(2026, 0, 1, 4),
        gate_action: 'accept_new_best',
        accepted: true,
        baseline: 0.25,
        candidate: 0.5,
        edits: [
          {
            target: 'skill',
            op: 'add',
            content: 'Use pnpm, never npm.',
            anchor: '',
            rationale: 'corrected twice',
          },
        ],
        rejected_edits: [
          {
            target: 'skill',
            op: 'add',
            content: 'Always use yarn.',
            anchor: '',
            rationale: 'r',
            delta: -0.25,
            reason: 'held-out score dropped',
          },
        ],
        task_deltas: [
          {
            task_id: 't1',
            tags: ['kind:install deps'],
            baseline_score: 0,
            candidate_score: 1,
            status: 'improved',
            scores_are_finite: true,
          },
        ],
        recurring_tasks: [
          {
            id: 'k1',
            label: 'install deps',
            intent: 'install the deps',
            occurrences: 2,
            sessions: ['claude-code:s1', 'claude-code:s2'],
            checks: [
              { op: 'contains', arg: 'pnpm', session: 'claude-code:s1', sentence: 'no, use pnpm not npm' },
            ],
            criteria: [],
            corrections: [
              { session: 'claude-code:s2', sentence: PLANTED, result: 'none', reason: 'nothing to check' },
            ],
          },
        ],
      },
    }),
  );
  const db = openStore(dbFile(box.stateHome));
  addNights(db, box.project, staged.id);
  const ui = await startUi({
    home: box.stateHome,
    userHome: box.home,
    db,
    clock: fixedClock(NOW),
    logger: silentLogger,
    runAction: cliProposalActions(ctxOf(box), db),
    countLessons: cliLessonCounts(ctxOf(box), db),
    port: 0,
    trainDirs,
  });
  open.push({ ui, db });
  return { ui, id: staged.id, db, first: id };
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** http.request, so Host and Origin can be anything (fetch would not send a foreign Host). */
export function request(
  ui: RunningUi,
  pathAndQuery: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string; auth?: boolean } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {
    host: `127.0.0.1:${ui.port}`,
    ...(opts.auth === false ? {} : { authorization: `Bearer ${ui.token}` }),
    ...(opts.body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    ...opts.headers,
  };
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: ui.port, path: pathAndQuery, method: opts.method ?? 'GET', headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

export const csrfOf = (page: string): string => /name="csrf" value="([0-9a-f]+)"/.exec(page)?.[1] ?? '';
/** ISO times masked: the server's clock is fixed, the twin CLI's is the system's. */
export const withoutTimes = (s: string): string => s.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>');
export const q = (params: Record<string, string>): string => new URLSearchParams(params).toString();

/** Presses a proposal page's button: the POST's own reply (a 303 to the proposal's page). */
export async function post(
  ui: RunningUi,
  project: string,
  id: string,
  action: string,
  extra: Record<string, string> = {},
) {
  const page = await request(ui, `/proposal?${q({ dir: project, id })}`);
  // A page without buttons (a rejected proposal's) has no token: the one an earlier page had is the server's.
  const csrf = csrfOf(page.body) || (csrfSeen.get(ui) ?? '');
  csrfSeen.set(ui, csrf);
  return request(ui, '/action', {
    method: 'POST',
    headers: { origin: `http://127.0.0.1:${ui.port}` },
    body: q({ csrf, dir: project, id, action, ...extra }),
  });
}
const csrfSeen = new WeakMap<RunningUi, string>();

/** Presses a button and follows the redirect, as a browser does: the page it lands on. */
export async function press(
  ui: RunningUi,
  project: string,
  id: string,
  action: string,
  extra: Record<string, string> = {},
): Promise<Reply & { ok: boolean | null }> {
  const posted = await post(ui, project, id, action, extra);
  if (posted.status !== 303) throw new Error(`POST /action answered ${posted.status}: ${posted.body}`);
  const page = await request(ui, String(posted.headers.location));
  const ok = /id="action-result"[^>]*data-ok="(true|false)"/.exec(page.body)?.[1];
  return { ...page, ok: ok === undefined ? null : ok === 'true' };
}

export const resultText = (body: string): string =>
  (/<pre[^>]*id="action-result"[^>]*>([\s\S]*?)<\/pre/.exec(body)?.[1] ?? '')
    .trim()
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&#39;', "'")
    .replaceAll('&quot;', '"')
    .replaceAll('&amp;', '&');
