/**
 * The dashboard over a proposal's life: the buttons each status shows, the server refusing the others,
 * a POST answered with a redirect whose message shows once, and the project page saying what is live,
 * each proposal's status (a rejection's reason too) and filtering by a plain GET form.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from './cli-helpers.js';
import { HAND_ALPHA } from './proposal-fixture.js';
import { closeServers, post, press, q, request, resultText, serve, type Reply } from './ui-fixture.js';

afterEach(closeServers);

/** The buttons a proposal page shows. */
const buttons = (page: Reply): string[] =>
  [...page.body.matchAll(/<button type="submit" id="(\w+)-button"/g)].map((m) => m[1] ?? '');
const statusOf = (page: Reply): string =>
  /id="proposal-status" data-testid="proposal-status" data-status="(\w+)"/.exec(page.body)?.[1] ?? '';

describe('ui: a proposal’s buttons follow its status', () => {
  it('shows only the valid buttons, and refuses every other action with the CLI’s message', async () => {
    const box = sandbox();
    const { ui, id, first } = await serve(box);
    const alpha = path.join(box.project, '.claude/skills/alpha/SKILL.md');
    const page = (pid: string) => request(ui, `/proposal?${q({ dir: box.project, id: pid })}`);
    /** Every action not shown is refused, and changes no file. */
    const refusesTheRest = async (pid: string, shown: string[]) => {
      const before = readFileSync(alpha, 'utf8');
      for (const action of ['adopt', 'reject', 'revert'].filter((a) => !shown.includes(a))) {
        const r = await press(ui, box.project, pid, action);
        expect(r.ok, `${action} on ${statusOf(r)}`).toBe(false);
        expect(resultText(r.body)).toMatch(/^\[sleep\] error: /);
      }
      expect(readFileSync(alpha, 'utf8')).toBe(before);
    };

    const staged = await page(id);
    expect(statusOf(staged)).toBe('staged');
    expect(buttons(staged)).toEqual(['adopt', 'reject']);
    await refusesTheRest(id, ['adopt', 'reject']);

    expect((await press(ui, box.project, id, 'adopt')).ok).toBe(true);
    const adopted = await page(id);
    expect(statusOf(adopted)).toBe('adopted');
    expect(buttons(adopted)).toEqual(['revert']);
    await refusesTheRest(id, ['revert']);

    expect((await press(ui, box.project, id, 'revert')).ok).toBe(true);
    const reverted = await page(id);
    expect(statusOf(reverted)).toBe('reverted');
    expect(buttons(reverted)).toEqual([]);
    // Its file is reverted, not "adopted".
    expect(reverted.body).toMatch(/<li data-testid="target">\s*reverted skill/);
    expect(reverted.body).not.toMatch(/<li data-testid="target">\s*adopted/);
    await refusesTheRest(id, []);

    expect((await press(ui, box.project, first, 'reject', { reason: 'too <b>strict</b>' })).ok).toBe(true);
    const rejected = await page(first);
    expect(statusOf(rejected)).toBe('rejected');
    expect(buttons(rejected)).toEqual([]);
    expect(rejected.body).toContain('rejected: too &lt;b&gt;strict&lt;/b&gt;');
    await refusesTheRest(first, []);
  });
});

describe('ui: a button’s POST redirects', () => {
  it('answers 303 to the proposal’s page, whose message shows once', async () => {
    const box = sandbox();
    const { ui, id } = await serve(box);
    const posted = await post(ui, box.project, id, 'reject', { reason: 'not now' });
    expect(posted.status).toBe(303);
    const location = String(posted.headers.location);
    expect(location).toMatch(/^\/proposal\?dir=[^&]+&id=[^&]+&flash=[0-9a-f]{24}$/);
    const url = new URL(location, 'http://127.0.0.1');
    expect(url.searchParams.get('dir')).toBe(box.project);
    expect(url.searchParams.get('id')).toBe(id);
    const landed = await request(ui, location);
    expect(landed.status).toBe(200);
    expect(resultText(landed.body)).toBe(
      `[sleep] rejected ${id}\n[sleep]   rule 1 is not proposed again: - Use pnpm, never npm.`,
    );
    // A reload is a GET of the same address: the page as it is, no message, nothing submitted again.
    const reload = await request(ui, location);
    expect(reload.status).toBe(200);
    expect(reload.body).not.toContain('id="action-result"');
    expect(statusOf(reload)).toBe('rejected');
    // A flash id nobody issued shows nothing (and its text is never echoed).
    const forged = await request(ui, `/proposal?${q({ dir: box.project, id, flash: '<b>x</b>' })}`);
    expect(forged.status).toBe(200);
    expect(forged.body).not.toContain('id="action-result"');
    expect(forged.body).not.toContain('<b>x</b>');
  });

  it('says in /api/state when the store changed, so a page refreshes', async () => {
    const box = sandbox();
    const { ui, id } = await serve(box);
    const state = async () => {
      const r = await request(ui, '/api/state');
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      return (JSON.parse(r.body) as { version: string }).version;
    };
    const before = await state();
    expect(await state()).toBe(before);
    const page = await request(ui, `/project?${q({ dir: box.project })}`);
    expect(page.body).toContain(`<main data-version="${before}">`);
    expect((await press(ui, box.project, id, 'adopt')).ok).toBe(true);
    expect(await state()).not.toBe(before);
    expect((await request(ui, '/api/state', { auth: false })).status).toBe(401);
  });
});

describe('ui: the project page', () => {
  it('shows what is live per file, its learned rules, each proposal’s status and the lessons', async () => {
    const box = sandbox();
    const { ui, id, first } = await serve(box);
    const project = () => request(ui, `/project?${q({ dir: box.project })}`);
    const liveRows = (page: Reply) =>
      [...page.body.matchAll(/<tr data-testid="live-row" data-state="(\w+)">([\s\S]*?)<\/tr>/g)].map((m) => ({
        state: m[1],
        text: (m[2] ?? '')
          .replace(/<[^>]*>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim(),
      }));

    const none = liveRows(await project());
    expect(none.map((r) => r.state)).toEqual(['no_adoption', 'no_adoption', 'no_adoption']);
    expect(none[0]?.text).toContain('no learned block');

    expect((await press(ui, box.project, first, 'adopt')).ok).toBe(true);
    expect((await press(ui, box.project, id, 'reject', { reason: 'not now' })).ok).toBe(true);
    const page = await project();
    const rows = liveRows(page);
    expect(rows.map((r) => r.state)).toEqual(['as_adopted', 'as_adopted', 'as_adopted']);
    for (const r of rows) {
      expect(r.text).toContain(first);
      expect(r.text).toContain('1 learned rule');
    }
    expect(rows[0]?.text).toContain(path.join(box.project, '.claude/skills/alpha/SKILL.md'));
    // The night whose proposal was rejected says so, with the reason.
    const night = /<tr data-testid="night-row" data-night="1">([\s\S]*?)<\/tr>/.exec(page.body)?.[1] ?? '';
    expect(night).toMatch(/data-status="rejected"\s*>rejected: not now</);
    const proposals = [
      ...page.body.matchAll(/data-testid="proposal-row" data-proposal="([^"]+)"[\s\S]*?data-status="(\w+)"/g),
    ];
    expect(proposals.map((m) => [m[1], m[2]])).toEqual([
      [id, 'rejected'],
      [first, 'adopted'],
    ]);
    // The sandbox's store holds no sessions: `lessons list` would say the same.
    expect(page.body.replace(/\s+/g, ' ')).toContain(
      'Lessons: 0 lessons (0 active) from the 0 stored sessions;',
    );

    // A hand edit after the adoption: the file no longer holds what was adopted.
    const alpha = path.join(box.project, '.claude/skills/alpha/SKILL.md');
    writeFileSync(alpha, `${readFileSync(alpha, 'utf8')}\nmine\n`);
    expect(liveRows(await project())[0]?.state).toBe('edited');
    writeFileSync(alpha, HAND_ALPHA);
  });

  it('filters nights and proposals with a GET form: q and status in the address', async () => {
    const box = sandbox();
    const { ui, id } = await serve(box);
    expect((await press(ui, box.project, id, 'reject', { reason: 'not now' })).ok).toBe(true);
    const nights = async (params: Record<string, string>) => {
      const page = await request(ui, `/project?${q({ dir: box.project, ...params })}`);
      expect(page.status).toBe(200);
      return {
        nights: [...page.body.matchAll(/data-testid="night-row" data-night="(\d+)"/g)].map((m) =>
          Number(m[1]),
        ),
        proposals: [...page.body.matchAll(/data-testid="proposal-row" data-proposal="([^"]+)"/g)].map(
          (m) => m[1],
        ),
        body: page.body,
      };
    };
    expect((await nights({})).nights).toEqual([3, 2, 1]);
    const noTasks = await nights({ q: 'no tasks' });
    expect(noTasks.nights).toEqual([3]);
    expect(noTasks.proposals).toEqual([]);
    expect(noTasks.body).toContain('value="no tasks"');
    expect(noTasks.body.replace(/\s+/g, ' ')).toContain('1 of 3 nights match the filter');
    const rejected = await nights({ status: 'rejected' });
    expect(rejected.nights).toEqual([1]);
    expect(rejected.proposals).toEqual([id]);
    expect(rejected.body).toMatch(/<option value="rejected" selected>/);
    expect((await nights({ q: 'not now' })).nights).toEqual([1]);
    expect((await nights({ status: 'none' })).nights).toEqual([3, 2]);
    // What is typed comes back escaped.
    const planted = await nights({ q: '"><script>alert(1)</script>' });
    expect(planted.body).not.toContain('<script>alert(1)</script>');
    expect(planted.nights).toEqual([]);
  });
});
