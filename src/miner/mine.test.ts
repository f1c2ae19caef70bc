import { describe, expect, it } from 'vitest';
import type { HarvestedTurn } from '../../harvesters/types.js';
import { sha256Hex } from '../core/hash.js';
import { negativeWordCheck } from '../core/negative-check.js';
import { clusterId, firstAttempt, instanceId, mineSessions } from './mine.js';
import { REPLAY_MARKER } from './types.js';
import type { MinerSession } from './types.js';

const PROJECT = '/home/dev/acme-web';
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);

type Turn = ['user' | 'assistant', string] | HarvestedTurn;

function turns(...specs: Turn[]): HarvestedTurn[] {
  return specs.map((spec, seq) =>
    Array.isArray(spec)
      ? {
          seq,
          role: spec[0],
          text: spec[1],
          ts: null,
          toolNames: [],
          actions: [],
          toolErrors: 0,
          interrupted: false,
          offset: 0,
        }
      : { ...spec, seq },
  );
}

function session(
  key: string,
  day: number,
  list: HarvestedTurn[],
  extra: Partial<MinerSession> = {},
): MinerSession {
  return {
    source: 'claude',
    sessionId: key,
    cwd: PROJECT,
    branch: 'main',
    model: 'claude-sonnet-4-5',
    startedAt: T0 + day * DAY,
    endedAt: T0 + day * DAY + 600_000,
    turns: list,
    toolsUsed: [],
    skillsUsed: [],
    filesTouched: [],
    sourcePath: `/x/${key}.jsonl`,
    sourceVersion: '2.1.0',
    key,
    projectRoot: PROJECT,
    ...extra,
  };
}

const addDependency = (key: string, day: number, pkg: string, correction?: string): MinerSession =>
  session(
    key,
    day,
    turns(
      ['user', `Add \`${pkg}\` to the web app`],
      ['assistant', `I'll add it with npm:\n\nnpm install ${pkg}`],
      ...(correction === undefined
        ? []
        : ([
            ['user', correction],
            ['assistant', `Done: pnpm add ${pkg}`],
            ['user', 'thanks, works now'],
          ] satisfies Turn[])),
    ),
    { toolsUsed: ['Bash', 'Read', 'Edit', 'Grep', 'Write'] },
  );

describe('mineSessions: screening', () => {
  it('counts sessions without a real prompt, with a tiny intent, or started by replays', () => {
    const mined = mineSessions(
      [
        session('meta', 0, turns(['user', '<command-name>/clear</command-name>'], ['assistant', 'ok'])),
        session('empty', 0, turns(['assistant', 'hello'])),
        session('short', 0, turns(['user', 'fix it'], ['assistant', 'ok'])),
        session('replay', 0, turns(['user', `${REPLAY_MARKER}\nAdd \`zod\` to the web app`])),
        session('grader', 0, turns(['user', 'You are a strict grader. Score the answer.'])),
        session('optimizer', 0, turns(['user', 'You are SkillOpt-Sleep, improve this skill.'])),
        // A replay marker in a wrapped first line would otherwise be dropped as meta.
        session('wrapped-replay', 0, turns(['user', `<task>${REPLAY_MARKER}</task>`])),
        addDependency('ok', 1, 'zod'),
      ],
      { project: PROJECT, maxTasks: 10 },
    );
    expect(mined.dropped).toEqual({ meta: 2, short: 1, replay: 4 });
    expect(mined.tasks.map((t) => t.source_sessions)).toEqual([['ok']]);
  });

  it('takes the first real prompt after slash commands and interrupts', () => {
    const mined = mineSessions(
      [
        session(
          's',
          0,
          turns(
            ['user', '/clear'],
            ['user', '[Request interrupted by user]'],
            ['user', 'Explain `src/a.ts`'],
          ),
        ),
      ],
      { project: PROJECT, maxTasks: 10 },
    );
    expect(mined.tasks[0]?.intent).toBe('Explain `src/a.ts`');
  });
});

describe('mineSessions: clusters', () => {
  const sessions = [
    addDependency('dep-1', 0, 'zod'),
    addDependency('dep-3', 2, 'clsx', 'no, use pnpm instead of npm'),
    addDependency('dep-2', 1, 'dayjs'),
    session(
      'once',
      3,
      turns(['user', 'Set up a CI workflow for pull requests'], ['assistant', 'Added ci.yml']),
    ),
  ];

  it('groups intents that normalise to the same text', () => {
    const mined = mineSessions(sessions, { project: PROJECT, maxTasks: 10 });
    expect(mined.clusters.map((c) => [c.normalizedIntent, c.occurrences])).toEqual([
      ['add <code> web app', 3],
      ['set up ci workflow pull requests', 1],
    ]);
  });

  it('gives a stable id, the newest wording, members oldest first and times', () => {
    const [deps] = mineSessions(sessions, { project: PROJECT, maxTasks: 10 }).clusters;
    expect(deps?.id).toBe(`task_${sha256Hex(`${PROJECT}::add <code> web app`).slice(0, 12)}`);
    expect(deps?.id).toBe(clusterId(PROJECT, 'add <code> web app'));
    expect(deps?.intent).toBe('Add `clsx` to the web app');
    expect(deps?.members).toEqual(['dep-1', 'dep-2', 'dep-3']);
    expect(deps?.firstSeen).toBe(T0);
    expect(deps?.lastSeen).toBe(T0 + 2 * DAY + 600_000);
    expect(deps?.outcomes).toEqual({ success: 1, fail: 0, mixed: 0, unknown: 2 });
  });

  it('unions the checks of every member and keeps the correction sentences', () => {
    const [deps] = mineSessions(
      [...sessions, addDependency('dep-4', 4, 'nanoid', 'use pnpm, not npm. never edit `dist/`')],
      { project: PROJECT, maxTasks: 10 },
    ).clusters;
    // "never edit dist/" yields no check: the corrected answer never touched dist/, so the check
    // would pass on it and teach nothing.
    expect(deps?.checks).toEqual([
      { op: 'contains', arg: 'pnpm' },
      { op: 'regex', arg: String.raw`(?i)^(?![\s\S]*\bnpm\b)` },
    ]);
    expect(deps?.corrections).toEqual([
      'no, use pnpm instead of npm',
      'use pnpm, not npm.',
      'never edit `dist/`',
    ]);
  });

  it('ranks by occurrences, then recency, then id, and keeps maxTasks clusters', () => {
    const recentOnce = session(
      'recent',
      9,
      turns(['user', 'Write the release notes for 2.0'], ['assistant', 'ok']),
    );
    const mined = mineSessions([...sessions, recentOnce], { project: PROJECT, maxTasks: 2 });
    expect(mined.clusters.map((c) => c.members)).toEqual([['dep-1', 'dep-2', 'dep-3'], ['recent']]);
    expect(mined.tasks).toHaveLength(4);
    expect(mineSessions(sessions, { project: PROJECT, maxTasks: 0 })).toMatchObject({
      clusters: [],
      tasks: [],
    });
  });

  it('orders equal clusters by id', () => {
    const a = session('a', 0, turns(['user', 'first one-off request here']));
    const b = session('b', 0, turns(['user', 'second one-off request here']));
    const ids = mineSessions([a, b], { project: PROJECT, maxTasks: 5 }).clusters.map((c) => c.id);
    expect(ids).toEqual([...ids].sort());
  });

  it('does not depend on the input order', () => {
    const forward = mineSessions(sessions, { project: PROJECT, maxTasks: 10 });
    const backward = mineSessions([...sessions].reverse(), { project: PROJECT, maxTasks: 10 });
    expect(backward).toEqual(forward);
  });

  it('keeps stop-word-only intents apart', () => {
    const a = session('a', 0, turns(['user', 'can you please']));
    const b = session('b', 0, turns(['user', 'could you please']));
    expect(mineSessions([a, b], { project: PROJECT, maxTasks: 5 }).clusters).toHaveLength(2);
  });
});

describe('mineSessions: tasks', () => {
  it('emits one task per member with the cluster checks as a rule judge', () => {
    const mined = mineSessions(
      [addDependency('dep-1', 0, 'zod'), addDependency('dep-2', 1, 'dayjs', 'use pnpm instead of npm')],
      { project: PROJECT, maxTasks: 10 },
    );
    const cluster = mined.clusters[0];
    expect(cluster).toBeDefined();
    const checks = [
      { op: 'contains', arg: 'pnpm' },
      { op: 'regex', arg: String.raw`(?i)^(?![\s\S]*\bnpm\b)` },
    ];
    expect(mined.tasks).toEqual([
      {
        id: instanceId('dep-1'),
        project: PROJECT,
        intent: 'Add `zod` to the web app',
        context_excerpt: '',
        system: '',
        attempted_solution: "I'll add it with npm:\n\nnpm install zod",
        outcome: 'unknown',
        reference_kind: 'rule',
        reference: '',
        judge: { kind: 'rule', checks },
        tags: [`cluster:${cluster?.id}`, 'tools:Bash+Read+Edit+Grep'],
        source_sessions: ['dep-1'],
        split: 'train',
        origin: 'real',
        derived_from: cluster?.id,
        skill_hint: '',
      },
      {
        id: instanceId('dep-2'),
        project: PROJECT,
        intent: 'Add `dayjs` to the web app',
        // The correction itself is what the skill must learn: never shown to the target.
        context_excerpt: 'Follow-up constraints from the same session:\n- thanks, works now',
        system: '',
        attempted_solution: "I'll add it with npm:\n\nnpm install dayjs",
        outcome: 'success',
        reference_kind: 'rule',
        reference: '',
        judge: { kind: 'rule', checks },
        tags: [`cluster:${cluster?.id}`, 'tools:Bash+Read+Edit+Grep'],
        source_sessions: ['dep-2'],
        split: 'train',
        origin: 'real',
        derived_from: cluster?.id,
        skill_hint: '',
      },
    ]);
  });

  it('does not share the check arrays between tasks', () => {
    const mined = mineSessions(
      [addDependency('a', 0, 'zod', 'use pnpm instead of npm'), addDependency('b', 1, 'clsx')],
      { project: PROJECT, maxTasks: 10 },
    );
    const [first, second] = mined.tasks;
    expect(first?.judge).not.toBe(second?.judge);
  });

  it('uses reference kind none, no tools tag and a single skill hint when they apply', () => {
    const plain = session('p', 0, turns(['user', 'Explain the router setup'], ['assistant', 'It uses...']), {
      skillsUsed: ['router-guide', 'router-guide'],
    });
    const [task] = mineSessions([plain], { project: PROJECT, maxTasks: 10 }).tasks;
    expect(task).toMatchObject({ reference_kind: 'none', judge: {}, skill_hint: 'router-guide' });
    expect(task?.tags).toEqual([`cluster:${clusterId(PROJECT, 'explain router setup')}`]);

    const twoSkills = { ...plain, skillsUsed: ['a', 'b'] };
    expect(mineSessions([twoSkills], { project: PROJECT, maxTasks: 10 }).tasks[0]?.skill_hint).toBe('');
  });

  it('cuts long intents and excerpts like the reference', () => {
    const long = 'Refactor the module '.repeat(60).trim();
    const followUps = ['a'.repeat(300), 'b'.repeat(300), 'c'.repeat(300), 'd'.repeat(300)];
    const s = session('long', 0, turns(['user', long], ...followUps.map((t): Turn => ['user', t])));
    const [task] = mineSessions([s], { project: PROJECT, maxTasks: 10 }).tasks;
    expect(task?.intent).toBe(`${long.slice(0, 800)} …`);
    expect(task?.context_excerpt.length).toBe(600);
    expect(task?.context_excerpt).toMatch(
      /^Follow-up constraints from the same session:\n- a{200}\n- b{200}\n- c+$/,
    );
  });
});

describe('firstAttempt', () => {
  it('joins the assistant text between the first and the second prompt', () => {
    const s = session(
      's',
      0,
      turns(
        ['user', 'Add `zod` to the web app'],
        ['assistant', 'Installing with npm.'],
        ['assistant', ''],
        ['user', ''],
        ['assistant', 'Done: npm install zod'],
        ['user', 'use pnpm instead of npm'],
        ['assistant', 'Done: pnpm add zod'],
      ),
    );
    expect(firstAttempt(s)).toBe('Installing with npm.\nDone: npm install zod');
  });

  it('falls back to the last text before the first correction when the answer was only tool calls', () => {
    const s = session(
      's',
      0,
      turns(
        ['user', 'Add `zod` to the web app'],
        ['assistant', ''],
        ['user', 'go on'],
        ['assistant', 'Ran npm install zod.'],
        ['user', 'no, use pnpm instead of npm'],
        ['assistant', 'Ran pnpm add zod.'],
      ),
    );
    expect(firstAttempt(s)).toBe('Ran npm install zod.');
  });

  it('is empty without a prompt or an answer', () => {
    expect(firstAttempt(session('s', 0, turns(['user', '/clear'])))).toBe('');
    expect(firstAttempt(session('s', 0, turns(['user', 'Add `zod` to the web app'])))).toBe('');
  });
});

describe('mineSessions: meaning-based clusters', () => {
  const ask = (key: string, day: number, intent: string, ...followUps: string[]): MinerSession =>
    session(
      key,
      day,
      // The first answer makes the mistakes the follow-ups correct, so their checks fail on it.
      turns(
        ['user', intent],
        ['assistant', 'Done: ran npm install and rebuilt dist/index.js.'],
        ...followUps.map((text): Turn => ['user', text]),
      ),
    );

  const paraphrases = [
    ask('p-1', 0, 'Add `zod` as a dependency'),
    ask('p-2', 1, 'please install the `dayjs` package', 'use pnpm instead of npm'),
    ask('p-3', 2, 'we need `ky` as a dependency, add it'),
    ask('r-1', 1, 'Remove `zod` from the app'),
    ask('r-2', 3, 'uninstall the `dayjs` package'),
  ];

  it('joins paraphrases of one task and keeps the opposite task apart', () => {
    const mined = mineSessions(paraphrases, { project: PROJECT, maxTasks: 10 });
    expect(mined.clusters.map((c) => c.members)).toEqual([
      ['p-1', 'p-2', 'p-3'],
      ['r-1', 'r-2'],
    ]);
    expect(mined.tasks.map((t) => t.derived_from)).toEqual([
      ...Array<string | undefined>(3).fill(mined.clusters[0]?.id),
      ...Array<string | undefined>(2).fill(mined.clusters[1]?.id),
    ]);
  });

  it('takes the id and normal form from the earliest member and the wording from the newest', () => {
    const [deps] = mineSessions(paraphrases, { project: PROJECT, maxTasks: 10 }).clusters;
    expect(deps?.normalizedIntent).toBe('add <code> as dependency');
    expect(deps?.id).toBe(clusterId(PROJECT, 'add <code> as dependency'));
    expect(deps?.intent).toBe('we need `ky` as a dependency, add it');
  });

  it('keeps the id of a recurring task as newer sessions are added', () => {
    const before = mineSessions(paraphrases, { project: PROJECT, maxTasks: 10 }).clusters;
    const later = [
      ...paraphrases,
      ask('p-4', 5, 'install `nanoid` as a dependency'),
      ask('r-3', 6, 'drop the `ky` dependency'),
      ask('o-1', 7, 'Explain the router setup'),
    ];
    const after = mineSessions(later, { project: PROJECT, maxTasks: 10 }).clusters;
    for (const cluster of before) {
      const same = after.find((c) => c.members.includes(cluster.members[0] ?? ''));
      expect(same?.id).toBe(cluster.id);
      expect(same?.members.slice(0, cluster.members.length)).toEqual(cluster.members);
    }
    expect(after.map((c) => c.occurrences)).toEqual([4, 3, 1]);
  });

  it('remembers the session and sentence of every check', () => {
    const mined = mineSessions(
      [
        ...paraphrases,
        ask(
          'p-5',
          4,
          'add `clsx` as a dependency',
          'Looks fine. Never edit `dist/` though.',
          'no, use pnpm, not npm',
        ),
      ],
      { project: PROJECT, maxTasks: 10 },
    );
    const deps = mined.clusters.find((c) => c.members.includes('p-1'));
    expect(deps?.checkSources).toEqual([
      { check: { op: 'contains', arg: 'pnpm' }, sessionKey: 'p-2', sentence: 'use pnpm instead of npm' },
      { check: negativeWordCheck('npm'), sessionKey: 'p-2', sentence: 'use pnpm instead of npm' },
      { check: negativeWordCheck('dist/'), sessionKey: 'p-5', sentence: 'Never edit `dist/` though.' },
      { check: { op: 'contains', arg: 'pnpm' }, sessionKey: 'p-5', sentence: 'no, use pnpm, not npm' },
      { check: negativeWordCheck('npm'), sessionKey: 'p-5', sentence: 'no, use pnpm, not npm' },
    ]);
    expect(deps?.checks).toEqual([
      { op: 'contains', arg: 'pnpm' },
      negativeWordCheck('npm'),
      negativeWordCheck('dist/'),
    ]);
    const removals = mined.clusters.find((c) => c.members.includes('r-1'));
    expect(removals?.checkSources).toEqual([]);
  });
});

describe('mineSessions: correction patterns from config', () => {
  it('reads extra phrases into checks, kept only when the first answer fails them', async () => {
    const { compileUserPatterns } = await import('./correction-patterns.js');
    const patterns = compileUserPatterns([
      { name: 'ticket', regex: 'mention the ticket (\\w+-\\d+)', checks: [{ op: 'contains', arg: '$1' }] },
    ]);
    const s = (key: string, answer: string) =>
      session(
        key,
        0,
        turns(
          ['user', 'write the release notes'],
          ['assistant', answer],
          ['user', 'mention the ticket WEB-42'],
        ),
      );
    const mined = mineSessions([s('a', 'Release notes: fixes.'), s('b', 'Release notes for WEB-42.')], {
      project: PROJECT,
      maxTasks: 5,
      correctionPatterns: patterns,
    });
    expect(mined.clusters[0]?.checks).toEqual([{ op: 'contains', arg: 'WEB-42' }]);
    expect(mined.clusters[0]?.checkSources.map((c) => c.sessionKey)).toEqual(['a']);
  });
});
