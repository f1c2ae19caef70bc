/** Aggregation through the real `LlmBackend.mergeEdits` (replies a strong model writes, no network). */
import { describe, expect, it } from 'vitest';
import type { Backend } from '../backends/types.js';
import { zeroUsage } from '../core/usage.js';
import { emptyTask, type Edit } from '../core/task.js';
import { queueBackend } from '../../test/helpers/queue-llm.js';
import { proposeEdits, type ProposeInput } from './propose.js';

const add = (content: string): Edit => ({ target: 'skill', op: 'add', content, anchor: '', rationale: '' });
const failure = (id: string) => ({
  task: emptyTask({ id, intent: `task ${id}` }),
  response: 'npm install',
  score: { hard: 0, soft: 0, rationale: 'failed' },
});

/** Reflection is scripted (one list of edits per call); merging is the real backend's. */
function withRealMerge(reflections: Edit[][], mergeReplies: string[]) {
  const q = queueBackend(mergeReplies);
  let call = 0;
  const backend: Backend = {
    name: 'real-merge',
    offline: false,
    attempt: () => Promise.reject(new Error('unused')),
    judgeRubric: () => Promise.reject(new Error('unused')),
    reflect: () => Promise.resolve({ edits: reflections[call++] ?? [], usage: zeroUsage() }),
    mergeEdits: (req) => q.llm.mergeEdits(req),
  };
  return { backend, sent: q.provider.sent };
}

const input = (backend: Backend, failures: number): ProposeInput => ({
  backend,
  doc: '# Skill\n',
  otherDoc: '',
  failures: Array.from({ length: failures }, (_, i) => failure(`f${i}`)),
  successes: [],
  minibatchSize: 1,
  reflectSuccesses: false,
  reflectBudget: 4,
  select: 3,
  rejected: [],
  preferences: '',
  workers: 1,
  seed: 1,
  usage: zeroUsage(),
});

describe('proposeEdits with a model merge', () => {
  it('keeps support through the merge, so ranking by support survives', async () => {
    const pnpm = add('Use pnpm for installs.');
    const { backend, sent } = withRealMerge(
      [[pnpm], [pnpm, add('Run vitest with --run.')], [pnpm, add('Use `vitest --run`, not watch mode.')]],
      [
        // The model merges the two vitest rules (it gives their summed support) and repeats the pnpm rule
        // unchanged without a support count.
        JSON.stringify({
          edits: [
            {
              op: 'Add',
              content: '- Run tests with `vitest --run`; watch mode hangs.',
              anchor: null,
              support: 2,
            },
            { op: 'add', content: 'Use pnpm for installs.', anchor: null, rationale: 'kept' },
          ],
        }),
      ],
    );
    const p = await proposeEdits(input(backend, 3));
    expect(sent).toHaveLength(1);
    expect(p.merge).toBe('backend');
    expect(p.ranked.map((e) => [e.content, e.support])).toEqual([
      ['Use pnpm for installs.', 3],
      ['Run tests with `vitest --run`; watch mode hangs.', 2],
    ]);
  });

  it('does not ask the model to merge the edits of a single reflection', async () => {
    const { backend, sent } = withRealMerge([[add('Use pnpm.'), add('Run vitest with --run.')]], []);
    const p = await proposeEdits(input(backend, 1));
    expect(sent).toHaveLength(0);
    expect(p.merge).toBe('none');
    expect(p.ranked).toHaveLength(2);
  });
});
