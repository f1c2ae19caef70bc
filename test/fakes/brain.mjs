/**
 * The fake model behind every fake provider (HTTP servers and agent CLIs) in the tests. It follows the
 * skill it is shown: with the learned rule `Use "pnpm" instead of "npm".` it answers with pnpm, else
 * with npm. As optimizer it proposes exactly that rule (in a fenced block, with brackets in the prose
 * around it, to exercise tolerant JSON extraction), grades rubrics by a keyword, and as the LLM miner
 * proposes one valid and one malformed task statement. Given tools, it calls `search` once its skill
 * says `Always call the "search" tool.` (the rule it proposes for a failed `tool_called` check): as a
 * stated `TOOL_CALL:` line when the prompt asks for one, natively (see `callsSearch`) otherwise.
 */
export const RULE = 'Use "pnpm" instead of "npm".';
export const TOOL_RULE = 'Always call the "search" tool.';

/** The skill part of an attempt prompt (before its task). */
const skillPartOf = (text) => (text.includes('# Task') ? text.slice(0, text.lastIndexOf('# Task')) : text);

/** Whether the fake model calls `search` on this attempt: the skill it follows says so. */
export function callsSearch(text) {
  return kindOf(text) === 'attempt' && skillPartOf(text).includes(TOOL_RULE);
}

/** The task's request, as the argument of a search. */
export const searchQuery = (text) =>
  text
    .slice(text.lastIndexOf('# Task') + '# Task'.length)
    .trim()
    .split('\n')[0];

/** What kind of request a prompt is. */
export function kindOf(text) {
  if (text.includes('You are a strict grader')) return 'judge';
  if (text.includes('Your previous reply could not be used')) return 'repair';
  if (text.includes('You improve a skill document')) return 'reflect';
  if (text.includes('checkable task statements')) return 'mine';
  return 'attempt';
}

export function reply(text) {
  const kind = kindOf(text);
  if (kind === 'judge') {
    const ok = /pnpm/.test(text.slice(text.lastIndexOf('# Answer to grade')));
    return JSON.stringify({ hard: ok ? 1 : 0, soft: ok ? 1 : 0.2, rationale: ok ? 'uses pnpm' : 'uses npm' });
  }
  if (kind === 'mine') {
    // One statement the miner keeps, one whose regex cannot compile (it must be dropped and counted).
    return JSON.stringify([
      {
        intent: 'Add a dependency to the web app',
        checks: [
          { op: 'contains', arg: 'pnpm' },
          { op: 'regex', arg: '(?i)^(?![\\s\\S]*\\bnpm\\b)' },
        ],
        rubric: '',
        satisfied: false,
      },
      { intent: 'Install packages the way the user wants', checks: [{ op: 'regex', arg: '(' }] },
    ]);
  }
  if (kind === 'reflect' || kind === 'repair') {
    const tool = text.includes('must use the tool `search`');
    const edits = {
      edits: [
        tool
          ? { op: 'add', content: TOOL_RULE, anchor: '', rationale: 'the answers never looked anything up' }
          : { op: 'add', content: RULE, anchor: '', rationale: 'the user always wants pnpm' },
      ],
    };
    return `Here [as asked] are the edits:\n\`\`\`json\n${JSON.stringify(edits)}\n\`\`\`\nHope this helps [1].`;
  }
  const skillPart = skillPartOf(text);
  const pkg = /Add `?([a-z]+)`?/.exec(text.slice(text.lastIndexOf('# Task')))?.[1] ?? 'it';
  const answer = skillPart.includes(RULE) ? `Run \`pnpm add ${pkg}\`.` : `Run \`npm install ${pkg}\`.`;
  // Told to state its calls (no native tools): one line before the answer.
  const stated = text.includes('TOOL_CALL: <tool> <argument>') && callsSearch(text);
  return stated ? `TOOL_CALL: search ${searchQuery(text)}\n${answer}` : answer;
}
