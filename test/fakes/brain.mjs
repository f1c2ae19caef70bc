/**
 * The fake model behind every fake provider (HTTP servers and agent CLIs) in the tests. It follows the
 * skill it is shown: with the learned rule `Use "pnpm" instead of "npm".` it answers with pnpm, else
 * with npm. As optimizer it proposes exactly that rule (in a fenced block, with brackets in the prose
 * around it, to exercise tolerant JSON extraction), grades rubrics by a keyword, and as the LLM miner
 * proposes one valid and one malformed task statement.
 */
export const RULE = 'Use "pnpm" instead of "npm".';

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
    const edits = {
      edits: [{ op: 'add', content: RULE, anchor: '', rationale: 'the user always wants pnpm' }],
    };
    return `Here [as asked] are the edits:\n\`\`\`json\n${JSON.stringify(edits)}\n\`\`\`\nHope this helps [1].`;
  }
  const skillPart = text.includes('# Task') ? text.slice(0, text.lastIndexOf('# Task')) : text;
  const pkg = /Add `?([a-z]+)`?/.exec(text.slice(text.lastIndexOf('# Task')))?.[1] ?? 'it';
  return skillPart.includes(RULE) ? `Run \`pnpm add ${pkg}\`.` : `Run \`npm install ${pkg}\`.`;
}
