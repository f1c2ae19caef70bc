import { describe, expect, it } from 'vitest';
import { ruleChecks } from '../../core/task.js';
import { mineSessions } from '../mine.js';
import { edit, run, session, write } from '../test-helpers.js';

const addDependency = (
  key: string,
  minute: number,
  pkg: string,
  correction: string,
  opts: { partition?: string; cwd?: string } = {},
) =>
  session(
    [
      {
        prompt: `add ${pkg} to the web app`,
        reply: `Installed ${pkg}.`,
        actions: [run(`npm install ${pkg}`)],
      },
      {
        prompt: correction,
        reply: 'Redone with pnpm.',
        actions: [run('rm -f package-lock.json'), run(`pnpm add ${pkg}`)],
      },
    ],
    { key, minute, ...opts },
  );

const plainDependency = (key: string, minute: number, pkg: string) =>
  session(
    [
      {
        prompt: `add ${pkg} to the web app`,
        reply: `Installed ${pkg}.`,
        actions: [run(`npm install ${pkg}`)],
      },
    ],
    { key, minute },
  );

describe('lessons', () => {
  it('makes one lesson of a rule the agent recorded and then rewrote as the user refined it (Chinese)', () => {
    const memory = '/home/u/.claude/projects/-work-app/memory/MEMORY.md';
    const exchanges = (second: { removed: string; added: string }) => [
      { prompt: '修复首页顶部导航的间距', reply: '已修复。', actions: [edit('src/Nav.tsx', 'a', 'b')] },
      {
        prompt: '以后你创建的技能都放在我自己的技能目录,自动生成的放在子目录',
        reply: '已记录。',
        actions: [write(memory, '## 技能\n- 创建的技能放在用户的技能目录,自动生成的放在子目录')],
      },
      { prompt: '把页脚字体调大一点', reply: '已调整。', actions: [edit('src/Footer.tsx', 'a', 'b')] },
      {
        prompt: '不要子目录了,我要求创建的技能加上前缀,自动生成的不用管',
        reply: '已更新记录。',
        actions: [edit(memory, second.removed, second.added)],
      },
    ];
    const line = '- 创建的技能放在用户的技能目录,自动生成的放在子目录';
    const refined = mineSessions(
      [
        session(exchanges({ removed: line, added: '- 要求创建的技能加前缀,自动生成的技能不用管' }), {
          key: 'claude:r',
          minute: 1,
        }),
      ],
      { project: '/work/app', maxTasks: 10 },
    );
    expect(refined.lessons).toHaveLength(1);
    expect(refined.lessons[0]?.evidence.map((e) => e.turn)).toEqual([1, 3]);
    const appended = mineSessions(
      [
        session(exchanges({ removed: line, added: `${line}\n- 要求创建的技能加前缀,自动生成的技能不用管` }), {
          key: 'claude:s',
          minute: 1,
        }),
      ],
      { project: '/work/app', maxTasks: 10 },
    );
    expect(appended.lessons.map((l) => l.evidence.map((e) => e.turn))).toEqual(
      expect.arrayContaining([[1], [3]]),
    );
  });

  it('consolidates one lesson said three ways into one, with its support and all its evidence', () => {
    const mined = mineSessions(
      [
        addDependency('claude:a', 1, 'zod', 'wrong package manager: it has to be pnpm'),
        addDependency('claude:b', 2, 'dayjs', 'No, use pnpm not npm'),
        addDependency('claude:c', 3, 'pino', 'why npm? this repo is pnpm only'),
        plainDependency('claude:d', 4, 'msw'),
      ],
      { project: '/work/app', maxTasks: 10 },
    );
    expect(mined.lessons).toHaveLength(1);
    const [lesson] = mined.lessons;
    expect(lesson).toMatchObject({
      // The sentence that says most of what the others say, a statement rather than a question.
      rule: 'No, use pnpm not npm',
      support: 3,
      project: '/work/app',
      origin: 'structure',
      criterion: null,
    });
    expect(lesson?.evidence.map((e) => [e.session, e.turn])).toEqual([
      ['claude:a', 1],
      ['claude:b', 1],
      ['claude:c', 1],
    ]);
    expect(lesson?.checks.map((c) => [c.op, c.arg])).toEqual([
      ['runs', 'pnpm'],
      ['not_runs', 'npm'],
    ]);
    // Consolidated: it judges every session of the kind, the one the user never corrected too.
    const uncorrected = mined.tasks.find((t) => t.source_sessions[0] === 'claude:d');
    expect(uncorrected === undefined ? [] : ruleChecks(uncorrected).map((c) => c.arg)).toContain('pnpm');
  });

  it('never joins the lessons of two projects', () => {
    const mined = mineSessions(
      [
        addDependency('claude:a', 1, 'zod', 'No, use `pnpm` not npm', {
          partition: '/work/one',
          cwd: '/work/one',
        }),
        addDependency('claude:b', 2, 'dayjs', 'No, use `pnpm` not npm', {
          partition: '/work/two',
          cwd: '/work/two',
        }),
      ],
      { project: '/', maxTasks: 10 },
    );
    expect(mined.lessons.map((l) => l.project).sort()).toEqual(['/work/one', '/work/two']);
    expect(mined.lessons.every((l) => new Set(l.evidence.map((e) => e.session)).size === 1)).toBe(true);
  });

  it('applies a lesson said once only to its own task, as a criterion in the user words', () => {
    const recorded = session(
      [
        {
          prompt: 'write the release notes',
          reply: 'Done.',
          actions: [write('/work/app/NOTES.md', '# Notes')],
        },
        {
          prompt: 'from now on keep release notes under ten lines',
          reply: 'Noted in CLAUDE.md.',
          actions: [write('/work/app/CLAUDE.md', '- keep release notes under ten lines')],
        },
      ],
      { key: 'claude:r1', minute: 1 },
    );
    const other = session(
      [
        {
          prompt: 'write the release notes',
          reply: 'Done.',
          actions: [write('/work/app/NOTES.md', '# Notes')],
        },
      ],
      { key: 'claude:r2', minute: 2 },
    );
    const mined = mineSessions([recorded, other], { project: '/work/app', maxTasks: 10 });
    expect(mined.lessons).toHaveLength(1);
    expect(mined.lessons[0]).toMatchObject({
      criterion: 'from now on keep release notes under ten lines',
      support: 1,
    });
    const byKey = new Map(mined.tasks.map((t) => [t.source_sessions[0], t]));
    expect(byKey.get('claude:r1')).toMatchObject({ reference_kind: 'rubric' });
    expect(byKey.get('claude:r2')).toMatchObject({ reference_kind: 'none', reference: '' });
  });

  it('retires a lesson the user contradicted later', () => {
    const toYarn = (key: string, minute: number, pkg: string) =>
      session(
        [
          { prompt: `add ${pkg} to the web app`, reply: 'Installed.', actions: [run(`pnpm add ${pkg}`)] },
          {
            prompt: 'No, use `yarn` not `pnpm` now, we moved',
            reply: 'Redone with yarn.',
            actions: [run(`pnpm remove ${pkg}`), run(`yarn add ${pkg}`)],
          },
        ],
        { key, minute },
      );
    const mined = mineSessions(
      [
        addDependency('claude:a', 1, 'zod', 'No, use `pnpm` not npm'),
        addDependency('claude:b', 2, 'dayjs', 'No, use `pnpm` not npm'),
        toYarn('claude:c', 10, 'pino'),
        toYarn('claude:d', 11, 'msw'),
      ],
      { project: '/work/app', maxTasks: 10 },
    );
    const pnpm = mined.lessons.find((l) => l.rule.includes('use `pnpm`'));
    const yarn = mined.lessons.find((l) => l.rule.includes('yarn'));
    expect(yarn?.retired_by).toBeUndefined();
    expect(pnpm?.retired_by).toBe(yarn?.id);
    // A retired lesson judges nothing.
    const task = mined.tasks.find((t) => t.source_sessions[0] === 'claude:a');
    expect(task === undefined ? [] : ruleChecks(task).map((c) => String(c.arg))).not.toContain('pnpm');
  });
});
