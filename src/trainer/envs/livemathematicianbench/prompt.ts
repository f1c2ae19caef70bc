/** The LiveMathematicianBench target's system prompt, user turn and initial skill. */
import { skillSection } from '../shared/answer-tags.js';
import type { Choice } from './choices.js';

export const INITIAL_SKILL = `# Mathematical Multiple-Choice Skill

## Compare every option
- Read all options before choosing: the right one is usually the strongest statement the question justifies; near misses weaken it, overstate it or drop an equality case.
- Track quantifiers exactly ("there exists", "for every", "if and only if").

## Hypotheses
- Check each option's hypotheses and domain: a distractor often keeps the theorem's shape but changes an assumption.

## Final answer
- Give the single option label only.
`;

export const systemPrompt = (
  skill: string,
): string => `You solve research-level mathematics multiple-choice questions.

${skillSection(skill)}## Task
You are given one question and its answer choices. Reason carefully about quantifiers, hypotheses,
extremal wording and when equality holds.

## Answer format
Reason step by step, then give the final answer inside <answer>...</answer>: only the label of the
chosen option, such as <answer>B</answer>.
`;

export function userTurn(
  question: string,
  choices: readonly Choice[],
  extras: { theorem?: string; sketch?: string },
): string {
  const parts = [
    `## Question\n${question}`,
    `## Choices\n${choices.map((c) => `${c.label}. ${c.text}`).join('\n')}`,
  ];
  if (extras.theorem) parts.push(`## Theorem\n${extras.theorem}`);
  if (extras.sketch) parts.push(`## Proof sketch\n${extras.sketch}`);
  return parts.join('\n\n');
}
