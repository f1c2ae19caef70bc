/**
 * The dashboard in a real browser: the real server (in-process, port 0) over a sandbox where mock nights
 * ran through the CLI, driven by Debian's Chromium. Each page is checked for what it must show and
 * screenshotted (test-results/screenshots/), the buttons change files exactly as the CLI does (a twin
 * sandbox runs the same nights and adopts with the CLI), and the guards hold against a browser too:
 * no token, a rebinding host name, a foreign origin's form. Nothing is requested from another origin.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliLessonCounts, cliProposalActions } from '../../../src/cli/commands/ui-action.js';
import { dbFile } from '../../../src/config/paths.js';
import { systemClock } from '../../../src/core/clock.js';
import { silentLogger } from '../../../src/core/logger.js';
import { openStore, type Db } from '../../../src/store/db.js';
import { startUi, type RunningUi } from '../../../src/ui/server.js';
import { PERSONAS, runCli, sandbox, type Sandbox } from '../cli-helpers.js';
import { claudeProjectDir } from '../claude-transcript.js';
import { chromiumPath, foreignRequests, launchChromium, NO_BROWSER, watchedPage } from './chromium.js';

const available = chromiumPath() !== null;
if (!available) console.warn(`[sleep] ${NO_BROWSER}`);

const TASKS = path.join(PERSONAS, 'researcher.tasks.json');
/** Other rules than TASKS's, which the Reject test keeps out of later nights. */
const OTHER_TASKS = path.join(PERSONAS, 'programmer.tasks.json');
const DEMO = path.resolve(import.meta.dirname, '../../../templates/demo');
const DEMO_CWD = '/home/dev/acme-web';
const skillOf = (box: Sandbox): string =>
  path.join(box.project, '.claude', 'skills', 'skillopt-sleep-learned', 'SKILL.md');

/**
 * The bundled demo as a user's own project: its files in the sandbox project, its recorded Claude Code
 * sessions in the sandbox home (their cwd rewritten to the project), then two mock nights over all history.
 */
async function twoNights(): Promise<{ box: Sandbox; nights: Array<{ a: number | null; b: number | null }> }> {
  const box = sandbox();
  cpSync(path.join(DEMO, 'project'), box.project, { recursive: true });
  const from = path.join(DEMO, 'claude', 'projects', '-home-dev-acme-web');
  const to = claudeProjectDir(box.home, box.project);
  cpSync(from, to, { recursive: true });
  for (const f of readdirSync(to, { recursive: true, encoding: 'utf8' }).filter((n) =>
    n.endsWith('.jsonl'),
  )) {
    const file = path.join(to, f);
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll(DEMO_CWD, box.project));
  }
  for (let i = 0; i < 2; i++) {
    const r = await runCli(box, ['run', '--json', '--backend', 'mock', '--lookback-hours', '0']);
    expect(r.code, r.stderr).toBe(0);
  }
  const status = await runCli(box, ['status', '--json']);
  const nights = (
    status.json().nights as Array<{ baseline: number | null; candidate: number | null; started_at: number }>
  )
    .sort((x, y) => x.started_at - y.started_at)
    .map((n) => ({ a: n.baseline, b: n.candidate }));
  return { box, nights };
}

const query = (params: Record<string, string>): string => new URLSearchParams(params).toString();

function ctxOf(box: Sandbox) {
  return {
    env: { HOME: box.home, SKILLOPT_SLEEP_HOME: box.stateHome },
    home: box.stateHome,
    userHome: box.home,
    clock: systemClock,
    logger: silentLogger,
    json: false,
  };
}

async function latestStaged(box: Sandbox): Promise<string> {
  const list = await runCli(box, ['proposals', 'list', '--json']);
  const proposals = list.json().proposals as Array<{ id: string; status: string }>;
  const staged = proposals.find((p) => p.status === 'staged');
  if (!staged) throw new Error(`no staged proposal: ${JSON.stringify(proposals)}`);
  return staged.id;
}

describe.skipIf(!available)('the dashboard in Chromium', () => {
  let browser: Browser;
  let box: Sandbox;
  let nights: Array<{ a: number | null; b: number | null }>;
  let db: Db;
  let ui: RunningUi;
  let origin: string;
  let trainDir: string;

  beforeAll(async () => {
    ({ box, nights } = await twoNights());
    trainDir = path.join(box.root, 'train-run');
    const train = await runCli(box, ['train', '--demo', '--backend', 'mock', '--out', trainDir, '--json']);
    expect(train.code, train.stderr).toBe(0);
    db = openStore(dbFile(box.stateHome));
    ui = await startUi({
      home: box.stateHome,
      userHome: box.home,
      db,
      clock: systemClock,
      logger: silentLogger,
      runAction: cliProposalActions(ctxOf(box), db),
      countLessons: cliLessonCounts(ctxOf(box), db),
      port: 0,
      trainDirs: [trainDir],
    });
    origin = new URL(ui.url).origin;
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await ui?.close();
    db?.close();
  });

  it('projects → nights: one chart point per night, with the values the store holds', async () => {
    const w = await watchedPage(browser);
    await w.page.goto(ui.url);
    await w.page.waitForSelector('[data-testid="project-row"]');
    expect(await w.page.textContent('[data-testid="projects-table"]')).toContain(box.project);
    // The token left the address for a cookie.
    expect(w.page.url()).not.toContain('token=');
    await w.screenshot('projects');

    await w.page.click(`[data-testid="project-row"] a[href*="project?"]`);
    await w.page.waitForSelector('[data-testid="chart"] canvas');
    const data = JSON.parse((await w.page.textContent('#nights-data')) ?? '{}') as {
      points: Array<{ a: number | null; b: number | null }>;
    };
    expect(data.points.map((p) => ({ a: p.a, b: p.b }))).toEqual(nights);
    expect(nights.length).toBe(2);
    expect(await w.page.locator('[data-testid="night-row"]').count()).toBe(nights.length);
    // The lessons `lessons list` shows, counted on the page.
    const lessons = await runCli(box, ['lessons', 'list', '--json']);
    expect(lessons.code, lessons.stderr).toBe(0);
    const listed = lessons.json().lessons as unknown[];
    expect(listed.length).toBeGreaterThan(0);
    expect(await w.page.getAttribute('[data-testid="lessons-count"]', 'data-lessons')).toBe(
      String(listed.length),
    );
    await w.screenshot('nights');
    expect(foreignRequests(w.requests, origin)).toEqual([]);
    expect(w.errors).toEqual([]);
    await w.page.context().close();
  });

  it('a proposal shows its diff and the sentence behind a rule; Adopt and Revert do what the CLI does', async () => {
    const id = await latestStaged(box);
    // The twin: the same nights in another sandbox, adopted with the CLI.
    const twin = await twoNights();
    const twinAdopt = await runCli(twin.box, ['adopt', await latestStaged(twin.box)]);
    expect(twinAdopt.code, twinAdopt.stderr).toBe(0);

    const hand = readFileSync(skillOf(box), 'utf8');
    const w = await watchedPage(browser);
    await w.page.goto(ui.url);
    const shown = await w.page.goto(`${origin}/proposal?${query({ dir: box.project, id })}`);
    expect(shown?.status()).toBe(200);
    const diff = (await w.page.textContent('[data-testid="diff"]')) ?? '';
    expect(diff).toMatch(/^\+.*\S/m);
    const report = JSON.parse(
      readFileSync(path.join(box.project, '.skillopt-sleep', 'proposals', id, 'report.json'), 'utf8'),
    ) as {
      recurring_tasks?: Array<{ checks: Array<{ sentence: string }> }>;
      lessons?: Array<{ id: string }>;
    };
    const sentence = report.recurring_tasks?.flatMap((t) => t.checks)[0]?.sentence;
    expect(sentence, 'the fixture night has a rule with its sentence').toBeTruthy();
    expect(await w.page.textContent('body')).toContain(sentence);
    // Every lesson the night reported is listed, with its evidence.
    const lessons = report.lessons ?? [];
    expect(lessons.length, 'the fixture night reports its lessons').toBeGreaterThan(0);
    expect(await w.page.locator('[data-testid="lesson"]').count()).toBe(lessons.length);
    expect(
      await w.page.locator(`[data-lesson="${lessons[0]?.id ?? ''}"] [data-testid="lesson-evidence"]`).count(),
    ).toBeGreaterThan(0);
    await w.screenshot('proposal');

    await w.page.click('[data-testid="adopt-button"]');
    await w.page.waitForSelector('[data-testid="action-result"]');
    expect(await w.page.getAttribute('[data-testid="action-result"]', 'data-ok')).toBe('true');
    expect(readFileSync(skillOf(box), 'utf8')).toBe(readFileSync(skillOf(twin.box), 'utf8'));
    expect(readFileSync(skillOf(box), 'utf8')).not.toBe(hand);
    await w.screenshot('proposal-adopted');
    // The project page says it is live now, holding the rules the night's report says it learned.
    const learned = (
      JSON.parse(
        readFileSync(path.join(box.project, '.skillopt-sleep', 'proposals', id, 'report.json'), 'utf8'),
      ) as { learned_rules: string[] }
    ).learned_rules;
    expect(learned.length).toBeGreaterThan(0);
    await w.page.click('#proposal-status a[href*="project?"]');
    const live = w.page.locator('[data-testid="live-row"]', { hasText: skillOf(box) });
    expect(await live.getAttribute('data-state')).toBe('as_adopted');
    expect(await live.locator('[data-testid="live-proposal"] a').textContent()).toBe(id);
    expect((await live.locator('[data-testid="live-rules"]').textContent())?.trim()).toBe(
      `${learned.length} learned rule${learned.length === 1 ? '' : 's'}`,
    );
    await w.screenshot('project-live');
    await w.page.goBack();

    await w.page.click('[data-testid="revert-button"]');
    await w.page.waitForSelector('[data-testid="action-result"]');
    expect(await w.page.getAttribute('[data-testid="action-result"]', 'data-ok')).toBe('true');
    expect(readFileSync(skillOf(box), 'utf8')).toBe(hand);
    // A reverted proposal offers nothing, and the CLI refuses to adopt it too.
    expect(await w.page.getAttribute('#proposal-status', 'data-status')).toBe('reverted');
    expect(await w.page.locator('#actions button').count()).toBe(0);
    const cli = await runCli(box, ['adopt', id]);
    expect(cli.code).toBe(2);
    expect(foreignRequests(w.requests, origin)).toEqual([]);
    expect(w.errors).toEqual([]);
    await w.page.context().close();
  }, 120_000);

  it('Reject turns a staged proposal down, as `reject` does', async () => {
    const r = await runCli(box, ['run', '--json', '--tasks-file', TASKS]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().accepted).toBe(true);
    const id = await latestStaged(box);
    const w = await watchedPage(browser);
    await w.page.goto(ui.url);
    await w.page.goto(`${origin}/proposal?${query({ dir: box.project, id })}`);
    await w.page.fill('#reject-reason', 'not now');
    await w.page.click('[data-testid="reject-button"]');
    await w.page.waitForSelector('[data-testid="action-result"]');
    expect(await w.page.getAttribute('[data-testid="action-result"]', 'data-ok')).toBe('true');
    const list = await runCli(box, ['proposals', 'list', '--json']);
    const mine = (list.json().proposals as Array<{ id: string; status: string }>).find((p) => p.id === id);
    expect(mine?.status).toBe('rejected');
    // As `reject` does, the button keeps the proposal's rules out of later nights.
    const again = await runCli(box, ['run', '--json', '--tasks-file', TASKS]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json().staging_dir).toBe('');
    await w.page.context().close();
  }, 120_000);

  it('report --html opens with no network and shows the numbers of the live pages', async () => {
    const list = await runCli(box, ['proposals', 'list', '--json']);
    const id = (list.json().proposals as Array<{ id: string }>).at(-1)?.id ?? '';
    const file = path.join(box.root, 'report.html');
    const r = await runCli(box, ['report', id, '--html', '--out', file]);
    expect(r.code, r.stderr).toBe(0);

    const live = await watchedPage(browser);
    await live.page.goto(ui.url);
    await live.page.goto(`${origin}/proposal?${query({ dir: box.project, id })}`);
    const liveScores = await live.page.textContent('#scores');
    const liveDeltas = await live.page.locator('[data-testid="task-delta"]').allTextContents();
    await live.page.goto(`${origin}/project?${query({ dir: box.project })}`);
    const liveNights = await live.page.textContent('#nights-data');
    await live.page.context().close();

    const w = await watchedPage(browser);
    await w.page.goto(pathToFileURL(file).href);
    await w.page.waitForSelector('[data-testid="chart"] canvas');
    expect(w.requests).toEqual([pathToFileURL(file).href]);
    expect(await w.page.textContent('#scores')).toBe(liveScores);
    expect(await w.page.locator('[data-testid="task-delta"]').allTextContents()).toEqual(liveDeltas);
    expect(await w.page.textContent('#nights-data')).toBe(liveNights);
    expect(await w.page.locator('form, button').count()).toBe(0);
    await w.screenshot('report-html');
    expect(w.errors).toEqual([]);
    await w.page.context().close();
  });

  it('the harvest page shows every source the harvest read; a train run charts its history', async () => {
    const w = await watchedPage(browser);
    await w.page.goto(ui.url);
    await w.page.click('#nav-harvest');
    await w.page.waitForSelector('[data-testid="harvest-table"]');
    expect(await w.page.locator('[data-testid="harvest-row"][data-source="claude"]').count()).toBe(1);
    await w.screenshot('harvest');

    await w.page.click('#nav-projects');
    await w.page.click('[data-testid="train-link"] a');
    await w.page.waitForSelector('[data-testid="chart"] canvas');
    const steps = readFileSync(path.join(trainDir, 'history.jsonl'), 'utf8').trim().split('\n').length;
    expect(await w.page.locator('[data-testid="train-row"]').count()).toBe(steps);
    await w.screenshot('train');
    expect(foreignRequests(w.requests, origin)).toEqual([]);
    expect(w.errors).toEqual([]);
    await w.page.context().close();
  });

  it('refuses a browser without the token, under a rebinding host name, and a foreign origin’s form', async () => {
    const w = await watchedPage(browser);
    const bare = await w.page.goto(`${origin}/`);
    expect(bare?.status()).toBe(401);
    await w.screenshot('refused-no-token');
    await w.page.context().close();

    // DNS rebinding: a name the attacker controls resolving to 127.0.0.1.
    const rebound = await launchChromium(['--host-resolver-rules=MAP rebind.test 127.0.0.1']);
    try {
      const r = await watchedPage(rebound);
      const res = await r.page.goto(`http://rebind.test:${ui.port}/?token=${ui.token}`);
      expect(res?.status()).toBe(403);
    } finally {
      await rebound.close();
    }

    // A page of another origin (another loopback port) posts the form, CSRF token and cookie included:
    // only the Origin check stands between it and the proposal.
    expect((await runCli(box, ['run', '--json', '--tasks-file', OTHER_TASKS])).code).toBe(0);
    const id = await latestStaged(box);
    const page = await watchedPage(browser);
    await page.page.goto(ui.url);
    await page.page.goto(`${origin}/proposal?${query({ dir: box.project, id })}`);
    const csrf = await page.page.getAttribute('input[name="csrf"]', 'value');
    expect(csrf).toBeTruthy();
    const foreign = await serveForm(origin, csrf ?? '', box.project, id);
    try {
      const statuses: number[] = [];
      page.page.on('response', (res) => {
        if (res.url() === `${origin}/action`) statuses.push(res.status());
      });
      await page.page.goto(foreign.url);
      await page.page.waitForURL(`${origin}/action`);
      expect(statuses).toEqual([403]);
      expect(await latestStaged(box)).toBe(id);
    } finally {
      foreign.server.close();
      await page.page.context().close();
    }
  });
});

/** A page on another loopback port that posts the dashboard's action form as soon as it loads. */
function serveForm(
  target: string,
  csrf: string,
  dir: string,
  id: string,
): Promise<{ server: Server; url: string }> {
  const body = `<!doctype html><form id="f" method="post" action="${target}/action">
    <input name="csrf" value="${csrf}"><input name="dir" value="${dir}"><input name="id" value="${id}">
    <input name="action" value="reject"></form><script>document.getElementById('f').submit()</script>`;
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` }),
    ),
  );
}
