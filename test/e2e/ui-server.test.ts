/**
 * The dashboard's server in-process on a free port: its guards (token, Host, Origin, CSRF), the exact
 * numbers it charts, a proposal's diff and provenance, and that nothing links another host.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sandbox } from './cli-helpers.js';
import { HAND_ALPHA } from './proposal-fixture.js';
import { closeServers, csrfOf, NIGHTS, q, request, serve } from './ui-fixture.js';

afterEach(closeServers);

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
    expect(page.body).toContain('<td data-testid="gate">no tasks to train on</td>');
    expect(page.body).toContain('<td data-testid="gate">accepted: new best</td>');
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
    expect(page.body).not.toMatch(/claude-code:s1, <time/);
    // Once the session is in the store, the sentence is dated with the session's start.
    db.prepare(
      `INSERT INTO sessions (key, source, session_id, project_root, cwd, branch, model, source_version, started_at,
         ended_at, n_user_turns, n_assistant_turns, tools_used, skills_used, files_touched, source_path, harvested_at)
       VALUES ('claude-code:s1', 'claude', 's1', ?, ?, '', '', '', ?, NULL, 1, 1, '[]', '[]', '[]', '/t/s1.jsonl', 0)`,
    ).run(box.project, box.project, Date.UTC(2025, 11, 30, 9));
    const dated = await request(ui, `/proposal?${q({ dir: box.project, id })}`);
    expect(dated.body).toContain(
      'claude-code:s1, <time datetime="2025-12-30T09:00:00.000Z" title="2025-12-30T09:00:00.000Z">2025-12-30 09:00 UTC (3 days ago)</time>',
    );
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

describe('ui server: rejecting chosen rules', () => {
  it('offers a box per learned rule and rejects only the checked ones, as `reject --rule` does', async () => {
    const box = sandbox();
    const { ui, id } = await serve(box);
    const page = await request(ui, `/proposal?${q({ dir: box.project, id })}`);
    expect(page.body).toMatch(/<input type="checkbox" name="rule" value="1" data-testid="reject-rule" \/>/);
    expect(page.body).toContain('1. - Use pnpm, never npm.');
    const csrf = csrfOf(page.body);
    const body = (rules: string[]): string => {
      const form = new URLSearchParams({ csrf, dir: box.project, id, action: 'reject', reason: 'not ours' });
      for (const r of rules) form.append('rule', r);
      return form.toString();
    };
    const post = (rules: string[]) =>
      request(ui, '/action', {
        method: 'POST',
        headers: { origin: `http://127.0.0.1:${ui.port}` },
        body: body(rules),
      });
    expect((await post(['x'])).status).toBe(400);
    // A rule the proposal does not have is refused by the CLI's own check: nothing is rejected.
    const wrong = await post(['7']);
    expect(wrong.status).toBe(303);
    const refused = await request(ui, String(wrong.headers.location));
    expect(refused.body).toMatch(/data-ok="false"[\s\S]*rule 7/);
    const done = await post(['1']);
    expect(done.status).toBe(303);
    const after = await request(ui, String(done.headers.location));
    expect(after.body).toContain('data-ok="true"');
    expect(after.body).toMatch(/rejected/);
  });
});
