/** The DocVQA target's system prompt and initial skill. */
import { skillSection } from '../shared/answer-tags.js';

export const INITIAL_SKILL = `# DocVQA Skill

## Visual evidence
- Read the whole page before answering; find the label, heading or column the question points to.
- When several strings look alike, choose the one whose surrounding labels match the question.

## Exact answers
- Copy names, numbers and dates exactly as printed; prefer the shortest span that answers.
`;

export const systemPrompt = (
  skill: string,
): string => `You answer questions about a document page shown as an image.

${skillSection(skill)}## Rules
- Ground the answer in what the page shows; do not invent text that is not on it.
- Prefer exact spans, numbers, dates and names copied from the page.

## Answer format
Give the final answer inside <answer>...</answer>.
`;
