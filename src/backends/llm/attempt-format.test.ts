// The attempt prompt asks the target, which has no tools, to state its actions in the format recorded
// answers are rendered in, so the action checks read a replay's answer as they read the session's.
import { describe, expect, it } from 'vitest';
import { emptyTask } from '../../core/task.js';
import { answerActions } from '../../replay/judges/answer-actions.js';
import { evaluateCheck } from '../../replay/judges/rule-checks.js';
import { attemptVars } from './llm-backend.js';
import { renderPrompt } from './prompts.js';

describe('the attempt prompt', () => {
  const prompt = renderPrompt(
    'attempt',
    attemptVars({ task: emptyTask({ id: 't', intent: 'fix the type' }), skill: '', memory: '' }),
  );

  it('names the three action lines the checks read', () => {
    for (const line of ['$ <command>', '--- <path>', 'rm <path>']) expect(prompt.system).toContain(line);
  });

  it('an answer written as it asks is read back as actions', () => {
    const answer = [
      "dist/ is build output, so I didn't edit it; the type lives in the source.",
      '$ pnpm --filter @shop/shared build',
      '--- packages/shared/src/types.ts',
      'export interface Profile {',
      '  discountCents?: number;',
      '}',
      'rm packages/shared/src/old-types.ts',
      '$ npx vitest run',
    ].join('\n');
    expect(answerActions(answer).map((a) => [a.kind, a.target])).toEqual([
      ['run', 'pnpm --filter @shop/shared build'],
      ['write', 'packages/shared/src/types.ts'],
      ['delete', 'packages/shared/src/old-types.ts'],
      ['run', 'npx vitest run'],
    ]);
    const passes = (op: string, arg: string, anyOf?: string[]): boolean =>
      evaluateCheck({ op, arg, ...(anyOf ? { any_of: anyOf } : {}) }, answer, []).pass;
    expect(passes('not_edits', 'dist/')).toBe(true);
    expect(passes('runs', 'vitest --run', ['vitest run'])).toBe(true);
    expect(passes('writes', 'discountCents')).toBe(true);
  });
});
