import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../core/hash.js';
import { ruleChecks } from '../core/task.js';
import { compileUserPatterns } from './correction-user-patterns.js';
import { clusterId, instanceId, mineSessions } from './mine.js';
import { edit, read, run, session, write, type Exchange } from './test-helpers.js';
import { REPLAY_MARKER } from '../core/machine-sessions.js';

const PROJECT = '/work/app';

const addDependency = (key: string, minute: number, request: string, pkg: string, correction?: string) =>
  session(
    [
      {
        prompt: request,
        reply: `Installed ${pkg}.`,
        actions: [read('/work/app/package.json'), run(`npm install ${pkg}`)],
      },
      ...(correction === undefined
        ? []
        : [
            {
              prompt: correction,
              reply: 'Redone with pnpm.',
              actions: [run('rm -f package-lock.json'), run(`pnpm add ${pkg}`)],
            },
            { prompt: 'thanks, works now', reply: 'Glad to help.' },
          ]),
    ],
    { key, minute },
  );

const migration = (
  key: string,
  minute: number,
  request: string,
  column: string,
): ReturnType<typeof session> =>
  session(
    [
      {
        prompt: request,
        actions: [
          run('ls migrations'),
          write(`/work/app/migrations/0${minute}_add_${column}.py`, `op.add_column("${column}")`),
        ],
      },
    ],
    {
      key,
      minute,
    },
  );

const night = [
  addDependency('claude:d1', 1, 'add zod to the web app', 'zod', 'wrong package manager: it has to be pnpm'),
  addDependency('claude:d2', 2, 'we need dayjs, install it please', 'dayjs', 'No, use pnpm not npm'),
  addDependency(
    'claude:d3',
    3,
    'pino is missing from the deps, add it',
    'pino',
    'why npm? this repo is pnpm only',
  ),
  addDependency('claude:d4', 4, 'add msw as a dependency', 'msw'),
  migration('claude:m1', 5, 'create a migration that adds due_date', 'due_date'),
  migration('claude:m2', 6, 'migration please: invoices.vat_id', 'vat_id'),
  migration('claude:m3', 7, 'we need a paused_at column, write the migration', 'paused_at'),
  session([{ prompt: 'explain how the JS event loop works', reply: 'It runs tasks.' }], {
    key: 'claude:q1',
    minute: 8,
  }),
];

describe('mineSessions', () => {
  const mined = mineSessions(night, { project: PROJECT, maxTasks: 10 });
  const deps = mined.clusters.find((c) => c.members.includes('claude:d1'));

  it('groups sessions by kind, whatever the wording and the package, and ranks the most recurrent first', () => {
    expect(mined.clusters.map((c) => c.members)).toEqual([
      ['claude:d1', 'claude:d2', 'claude:d3', 'claude:d4'],
      ['claude:m1', 'claude:m2', 'claude:m3'],
      ['claude:q1'],
    ]);
  });

  it('reads the rule from what the corrections changed, worded three ways, and learns it once', () => {
    expect(deps?.checks).toEqual([
      { op: 'runs', arg: 'pnpm' },
      { op: 'not_runs', arg: 'npm' },
    ]);
    expect(deps?.checkSources.map((s) => s.sessionKey)).toEqual(['claude:d1', 'claude:d2']);
    expect(deps?.correctionReports.map((r) => [r.sessionKey, r.result])).toEqual([
      ['claude:d1', 'checks'],
      ['claude:d2', 'checks'],
      ['claude:d3', 'checks'],
    ]);
    // Migrations had no corrections: no checks were invented for them.
    expect(mined.clusters[1]?.checks).toEqual([]);
  });

  it('names each kind by its own words', () => {
    expect(mined.clusters[1]?.label).toContain('migration');
    expect(new Set(mined.clusters.map((c) => c.label)).size).toBe(mined.clusters.length);
  });

  it('gives a stable id from the earliest member, the newest wording, members oldest first and times', () => {
    expect(deps?.id).toBe(clusterId(PROJECT, 'add zod web app'));
    expect(deps?.id).toBe(`task_${sha256Hex(`${PROJECT}::add zod web app`).slice(0, 12)}`);
    expect(deps?.intent).toBe('add msw as a dependency');
    expect(deps?.firstSeen).toBe(night[0]?.startedAt);
    expect(deps?.lastSeen).toBe(night[3]?.endedAt);
  });

  it('emits one task per session: the first attempt with its commands, the accepted answer, the kind tag', () => {
    const task = mined.tasks.find((t) => t.source_sessions[0] === 'claude:d2');
    expect(task).toMatchObject({
      id: instanceId('claude:d2'),
      intent: 'we need dayjs, install it please',
      attempted_solution: 'Installed dayjs.\n$ npm install dayjs',
      reference_kind: 'rule',
      reference: 'Redone with pnpm.\n$ rm -f package-lock.json\n$ pnpm add dayjs',
      derived_from: deps?.id,
    });
    expect(task?.tags).toContain(`kind:${deps?.label ?? ''}`);
    const checks = ruleChecks(task ?? mined.tasks[0]!);
    expect(checks.map(({ op, arg }) => ({ op, arg }))).toEqual(deps?.checks);
    // Each check carries the rule of the lesson it belongs to: the user's sentence that says most of
    // what the others say.
    expect(checks.map((c) => c.because)).toEqual(['No, use pnpm not npm', 'No, use pnpm not npm']);
    // The follow-ups are what the skill must make unnecessary: never shown to the target with the task.
    expect(task?.context_excerpt).toBe('');
    const undecided = mined.tasks.find((t) => t.source_sessions[0] === 'claude:m1');
    expect(undecided).toMatchObject({ reference_kind: 'none', reference: '', judge: {} });
  });

  it('does not depend on the order of its input', () => {
    const reversed = mineSessions([...night].reverse(), { project: PROJECT, maxTasks: 10 });
    expect(reversed.clusters).toEqual(mined.clusters);
  });

  it('keeps maxTasks kinds', () => {
    expect(mineSessions(night, { project: PROJECT, maxTasks: 1 }).clusters).toHaveLength(1);
  });
});

describe('mineSessions: screening', () => {
  it('drops our replays, prompt-less sessions and sessions that asked for nothing', () => {
    const mined = mineSessions(
      [
        session([{ prompt: `${REPLAY_MARKER} replay this`, reply: 'x' }]),
        session([{ prompt: '<command-name>/clear</command-name>' }]),
        session([{ prompt: 'hi', reply: 'Hello! How can I help?' }]),
        session([{ prompt: 'fix it', reply: 'ok', actions: [edit('/work/app/a.ts', 'a', 'b')] }]),
      ],
      { project: PROJECT, maxTasks: 5 },
    );
    expect(mined.dropped).toEqual({ meta: 1, no_request: 1, short: 1, replay: 1 });
  });

  it('skips a preamble the user types at the start of every session', () => {
    const withPreamble = (request: string, file: string): ReturnType<typeof session> =>
      session([
        { prompt: 'load claude.md', reply: 'Loaded.', actions: [read('/work/app/CLAUDE.md')] },
        { prompt: request, actions: [edit(`/work/app/${file}`, 'a', 'b'), run('make build')] },
      ]);
    const mined = mineSessions(
      [
        withPreamble('fix the build on arm64', 'a.c'),
        withPreamble('rename the flag --x to --y', 'b.c'),
        withPreamble('speed up the parser', 'c.c'),
      ],
      { project: PROJECT, maxTasks: 5 },
    );
    expect(mined.tasks.map((t) => t.intent).sort()).toEqual([
      'fix the build on arm64',
      'rename the flag --x to --y',
      'speed up the parser',
    ]);
  });
});

describe('mineSessions: projects and history', () => {
  it('never groups sessions of two repositories', () => {
    const a = night.slice(0, 4).map((s, i) => ({ ...s, key: `claude:a${i}`, partition: '/work/a' }));
    const b = night.slice(0, 4).map((s, i) => ({ ...s, key: `claude:b${i}`, partition: '/work/b' }));
    const mined = mineSessions([...a, ...b], { project: '/work', maxTasks: 10 });
    for (const cluster of mined.clusters) {
      expect(new Set(cluster.members.map((key) => key.slice(0, 8))).size).toBe(1);
    }
  });

  it('keeps the id of a kind as newer sessions are added', () => {
    const before = mineSessions(night.slice(0, 3), { project: PROJECT, maxTasks: 5 });
    const after = mineSessions(night, { project: PROJECT, maxTasks: 5 });
    expect(after.clusters[0]?.id).toBe(before.clusters[0]?.id);
  });
});

describe('mineSessions: correction patterns from config', () => {
  it('reads extra phrases into checks, kept only when the first answer fails them', () => {
    const patterns = compileUserPatterns([
      { name: 'ticket', regex: 'mention the ticket (\\w+-\\d+)', checks: [{ op: 'contains', arg: '$1' }] },
    ]);
    const notes = (key: string, answer: string) =>
      session(
        [
          {
            prompt: 'write the release notes',
            reply: answer,
            actions: [write('/work/app/NOTES.md', answer)],
          },
          { prompt: 'mention the ticket WEB-42', reply: 'done' },
        ] satisfies Exchange[],
        { key },
      );
    const mined = mineSessions(
      [notes('claude:r1', 'Release notes: fixes.'), notes('claude:r2', 'Release notes for WEB-42.')],
      {
        project: PROJECT,
        maxTasks: 5,
        correctionPatterns: patterns,
      },
    );
    expect(mined.clusters[0]?.checks).toEqual([{ op: 'contains', arg: 'WEB-42' }]);
    expect(mined.clusters[0]?.checkSources.map((c) => c.sessionKey)).toEqual(['claude:r1']);
  });
});
