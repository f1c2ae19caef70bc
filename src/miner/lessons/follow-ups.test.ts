import { describe, expect, it } from 'vitest';
import type { ToolAction } from '../../core/session.js';
import type { Episode } from '../episodes.js';
import { edit, read, run, write } from '../test-helpers.js';
import { classifyPrompts, isNudge, type CorpusSignals } from './follow-ups.js';

const ep = (prompt: string, actions: ToolAction[] = [], text = 'Done.'): Episode => ({
  turnIndex: 0,
  prompt,
  text,
  actions,
});

const corpus = (over: Partial<CorpusSignals> = {}): CorpusSignals => ({
  ordinaryWord: (word) => ['never', 'must', 'only', 'никогда'].includes(word),
  common: new Set(['the', 'and', 'please']),
  ...over,
});

const classes = (episodes: Episode[], c: CorpusSignals = corpus()) =>
  classifyPrompts(episodes, 0, [], c).map((p) => [p.class, p.signals]);

describe('classifyPrompts', () => {
  it('takes a preference the agent wrote into its own instructions (Chinese)', () => {
    const episodes = [
      ep('修复登录页的按钮样式', [edit('src/Login.tsx', 'a', 'b')]),
      ep('以后提交信息都要简洁,不要加任何署名', [
        write('/home/u/.claude/CLAUDE.md', '## 提交信息\n- 提交信息要简洁,不要加署名'),
      ]),
    ];
    expect(classes(episodes)[1]).toEqual(['preference', ['recorded']]);
  });

  it('counts the statement just before the recording as said first', () => {
    const episodes = [
      ep('重构用户列表', [edit('src/List.tsx', 'a', 'b')]),
      ep('大量调用工具之前需要先经过我同意', [], '好的,我明白了。'),
      ep('把这条写进规则:大量调用工具之前需要先经过我同意', [
        edit('/p/CLAUDE.md', '', '- 大量调用工具之前需要先经过我同意'),
      ]),
    ];
    const classified = classifyPrompts(episodes, 0, [], corpus());
    expect(classified[2]).toMatchObject({ class: 'preference', alsoSaidAt: [1] });
  });

  it('takes a statement the agent recorded two replies later, after the user picked how (Chinese)', () => {
    const episodes = [
      ep('修复列表页的分页', [edit('src/List.tsx', 'a', 'b')]),
      ep(
        '以后每次改代码之前先列出计划,我同意后再执行',
        [],
        '有两种方式:方案一写入全局规则,方案二写进项目规则。',
      ),
      ep('方案一', [run('ls ~/.claude')], '好的,先检查。'),
      ep('同意', [write('/home/u/.claude/CLAUDE.md', '## 规则\n- 改代码之前先列出计划,用户同意后再执行')]),
    ];
    const classified = classifyPrompts(episodes, 0, [], corpus());
    expect(classified[1]).toMatchObject({ class: 'preference', signals: ['recorded'] });
    expect(classified[2]?.class).toBe('nudge');
  });

  it('leaves a later recording to the prompt whose words it holds (Russian)', () => {
    const episodes = [
      ep('добавь кнопку экспорта', [edit('a.ts', 'x', 'y')]),
      ep('перенеси экспорт в отдельный модуль отчётов', [edit('b.ts', 'x', 'y')]),
      ep('запомни: всегда пиши сообщения коммитов на русском языке', [
        write('/home/u/.claude/CLAUDE.md', '- сообщения коммитов всегда на русском языке'),
      ]),
    ];
    const classified = classifyPrompts(episodes, 0, [], corpus());
    expect(classified[1]?.class).toBe('request');
    expect(classified[2]).toMatchObject({ class: 'preference', signals: ['recorded'] });
  });

  it('takes a reply that opens the agent memory or settings as about to record; a project doc read is not', () => {
    const memory = [
      ep('fix the header spacing', [edit('src/Header.tsx', 'a', 'b')]),
      ep('from now on keep every skill you create in my home folder, not in the repo', [
        run('ls ~/.claude/skills'),
        read('/home/u/.claude/projects/-home-u-app/memory/MEMORY.md'),
      ]),
    ];
    expect(classes(memory)[1]).toEqual(['preference', ['recording']]);
    const settings = [
      ep('修复登录页', [edit('src/Login.tsx', 'a', 'b')]),
      ep('增加设置:调用大量工具之前先询问我', [{ ...read('**/.claude/settings*.json'), kind: 'search' }]),
    ];
    expect(classes(settings)[1]).toEqual(['preference', ['recording']]);
    const projectDoc = [
      ep('fix the header spacing', [edit('src/Header.tsx', 'a', 'b')]),
      ep('now add a footer with the company address', [
        run('cat CLAUDE.md'),
        edit('src/Footer.tsx', '', 'x'),
      ]),
    ];
    expect(classes(projectDoc)[1]?.[0]).toBe('request');
  });

  it('traces a rewrite of a recorded rule back to the first recording; an appended rule is its own', () => {
    const memory = '/home/u/.claude/projects/-home-u-app/memory/MEMORY.md';
    const refined = [
      ep('fix the header spacing', [edit('src/Header.tsx', 'a', 'b')]),
      ep('keep the skills you create in my own skills folder', [
        write(memory, '## Skills\n- keep created skills in the own skills folder, auto ones in a subfolder'),
      ]),
      ep('now bump the footer font', [edit('src/Footer.tsx', 'a', 'b')]),
      ep('no subfolder: prefix the skills I asked for with custom, leave the auto ones', [
        edit(
          memory,
          '- keep created skills in the own skills folder, auto ones in a subfolder',
          '- keep created skills in the own skills folder, prefix asked ones with custom, leave auto ones',
        ),
      ]),
    ];
    const classified = classifyPrompts(refined, 0, [], corpus());
    expect(classified[1]).toMatchObject({ class: 'preference', recordedAt: 1 });
    expect(classified[3]).toMatchObject({ class: 'preference', recordedAt: 1 });
    const appended = [
      ...refined.slice(0, 3),
      ep('also: never commit generated files, leave them out of commits', [
        edit(
          memory,
          '- keep created skills in the own skills folder, auto ones in a subfolder',
          '- keep created skills in the own skills folder, auto ones in a subfolder\n- never commit generated files',
        ),
      ]),
    ];
    expect(classifyPrompts(appended, 0, [], corpus())[3]).toMatchObject({
      class: 'preference',
      recordedAt: 3,
    });
  });

  it('reads a shouted ordinary word as a correction, an acronym as nothing (English and Russian)', () => {
    const english = [
      ep('add the export button', [edit('a.ts', 'x', 'y')]),
      ep('you must NEVER push to main yourself'),
    ];
    expect(classes(english)[1]).toEqual(['correction', ['shouted']]);
    const acronym = [
      ep('add the export button', [edit('a.ts', 'x', 'y')]),
      ep('also expose it in the REST API docs'),
    ];
    expect(classes(acronym)[1]?.[0]).toBe('request');
    const russian = [
      ep('добавь кнопку', [edit('a.ts', 'x', 'y')]),
      ep('НИКОГДА не удаляй мои файлы без спроса'),
    ];
    expect(classes(russian)[1]).toEqual(['correction', ['shouted']]);
  });

  it('takes a named step the agent then stopped as a correction, and new work after it as a request', () => {
    const stopped = [
      ep('set up the feature branches', [run('git checkout -b 001-geo')]),
      ep('ask me when you need to checkout, I will do it myself', [], 'Understood, I will ask.'),
    ];
    expect(classes(stopped)[1]).toEqual(['correction', ['stopped']]);
    const newWork = [
      ep('install orjson', [run('uv add orjson')]),
      ep('also add a short note about it to the README', [edit('README.md', '', 'orjson')]),
    ];
    expect(classes(newWork)[1]?.[0]).toBe('request');
  });

  it('never takes a nudge, a question or a pasted log for a lesson', () => {
    const episodes = [
      ep('重构这段逻辑', [edit('a.ts', 'x', 'y')]),
      ep('同意', [edit('a.ts', 'y', 'z')]),
      ep('这个变量是否可以直接去掉？'),
      ep(`Error: boom\n${'    at frame (x.js:1:1)\n'.repeat(10)}`),
    ];
    expect(classes(episodes).map((c) => c[0])).toEqual(['request', 'nudge', 'question', 'report']);
  });

  it('takes two words or fewer for a nudge, in any script', () => {
    expect(isNudge('好的')).toBe(true);
    expect(isNudge('make em')).toBe(true);
    expect(isNudge('use pnpm instead of npm')).toBe(false);
  });

  it('keeps the request a request, even in capitals: a spec states the task', () => {
    expect(classes([ep('Build the export page. It MUST ONLY show paid invoices.')])[0]?.[0]).toBe('request');
  });
});
