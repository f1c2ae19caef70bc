/**
 * Replies in the shapes a strong model naturally gives, through the real extraction, schemas and repair:
 * each must be read right on the first reply (no repair request) or, for drafts, not be read at all.
 */
import { describe, expect, it } from 'vitest';
import { emptyTask } from '../../core/task.js';
import { queueBackend } from '../../../test/helpers/queue-llm.js';

const reflectReq = {
  target: 'skill' as const,
  doc: '# Skill',
  otherDoc: '',
  failures: [
    {
      task: emptyTask({ id: 't1', intent: 'Add zod to the web app' }),
      response: 'npm install zod',
      score: { hard: 0, soft: 0, rationale: 'failed: contains=pnpm' },
    },
  ],
  successes: [],
  editBudget: 3,
  rejected: [],
  preferences: '',
};

async function reflectOnce(reply: string) {
  const b = queueBackend([reply, '{"edits": []}']);
  const r = await b.llm.reflect(reflectReq);
  return { edits: r.edits, requests: b.provider.sent.length, meter: b.meter.summary() };
}

describe('natural replies', () => {
  it('reads "anchor": null, a capitalised op and a bulleted content without a repair', async () => {
    const r = await reflectOnce(
      '```json\n{"edits": [{"op": "Add", "content": "- Use `pnpm` for every install; this repo is a pnpm workspace.", "anchor": null, "rationale": "t1 used npm"}]}\n```',
    );
    expect(r.requests).toBe(1);
    expect(r.edits).toEqual([
      {
        target: 'skill',
        op: 'add',
        content: 'Use `pnpm` for every install; this repo is a pnpm workspace.',
        anchor: '',
        rationale: 't1 used npm',
      },
    ]);
  });

  it('reads a top-level array where an object with a list was asked for', async () => {
    const r = await reflectOnce(
      '[{"op": "REPLACE", "anchor": "- Run tests with vitest", "content": "Run tests with `vitest --run`; watch mode hangs.", "rationale": "t1"}]',
    );
    expect(r.requests).toBe(1);
    expect(r.edits).toMatchObject([
      {
        op: 'replace',
        anchor: 'Run tests with vitest',
        content: 'Run tests with `vitest --run`; watch mode hangs.',
      },
    ]);
  });

  it('skips prose that quotes a JSON check before the real answer', async () => {
    const r = await reflectOnce(
      [
        'The failing check was `{"op": "contains", "arg": "pnpm"}`, so the answer must name pnpm.',
        'Here are my edits:',
        '{"edits": [{"op": "add", "content": "Install packages with `pnpm add`, never npm.", "anchor": "", "rationale": "t1"}]}',
      ].join('\n'),
    );
    expect(r.requests).toBe(1);
    expect(r.edits.map((e) => e.content)).toEqual(['Install packages with `pnpm add`, never npm.']);
  });

  it('ignores a draft inside a thinking block before the real edits', async () => {
    const r = await reflectOnce(
      [
        '<think>Maybe nothing is needed: {"edits": []}. No — t1 used npm in a pnpm workspace.</think>',
        '{"edits": [{"op": "add", "content": "Use pnpm, not npm.", "anchor": "", "rationale": "t1"}]}',
      ].join('\n'),
    );
    expect(r.requests).toBe(1);
    expect(r.edits.map((e) => e.content)).toEqual(['Use pnpm, not npm.']);
  });

  it('reads the answer after a dangling </think> (a reply that starts mid-thought)', async () => {
    const r = await reflectOnce(
      'so {"edits": []} would be wrong.</think>\n{"edits": [{"op": "add", "content": "Use pnpm.", "anchor": "", "rationale": "t1"}]}',
    );
    expect(r.edits.map((e) => e.content)).toEqual(['Use pnpm.']);
  });

  it("still repairs a reply with no usable value, naming the first value's problem", async () => {
    const b = queueBackend([
      '{"edits": [{"op": "rewrite", "content": "x"}]}',
      '{"edits": [{"op": "add", "content": "Use pnpm.", "anchor": null}]}',
    ]);
    const r = await b.llm.reflect(reflectReq);
    expect(b.provider.sent).toHaveLength(2);
    expect(b.provider.sent[1]?.messages[2]?.content).toContain('edits.0.op');
    expect(r.edits.map((e) => e.content)).toEqual(['Use pnpm.']);
  });
});
