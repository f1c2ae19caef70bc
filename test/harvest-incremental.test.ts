import { appendFileSync, mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../src/core/clock.js';
import { silentLogger } from '../src/core/logger.js';
import { harvest } from '../src/harvest/harvest.js';
import { openStore } from '../src/store/db.js';
import { querySessions } from '../src/store/sessions-repo.js';

const PROJECT = '/work/acme';

/** Claude Code records for one session, one JSON line each. */
function rec(
  sessionId: string,
  n: number,
  type: 'user' | 'assistant',
  content: unknown,
  messageId?: string,
): string {
  const base = {
    type,
    uuid: `${sessionId}-${n}`,
    parentUuid: n > 0 ? `${sessionId}-${n - 1}` : null,
    sessionId,
    cwd: PROJECT,
    timestamp: new Date(Date.UTC(2026, 10, 1, 9, 0, n)).toISOString(),
    message:
      type === 'user'
        ? { role: 'user', content }
        : { id: messageId ?? `msg-${sessionId}-${n}`, role: 'assistant', model: 'claude-x', content },
  };
  return `${JSON.stringify(base)}\n`;
}

function setup() {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sos-inc-'));
  const dir = path.join(home, '.claude', 'projects', '-work-acme');
  mkdirSync(dir, { recursive: true });
  const db = openStore(':memory:');
  let t = Date.UTC(2026, 10, 2);
  const run = () =>
    harvest({
      db,
      ctx: { home, env: {} },
      clock: fixedClock((t += 1000)),
      logger: silentLogger,
      sources: ['claude'],
    });
  const sessions = () => querySessions(db, { project: PROJECT, scope: 'invoked', sinceMs: null, limit: 100 });
  return { home, dir, db, run, sessions };
}

describe('incremental harvest', () => {
  it('stores nothing twice and skips unchanged files', async () => {
    const { dir, run, sessions } = setup();
    const file = path.join(dir, 's1.jsonl');
    writeFileSync(
      file,
      rec('s1', 0, 'user', 'Add `zod` to the app') +
        rec('s1', 1, 'assistant', [{ type: 'text', text: 'npm install zod' }]),
    );
    const first = await run();
    expect(first.bySource.claude).toMatchObject({ files: 1, parsed: 1, new: 1, updated: 0 });
    const second = await run();
    expect(second.bySource.claude).toMatchObject({ files: 1, parsed: 0, new: 0, updated: 0 });
    expect(sessions()).toHaveLength(1);
    expect(sessions()[0]?.turns.map((t) => t.text)).toEqual(['Add `zod` to the app', 'npm install zod']);
  });

  it('appends new lines of a live session after the stored turns, keeping one message whole across the cut', async () => {
    const { dir, run, sessions } = setup();
    const file = path.join(dir, 's1.jsonl');
    writeFileSync(
      file,
      rec('s1', 0, 'user', 'Add `zod`') +
        rec('s1', 1, 'assistant', [{ type: 'text', text: 'Adding it.' }], 'm1'),
    );
    await run();
    // The same API message continues in the next record (Claude writes one record per content block).
    appendFileSync(
      file,
      rec(
        's1',
        2,
        'assistant',
        [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'x' } }],
        'm1',
      ) +
        rec('s1', 3, 'user', 'use pnpm instead of npm') +
        rec('s1', 4, 'assistant', [{ type: 'text', text: 'Done with pnpm.' }], 'm2'),
    );
    const r = await run();
    expect(r.bySource.claude).toMatchObject({ parsed: 1, new: 0, updated: 1 });
    const [s] = sessions();
    expect(s?.turns.map((t) => [t.seq, t.role, t.text, t.toolNames])).toEqual([
      [0, 'user', 'Add `zod`', []],
      [1, 'assistant', 'Adding it.', ['Bash']],
      [2, 'user', 'use pnpm instead of npm', []],
      [3, 'assistant', 'Done with pnpm.', []],
    ]);
    expect(s?.toolsUsed).toEqual(['Bash']);
  });

  it('does not read a half-written last line until it is complete', async () => {
    const { dir, run, sessions } = setup();
    const file = path.join(dir, 's1.jsonl');
    const second = rec('s1', 1, 'assistant', [{ type: 'text', text: 'answer' }]);
    writeFileSync(file, rec('s1', 0, 'user', 'question here') + second.slice(0, 30));
    const r = await run();
    expect(r.badLines).toBe(0);
    expect(sessions()[0]?.turns).toHaveLength(1);
    appendFileSync(file, second.slice(30));
    await run();
    expect(sessions()[0]?.turns.map((t) => t.text)).toEqual(['question here', 'answer']);
  });

  it('re-reads a truncated or replaced file from the start', async () => {
    const { dir, run, sessions } = setup();
    const file = path.join(dir, 's1.jsonl');
    writeFileSync(file, rec('s1', 0, 'user', 'first question') + rec('s1', 1, 'assistant', 'first answer'));
    await run();
    writeFileSync(file, rec('s1', 0, 'user', 'rewritten'));
    await run();
    expect(sessions()[0]?.turns.map((t) => t.text)).toEqual(['rewritten']);
    const replacement = path.join(dir, 'tmp');
    writeFileSync(replacement, rec('s2', 0, 'user', 'another session') + rec('s2', 1, 'assistant', 'ok'));
    renameSync(replacement, file);
    await run();
    expect(sessions().map((s) => s.sessionId)).toEqual(['s2']);
  });

  it('drops sessions started by our own replays and other memory tools', async () => {
    const { dir, run, sessions } = setup();
    writeFileSync(
      path.join(dir, 'r.jsonl'),
      rec('r', 0, 'user', '<!-- skillopt-sleep:replay -->\n# Task\nDo X') + rec('r', 1, 'assistant', 'x'),
    );
    writeFileSync(
      path.join(dir, 'm.jsonl'),
      rec('m', 0, 'user', 'Hello memory agent, summarise') + rec('m', 1, 'assistant', 'y'),
    );
    const r = await run();
    expect(r.bySource.claude?.machine_sessions).toBe(2);
    expect(sessions()).toHaveLength(0);
    appendFileSync(path.join(dir, 'r.jsonl'), rec('r', 2, 'user', 'more') + rec('r', 3, 'assistant', 'z'));
    await run();
    expect(sessions()).toHaveLength(0);
  });

  it('redacts secrets before storing', async () => {
    const { dir, run, db } = setup();
    const secret = ['ghp', '_', 'A'.repeat(18), 'b'.repeat(18)].join('');
    writeFileSync(
      path.join(dir, 's.jsonl'),
      rec('s', 0, 'user', `use token ${secret} please`) + rec('s', 1, 'assistant', 'ok'),
    );
    await run();
    const texts = (db.prepare('SELECT text FROM turns').all() as { text: string }[])
      .map((r) => r.text)
      .join('\n');
    expect(texts).not.toContain(secret);
    expect(texts).toContain('REDACTED');
  });
});

describe('tolerant parsing and scoping', () => {
  it('survives invalid UTF-8, empty and binary files and a 50 MB line, counting what it skips', async () => {
    const { dir, run, sessions } = setup();
    const good = rec('g', 0, 'user', 'caf\u00e9 question') + rec('g', 1, 'assistant', 'answer');
    const invalidUtf8 = Buffer.concat([
      Buffer.from(good),
      Buffer.from(
        '{"type":"user","sessionId":"g","cwd":"/work/acme","message":{"role":"user","content":"bad ',
      ),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('"}}\n'),
    ]);
    writeFileSync(path.join(dir, 'g.jsonl'), invalidUtf8);
    writeFileSync(path.join(dir, 'empty.jsonl'), '');
    writeFileSync(
      path.join(dir, 'binary.jsonl'),
      Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256)),
    );
    const huge = `${JSON.stringify({ type: 'user', sessionId: 'h', cwd: PROJECT, message: { role: 'user', content: 'x'.repeat(50 * 1024 * 1024) } })}\n`;
    writeFileSync(path.join(dir, 'h.jsonl'), huge + rec('h', 1, 'assistant', 'done'));
    const r = await run();
    expect(r.unreadable).toEqual([]);
    expect(r.bySource.claude?.skipped_lines).toBeGreaterThan(0);
    const g = sessions().find((s) => s.sessionId === 'g');
    expect(g?.turns[0]?.text).toBe('caf\u00e9 question');
    expect(g?.turns.at(-1)?.text).toContain('bad ');
    expect(sessions().find((s) => s.sessionId === 'h')?.turns).toHaveLength(2);
  });

  it('attributes sessions to the project folder and below, not to ancestors or siblings', async () => {
    const { dir, run, db } = setup();
    const at = (id: string, cwd: string): string =>
      [rec(id, 0, 'user', `task from ${cwd}`), rec(id, 1, 'assistant', 'ok')]
        .map((l) => l.replace(/"cwd":"[^"]*"/, `"cwd":"${cwd}"`))
        .join('');
    writeFileSync(path.join(dir, 'a.jsonl'), at('a', '/work/acme/packages/web'));
    writeFileSync(path.join(dir, 'b.jsonl'), at('b', '/work'));
    writeFileSync(path.join(dir, 'c.jsonl'), at('c', '/work/acme-other'));
    writeFileSync(path.join(dir, 'd.jsonl'), at('d', '/work/acme/'));
    await run();
    const invoked = querySessions(db, { project: PROJECT, scope: 'invoked', sinceMs: null, limit: 10 });
    expect(invoked.map((s) => s.sessionId).sort()).toEqual(['a', 'd']);
    const all = querySessions(db, { project: PROJECT, scope: 'all', sinceMs: null, limit: 10 });
    expect(all).toHaveLength(4);
  });
});
