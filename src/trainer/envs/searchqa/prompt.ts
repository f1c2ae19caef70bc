/** The SearchQA target's system prompt (the skill in its own section) and the initial skill. */
import { skillSection } from '../shared/answer-tags.js';

export const INITIAL_SKILL = `# Question Answering Skill

(No learned rules yet: reflection adds them.)
`;

export const systemPrompt = (skill: string): string => `You answer questions from search results.

${skillSection(skill)}## Task
You are given a CONTEXT of search-result snippets, each starting with [DOC], and a QUESTION.
Answer the question from what the context says.

## Answer format
Reason briefly, then give the final answer inside <answer>...</answer>.
The answer is short: a name, a few words or a short phrase, without the question or any explanation.

Example:
<answer>Abraham Lincoln</answer>
`;
