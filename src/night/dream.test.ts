import { describe, expect, it } from 'vitest';
import { emptyTask } from '../core/task.js';
import { dreamVariants, recallSimilar } from './dream.js';

describe('dreaming', () => {
  it('makes train-only variants of real train tasks', () => {
    const tasks = [
      emptyTask({ id: 'a', intent: 'write the commit message', split: 'train' }),
      emptyTask({ id: 'b', intent: 'write the commit message', split: 'val' }),
    ];
    const v = dreamVariants(tasks, 2);
    expect(v.map((t) => t.id)).toEqual(['a_dream0', 'a_dream1']);
    expect(v.every((t) => t.split === 'train' && t.origin === 'dream' && t.derived_from === 'a')).toBe(true);
    expect(v[0]?.intent).toBe('(quick one) write the commit message');
    expect(dreamVariants(tasks, 0)).toEqual([]);
  });

  it('recalls the most similar archived tasks once each, as train', () => {
    const tonight = [emptyTask({ id: 't', intent: 'add zod package to the web app', split: 'train' })];
    const archive = [
      emptyTask({ id: 'x', intent: 'add dayjs package to the web app', split: 'val' }),
      emptyTask({ id: 'x', intent: 'add dayjs package to the web app', split: 'val' }),
      emptyTask({ id: 'y', intent: 'rename the header component', split: 'train' }),
      emptyTask({ id: 't', intent: 'add zod package to the web app', split: 'train' }),
    ];
    const r = recallSimilar(tonight, archive, 5);
    expect(r.map((t) => t.id)).toEqual(['recall:x']);
    expect(r[0]?.split).toBe('train');
  });
});
