/**
 * The dashboard's server started in-process on a free port with a sandbox home: its guards (token,
 * Host, Origin, CSRF), the exact numbers it charts, a proposal's diff and provenance, and its buttons
 * changing files exactly as the CLI's adopt, reject and revert do (checked against a twin sandbox).
 */
import http from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stageProposal } from '../../proposals/index.js';
import { cliProposalActions } from '../../src/cli/commands/ui.js';
import type { CliContext } from '../../src/cli/context.js';
import { dbFile } from '../../src/config/paths.js';
import { fixedClock } from '../../src/core/clock.js';
import { silentLogger } from '../../src/core/logger.js';
import { openStore, type Db } from '../../src/store/db.js';
import { insertHarvestRun } from '../../src/store/harvest-runs-repo.js';
import { finishNight, setNightProposal, startNight } from '../../src/store/nights-repo.js';
import { startUi, type RunningUi } from '../../src/ui/server.js';
import { runCli, sandbox, type Sandbox } from './cli-helpers.js';
import { HAND_ALPHA, HAND_BETA, HAND_MEMORY, readOrNull, stageFixture } from './proposal-fixture.js';

const NOW = Date.UTC(2026, 0, 2, 12, 0, 0);
const PLANTED = 'use tabs <script>alert(1)</script> please';

const open: Array<{ ui: RunningUi; db: Db }> = [];
afterEach(async () => {
  for (const { ui, db } of open.splice(0)) {
    await ui.close();
    db.close();
  }
});

function ctxOf(box: Sandbox): CliContext {
  return {
    env: { HOME: box.home, SKILLOPT_SLEEP_HOME: box.stateHome },
    home: box.stateHome,
    userHome: box.home,
    clock: fixedClock(NOW),
    logger: silentLogger,
    json: false,
  };
}

const NIGHTS = [
  { at: Date.UTC(2026, 0, 1, 3), baseline: 0.25, candidate: 0.5, gate: 'accept_new_best', cost: 0.0123 },
  { at: Date.UTC(2026, 0, 2, 3), baseline: 0.5, candidate: 0.5, gate: 'reject', cost: 0 },
  { at: Date.UTC(2026, 0, 3, 3), baseline: null, candidate: null, gate: 'no_tasks', cost: 0 },
];

function addNights(db: Db, project: string, proposalId: string): void {
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

/** A sandbox with the fixture's proposal (a full report.json with a planted correction), nights, a server. */
async function serve(box: Sandbox, trainDirs: string[] = []): Promise<{ ui: RunningUi; id: string; db: Db }> {
  const f = await stageFixture(box);
  const id = f.staged.id;
  // The fixture's report is a stub; this proposal gets a real one, with rules and their sentences.
  const staged = await stageProposal({
    projectDir: box.project,
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
  });
  const db = openStore(dbFile(box.stateHome));
  addNights(db, box.project, staged.id);
  const ui = await startUi({
    home: box.stateHome,
    userHome: box.home,
    db,
    clock: fixedClock(NOW),
    logger: silentLogger,
    runAction: cliProposalActions(ctxOf(box), db),
    port: 0,
    trainDirs,
  });
  open.push({ ui, db });
  void id;
  return { ui, id: staged.id, db };
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** http.request, so Host and Origin can be anything (fetch would not send a foreign Host). */
function request(
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

const csrfOf = (page: string): string => /name="csrf" value="([0-9a-f]+)"/.exec(page)?.[1] ?? '';
/** ISO times masked: the server's clock is fixed, the twin CLI's is the system's. */
const withoutTimes = (s: string): string => s.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>');
const q = (params: Record<string, string>): string => new URLSearchParams(params).toString();

async function post(
  ui: RunningUi,
  project: string,
  id: string,
  action: string,
  extra: Record<string, string> = {},
) {
  const page = await request(ui, `/proposal?${q({ dir: project, id })}`);
  return request(ui, '/action', {
    method: 'POST',
    headers: { origin: `http://127.0.0.1:${ui.port}` },
    body: q({ csrf: csrfOf(page.body), dir: project, id, action, ...extra }),
  });
}

const resultText = (body: string): string =>
  (/<pre[^>]*id="action-result"[^>]*>([\s\S]*?)<\/pre/.exec(body)?.[1] ?? '')
    .trim()
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&#39;', "'")
    .replaceAll('&quot;', '"')
    .replaceAll('&amp;', '&');

describe('ui server: guards', () => {
  it('refuses a request without the token, with a wrong one, a foreign Host or a foreign Origin', async () => {
    const box = sandbox();
    const { ui } = await serve(box);
    expect((await request(ui, '/', { auth: false })).status).toBe(401);
    expect((await request(ui, '/', { auth: false, headers: { authorization: 'Bearer nope' } })).status).toBe(
      403,
    );
    expect((await request(ui, `/?token=${'0'.repeat(64)}`, { auth: false })).status).toBe(403);
    expect((await request(ui, '/', { headers: { host: `evil.example:${ui.port}` } })).status).toBe(403);
    expect((await request(ui, '/', { headers: { host: `127.0.0.1:${ui.port + 1}` } })).status).toBe(403);
    expect((await request(ui, '/', { headers: { origin: 'http://evil.example' } })).status).toBe(403);
    expect((await request(ui, '/', { headers: { origin: `http://localhost:${ui.port}` } })).status).toBe(200);
    expect((await request(ui, '/', { headers: { host: `localhost:${ui.port}` } })).status).toBe(200);
    expect(ui.url).toBe(`http://127.0.0.1:${ui.port}/?token=${ui.token}`);
    expect(ui.token).toMatch(/^[0-9a-f]{64}$/);
  });

  it('trades the token in the address for an HttpOnly SameSite=Strict cookie', async () => {
    const box = sandbox();
    const { ui } = await serve(box);
    const first = await request(ui, `/?token=${ui.token}`, { auth: false });
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const next = await request(ui, '/', { auth: false, headers: { cookie: cookie.split(';')[0] ?? '' } });
    expect(next.status).toBe(200);
    expect(next.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(next.headers['x-content-type-options']).toBe('nosniff');
    expect(next.headers['referrer-policy']).toBe('same-origin');
    expect(next.headers['cache-control']).toBe('no-store');
  });

  it('refuses a POST without the CSRF token, and a dir the store does not know', async () => {
    const box = sandbox();
    const { ui, id } = await serve(box);
    const noCsrf = await request(ui, '/action', {
      method: 'POST',
      body: q({ dir: box.project, id, action: 'adopt' }),
    });
    expect(noCsrf.status).toBe(403);
    const wrong = await request(ui, '/action', {
      method: 'POST',
      body: q({ csrf: 'f'.repeat(64), dir: box.project, id, action: 'adopt' }),
    });
    expect(wrong.status).toBe(403);
    expect(readFileSync(path.join(box.project, '.claude/skills/alpha/SKILL.md'), 'utf8')).toBe(HAND_ALPHA);
    expect((await request(ui, `/project?${q({ dir: '/etc' })}`)).status).toBe(404);
    expect((await request(ui, `/proposal?${q({ dir: box.project, id: '../x' })}`)).status).toBe(400);
    expect((await request(ui, `/train?${q({ dir: box.project })}`)).status).toBe(404);
  });
});

describe('ui server: pages', () => {
  it('charts one point per night with the stored values, and tables them', async () => {
    const box = sandbox();
    const { ui } = await serve(box);
    const page = await request(ui, `/project?${q({ dir: box.project })}`);
    expect(page.status).toBe(200);
    const json = /<script type="application\/json" id="nights-data">([\s\S]*?)<\/script>/.exec(
      page.body,
    )?.[1];
    const series = JSON.parse(json ?? 'null') as {
      points: Array<{ x: number; a: number | null; b: number | null }>;
    };
    expect(series.points).toEqual(NIGHTS.map((n) => ({ x: n.at, a: n.baseline, b: n.candidate })));
    expect(page.body.match(/data-testid="night-row"/g)).toHaveLength(3);
    expect(page.body).toContain('$0.0123');
    expect(page.body).toContain('no_tasks');
  });

  it('shows the diff, the provenance sentence, deltas and refusals, with planted markup as text', async () => {
    const box = sandbox();
    const { ui, id, db } = await serve(box);
    const page = await request(ui, `/proposal?${q({ dir: box.project, id })}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<span class="add">+- Use pnpm, never npm.</span>');
    expect(page.body).toContain('no, use pnpm not npm');
    expect(page.body).toContain('claude-code:s1');
    expect(page.body).toContain('held-out score dropped');
    expect(page.body).toContain('install deps (t1)');
    expect(page.body).not.toContain('<script>alert(1)</script>');
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.body).not.toContain('claude-code:s1, 2026');
    // Once the session is in the store, the sentence is dated with the session's start.
    db.prepare(
      `INSERT INTO sessions (key, source, session_id, project_root, cwd, branch, model, source_version, started_at,
         ended_at, n_user_turns, n_assistant_turns, tools_used, skills_used, files_touched, source_path, harvested_at)
       VALUES ('claude-code:s1', 'claude', 's1', ?, ?, '', '', '', ?, NULL, 1, 1, '[]', '[]', '[]', '/t/s1.jsonl', 0)`,
    ).run(box.project, box.project, Date.UTC(2025, 11, 30, 9));
    const dated = await request(ui, `/proposal?${q({ dir: box.project, id })}`);
    expect(dated.body).toContain('claude-code:s1, 2025-12-30T09:00:00Z');
    const projects = await request(ui, '/');
    expect(projects.body).toContain(id);
  });

  it('links nothing on another host from any page', async () => {
    const box = sandbox();
    const { ui, id } = await serve(box);
    for (const p of [
      '/',
      `/project?${q({ dir: box.project })}`,
      `/proposal?${q({ dir: box.project, id })}`,
      '/harvest',
    ]) {
      const page = await request(ui, p);
      expect(page.status, p).toBe(200);
      const urls = [...page.body.matchAll(/\b(?:src|href|action)="([^"]*)"/g)].map((m) => m[1] ?? '');
      expect(urls.length, p).toBeGreaterThan(0);
      for (const u of urls) expect(u, p).toMatch(/^\/(?!\/)/);
    }
  });
});

describe('ui server: harvest and train pages', () => {
  it('shows per source the files, sessions, bad lines, redactions and last read', async () => {
    const box = sandbox();
    const { ui, db } = await serve(box);
    db.prepare(
      `INSERT INTO source_files (path, source, size, mtime_ms, inode, parsed_offset, bad_lines, updated_at)
       VALUES ('/t/a.jsonl', 'claude', 1, 1, 1, 1, 2, ?), ('/t/b.jsonl', 'claude', 1, 1, 2, 1, 1, ?)`,
    ).run(Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 2));
    insertHarvestRun(db, 1, Date.UTC(2026, 0, 2, 5), {
      files_seen: 2,
      files_parsed: 2,
      sessions_stored: 0,
      by_source: { claude: { redactions: { 'openai-key': 3 } } },
    });
    const page = await request(ui, '/harvest');
    const row =
      /<tr data-testid="harvest-row" data-source="claude">([\s\S]*?)<\/tr>/.exec(page.body)?.[1] ?? '';
    const cells = [...row.matchAll(/<td>([^<]*)<\/td>/g)].map((m) => m[1]);
    expect(cells).toEqual(['claude', '2', '0', '3', 'openai-key: 3', '2026-01-02T00:00:00Z']);
    expect(page.body).toContain('Last harvest: 2026-01-02T05:00:00Z');
  });

  it('charts a --train-dir history, and no other folder', async () => {
    const box = sandbox();
    const out = path.join(box.root, 'train-out');
    mkdirSync(out);
    const step = (n: number, before: number, after: number) =>
      JSON.stringify({
        step: n,
        epoch: 0,
        kind: 'step',
        val_before: before,
        val_after: after,
        gate: 'accept',
        accepted: true,
      });
    writeFileSync(path.join(out, 'history.jsonl'), `${step(1, 0.1, 0.2)}\n${step(2, 0.2, 0.4)}\nnot json\n`);
    const { ui } = await serve(box, [out]);
    const page = await request(ui, `/train?${q({ dir: out })}`);
    expect(page.status).toBe(200);
    const json = /<script type="application\/json" id="train-data">([\s\S]*?)<\/script>/.exec(page.body)?.[1];
    expect((JSON.parse(json ?? 'null') as { points: unknown[] }).points).toEqual([
      { x: 1, a: 0.1, b: 0.2 },
      { x: 2, a: 0.2, b: 0.4 },
    ]);
    expect(page.body).toContain('1 lines of history.jsonl were not step records');
    expect((await request(ui, `/train?${q({ dir: box.root })}`)).status).toBe(404);
  });
});

describe('ui server: adopt, reject and revert as the CLI does', () => {
  it('adopts exactly as `adopt`, and reverts exactly as `revert`', async () => {
    const box = sandbox();
    const twin = sandbox();
    const { ui, id } = await serve(box);
    const twinServed = await serve(twin);
    const adopted = await post(ui, box.project, id, 'adopt');
    expect(adopted.status).toBe(200);
    const cli = await runCli(twin, ['adopt', twinServed.id]);
    expect(cli.code).toBe(0);
    const alpha = (b: Sandbox) => readOrNull(path.join(b.project, '.claude/skills/alpha/SKILL.md'));
    expect(alpha(box)).not.toBe(HAND_ALPHA);
    expect(alpha(box)).toBe(alpha(twin));
    expect(resultText(adopted.body)).toBe(
      cli.stdout.trim().replaceAll(twin.project, box.project).replaceAll(twin.root, box.root),
    );
    // A second adoption is refused with the CLI's one-line error.
    const again = await post(ui, box.project, id, 'adopt');
    expect(again.status).toBe(409);
    const cliAgain = await runCli(twin, ['adopt', twinServed.id]);
    expect(cliAgain.code).not.toBe(0);
    expect(withoutTimes(resultText(again.body))).toBe(
      withoutTimes(
        cliAgain.stderr.trim().replaceAll(twin.project, box.project).replaceAll(twin.root, box.root),
      ),
    );

    const reverted = await post(ui, box.project, id, 'revert');
    expect(reverted.status).toBe(200);
    const cliRevert = await runCli(twin, ['revert', twinServed.id]);
    expect(cliRevert.code).toBe(0);
    expect(alpha(box)).toBe(HAND_ALPHA);
    expect(alpha(box)).toBe(alpha(twin));
    expect(resultText(reverted.body)).toBe(
      cliRevert.stdout.trim().replaceAll(twin.project, box.project).replaceAll(twin.root, box.root),
    );
  });

  it('rejects exactly as `reject`: the proposal can no longer be adopted, the files are untouched', async () => {
    const box = sandbox();
    const twin = sandbox();
    const { ui, id } = await serve(box);
    const twinServed = await serve(twin);
    const rejected = await post(ui, box.project, id, 'reject', { reason: 'not now' });
    expect(rejected.status).toBe(200);
    const cli = await runCli(twin, ['reject', twinServed.id, '--reason', 'not now']);
    expect(resultText(rejected.body)).toBe(cli.stdout.trim());
    const record = (b: Sandbox, pid: string) =>
      JSON.parse(
        readFileSync(path.join(b.project, '.skillopt-sleep/proposals', pid, 'rejected.json'), 'utf8'),
      ) as Record<string, unknown>;
    // The same record but for the clock (the server's is fixed, the CLI's the system's).
    expect({ ...record(box, id), rejectedAt: 0 }).toEqual({ ...record(twin, twinServed.id), rejectedAt: 0 });
    expect(record(box, id).rejectedAt).toBe(NOW);
    const adopt = await post(ui, box.project, id, 'adopt');
    expect(adopt.status).toBe(409);
    expect(resultText(adopt.body)).toMatch(/^\[sleep\] error: /);
    for (const [file, text] of [
      ['.claude/skills/alpha/SKILL.md', HAND_ALPHA],
      ['.agents/skills/beta/SKILL.md', HAND_BETA],
      ['CLAUDE.md', HAND_MEMORY],
    ] as const)
      expect(readOrNull(path.join(box.project, file))).toBe(text);
  });
});
