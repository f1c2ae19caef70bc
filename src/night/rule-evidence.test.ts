import { describe, expect, it } from 'vitest';
import { emptyTask } from '../core/task.js';
import { withRules } from '../trainer/learned-block.js';
import { addedLines, ruleEvidence } from './rule-evidence.js';

const SCAFFOLD = '---\nname: learned\ndescription: Rules.\n---\n\n# Learned\n\nIntro text.\n';

describe('the evidence of learned rules', () => {
  it("lists only the rules a night adds: not a new file's scaffold, not rules already there", () => {
    const one = withRules(SCAFFOLD, ['this repo is pnpm only']);
    expect(addedLines(null, one)).toEqual(['this repo is pnpm only']);
    const two = withRules(SCAFFOLD, ['this repo is pnpm only', 'run vitest with --run']);
    expect(addedLines(one, two)).toEqual(['run vitest with --run']);
    // A document edited outside a block: its new lines, frontmatter and headings left out.
    expect(
      addedLines('---\nalwaysApply: true\n---\n- a\n', '---\nalwaysApply: true\n---\n# H\n- a\n- b\n'),
    ).toEqual(['b']);
  });

  it('names each rule with its lessons and their evidence, and the checks it states', () => {
    const proposed = withRules(SCAFFOLD, ['When the task is "deps": this repo is pnpm only.']);
    const task = emptyTask({
      id: 't',
      intent: 'add zod',
      reference_kind: 'rule',
      judge: { kind: 'rule', checks: [{ op: 'runs', arg: 'pnpm', because: 'this repo is pnpm only' }] },
    });
    const file = ruleEvidence(
      '/p',
      [
        {
          kind: 'skill',
          livePath: '/p/.claude/skills/learned/SKILL.md',
          baseText: null,
          proposedText: proposed,
        },
      ],
      [task],
      [
        {
          id: 'lesson_1',
          rule: 'this repo is pnpm only',
          project: '/p',
          kind: 'deps',
          support: 2,
          evidence: [
            { session: 'claude:s1', turn: 1, sentence: 'no, this repo is pnpm only', signals: ['check'] },
          ],
          checks: [{ op: 'runs', arg: 'pnpm' }],
          criterion: null,
          origin: 'structure',
        },
      ],
    );
    expect(file?.rules).toEqual([
      {
        n: 1,
        target: '.claude/skills/learned/SKILL.md',
        line: 'When the task is "deps": this repo is pnpm only.',
        checks: [{ op: 'runs', arg: 'pnpm' }],
        lessons: [
          {
            id: 'lesson_1',
            rule: 'this repo is pnpm only',
            project: '/p',
            checks: [{ op: 'runs', arg: 'pnpm' }],
            evidence: [{ session: 'claude:s1', turn: 1, sentence: 'no, this repo is pnpm only' }],
          },
        ],
      },
    ]);
  });
});
