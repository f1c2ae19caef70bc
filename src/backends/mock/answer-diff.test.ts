import { describe, expect, it } from 'vitest';
import { answerDiffProposals, diffRules } from './answer-diff.js';
import { applyGrammarRules, formatRule } from './rule-grammar.js';

describe('the mock optimizer reading a failed answer', () => {
  it('turns replaced words into use-instead rules and extra words into never rules', () => {
    const rules = diffRules('basically run npm install', 'run pnpm install');
    expect(rules.map(formatRule)).toEqual(['Never include "basically".', 'Use "pnpm" instead of "npm".']);
    // Following those rules really fixes the answer.
    expect(
      applyGrammarRules('basically run npm install', rules, { intent: '', tags: [], reference: '' }).trim(),
    ).toBe('run pnpm install');
  });

  it('ignores articles and punctuation, and gives no rule for a missing word', () => {
    expect(diffRules('The main branch.', 'main branch')).toEqual([]);
    expect(diffRules('branch', 'main branch')).toEqual([]);
  });

  it('ranks rules by how many failed tasks support them', () => {
    const ranked = answerDiffProposals([
      { taskId: 'a', response: 'master', reference: 'main' },
      { taskId: 'b', response: 'npm test', reference: 'pnpm test' },
      { taskId: 'c', response: 'into master', reference: 'into main' },
    ]);
    expect(ranked.map((r) => [r.content, r.support])).toEqual([
      ['Use "main" instead of "master".', ['a', 'c']],
      ['Use "pnpm" instead of "npm".', ['b']],
    ]);
  });
});
