/** The OfficeQA target's system prompt, user turn and initial skill. */
import { skillSection } from '../shared/answer-tags.js';

export const INITIAL_SKILL = `# OfficeQA Skill

## Evidence
- Find the table or passage that names the exact entity, period, measure and unit the question asks about.
- Copy each value from the text before doing any arithmetic, and keep its period and unit with it.

## Answer
- Compute derived quantities only after every operand is confirmed.
- Give the final number (or name) alone, with the unit the question asks for.
`;

export const systemPrompt = (
  skill: string,
): string => `You answer questions about U.S. Treasury Bulletins from their text.

${skillSection(skill)}## Rules
1. Use only the bulletin text you are given; do not invent values it does not contain.
2. Check that each value you use has the period, basis and unit the question asks for.
3. When the question needs arithmetic, extract the exact operands first, then compute.

## Answer format
Reason briefly, then give the final answer inside <answer>...</answer>.
`;

export function userTurn(question: string, documents: Array<{ name: string; text: string }>): string {
  const docs = documents.map((d) => `### ${d.name}\n${d.text}`).join('\n\n');
  return `## Documents\n${docs}\n\n## Question\n${question}`;
}
