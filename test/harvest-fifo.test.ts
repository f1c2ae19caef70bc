/**
 * A FIFO (or any file that blocks on open or read) planted at a transcript path in any source root must
 * not hang the harvest: it is skipped with a warning naming it, and the rest is harvested.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_TRANSCRIPT, CODEX_UUID, claudeRecord, harvestHome } from './harvest-home.js';

let home = '';
let unblocker: ChildProcess | undefined;
afterEach(() => {
  if (unblocker?.pid !== undefined) process.kill(unblocker.pid);
  unblocker = undefined;
  if (home !== '') rmSync(home, { recursive: true, force: true });
});

function mkfifo(file: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  execFileSync('mkfifo', [file]);
  return file;
}

/**
 * A regression would block the event loop inside a synchronous open or read, where no test timeout can
 * fire. After a grace period this child opens every FIFO for writing and closes it, which ends a blocked
 * read, so a regression shows as a slow harvest (failing the time check) instead of a hung test run.
 */
function unblockAfter(ms: number, fifos: string[], marker: string): ChildProcess {
  const script = `
    const fs = require('node:fs');
    const fifos = ${JSON.stringify(fifos)};
    setTimeout(() => fs.writeFileSync(${JSON.stringify(marker)}, ''), ${ms});
    setTimeout(() => setInterval(() => {
      for (const f of fifos) {
        try { fs.closeSync(fs.openSync(f, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)); } catch {}
      }
    }, 50), ${ms});
    setTimeout(() => process.exit(0), 60000);`;
  return spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
}

describe.skipIf(process.platform === 'win32')('harvest with FIFOs at transcript paths', () => {
  it(
    'skips a FIFO in every source root with a warning naming it, and harvests the rest',
    { timeout: 20_000 },
    async () => {
      const h = harvestHome('sos-fifo-');
      home = h.home;
      h.write(CLAUDE_TRANSCRIPT, `${claudeRecord(0, 'user', 'Fix the login bug')}\n`);
      const ws = path.join(h.vscodeStorage, 'abc123');
      h.write(
        path.relative(h.home, path.join(ws, 'chatSessions', 'fine.json')),
        JSON.stringify({
          sessionId: 'fine',
          requests: [
            { requestId: 'r1', timestamp: 1767225600000, message: { text: 'Add validation' }, response: [] },
          ],
        }),
      );
      // A Gemini chat whose project folder's markers are FIFOs: it is read, only its folder is unknown.
      h.write(
        '.gemini/tmp/p/chats/session-2026-01-01T00-00-9e0f1f00.jsonl',
        [
          { sessionId: '9e0f1f00', projectHash: '' },
          { id: 'u', type: 'user', timestamp: '2026-01-01T00:00:01.000Z', content: 'Add a test' },
        ]
          .map((r) => JSON.stringify(r))
          .join('\n') + '\n',
      );
      const fifos = [
        path.join(h.home, '.claude/projects/-work-acme/planted.jsonl'),
        path.join(h.home, `.codex/sessions/2025/11/23/rollout-2025-11-23T10-00-00-${CODEX_UUID}.jsonl`),
        path.join(h.home, '.codex/sessions/rollout-2025-08-23-0418f71e-0000-4000-8000-0000000000bb.json'),
        path.join(
          h.home,
          '.codex/archived_sessions/rollout-2025-10-01T09-00-00-019a0000-0000-7000-8000-0000000000cc.jsonl',
        ),
        path.join(h.home, '.copilot/session-store.db'),
        path.join(h.home, '.copilot/session-state/s1/events.jsonl'),
        path.join(h.home, '.copilot/session-state/s2.jsonl'),
        path.join(ws, 'chatSessions', 'planted-doc.json'),
        path.join(ws, 'chatSessions', 'planted-log.jsonl'),
        path.join(ws, 'GitHub.copilot-chat', 'transcripts', 'planted-events.jsonl'),
        path.join(ws, 'workspace.json'), // read for the project of every chat in the workspace
        path.join(h.home, '.gemini/tmp/p/chats/session-2026-01-01T00-00-9e0f1f01.jsonl'),
        path.join(h.home, '.gemini/tmp/p/chats/session-2025-10-01T00-00-9e0f1f02.json'),
        path.join(h.home, '.gemini/tmp/p/logs.json'),
        path.join(h.home, '.gemini/tmp/p/.project_root'), // read for the folder of the project's chats
        path.join(h.home, '.gemini/projects.json'), // and so is the registry
        path.join(h.home, '.pi/agent/sessions/--work-acme--/2026-01-01T00-00-00-000Z_p.jsonl'),
        path.join(h.home, '.cursor/projects/w-fifo/agent-transcripts/planted.jsonl'),
        path.join(h.home, '.cursor/projects/w-fifo/.workspace-trusted'), // read for the workspace
        path.join(h.home, 'aider-other/.aider.chat.history.md'),
        path.join(h.home, 'aider-project/.aider.input.history'), // read for the prompts' times
      ].map(mkfifo);
      h.write(
        '.cursor/projects/w-fifo/agent-transcripts/ok/ok.jsonl',
        '{"role":"user","message":{"content":"<user_query>Add validation</user_query>"}}\n',
      );
      h.write(
        'aider-project/.aider.chat.history.md',
        '\n# aider chat started at 2026-01-01 10:00:00\n\n#### Add validation  \n',
      );
      // A harvest that blocked on a FIFO returns only once the unblocker has opened it (and said so).
      const unblocked = path.join(h.home, 'unblocked');
      unblocker = unblockAfter(10_000, fifos, unblocked);

      const summary = await h.run();
      expect(existsSync(unblocked)).toBe(false);

      const helpers = [
        'workspace.json',
        '.project_root',
        'projects.json',
        '.workspace-trusted',
        '.aider.input.history',
      ];
      const transcripts = fifos.filter((f) => !helpers.some((name) => f.endsWith(name)));
      expect(summary.unreadable.map((u) => u.path).sort()).toEqual([...transcripts].sort());
      for (const f of transcripts) {
        expect(h.logger.lines.some((l) => l.startsWith('warn: ') && l.includes(f) && /FIFO/.test(l))).toBe(
          true,
        );
      }
      // The regular transcripts beside them were harvested; a FIFO workspace.json or .workspace-trusted
      // only loses the project, a FIFO input history the prompts' times.
      const stored = h.sessions().map((s) => `${s.source}:${s.cwd}:${s.turns[0]?.ts ?? null}`);
      expect(stored.sort()).toEqual([
        `aider:${path.join(h.home, 'aider-project')}:null`,
        'claude:/work/acme:1763892000000',
        'copilot::1767225600000',
        'cursor-cli::null',
        'gemini::1767225601000',
      ]);
    },
  );

  it('skips a store whose write-ahead log is a FIFO', { timeout: 20_000 }, async () => {
    const h = harvestHome('sos-fifo-wal-');
    home = h.home;
    h.write('.copilot/session-store.db', '');
    const wal = mkfifo(path.join(h.home, '.copilot/session-store.db-wal'));
    const unblocked = path.join(h.home, 'unblocked');
    unblocker = unblockAfter(10_000, [wal], unblocked);
    const summary = await h.run(['copilot-cli']);
    expect(existsSync(unblocked)).toBe(false);
    expect(summary.unreadable).toHaveLength(1);
    expect(summary.unreadable[0]?.error).toContain(`${wal} is a FIFO`);
  });

  it.each([
    ['opencode', '.local/share/opencode/opencode.db'],
    ['goose', '.local/share/goose/sessions/sessions.db'],
    ['cursor-ide', '.config/Cursor/User/globalStorage/state.vscdb'],
  ] as const)(
    'skips a %s store whose write-ahead log is a FIFO',
    { timeout: 20_000 },
    async (source, store) => {
      const h = harvestHome(`sos-fifo-wal-${source}-`);
      home = h.home;
      h.write(store, '');
      const wal = mkfifo(path.join(h.home, `${store}-wal`));
      const unblocked = path.join(h.home, 'unblocked');
      unblocker = unblockAfter(10_000, [wal], unblocked);
      const summary = await h.run([source]);
      expect(existsSync(unblocked)).toBe(false);
      expect(summary.unreadable.map((u) => u.path)).toEqual([path.join(h.home, store)]);
      expect(summary.unreadable[0]?.error).toContain(`${wal} is a FIFO`);
    },
  );
});
