import { describe, expect, it } from 'vitest';
import { AnswerPendingError } from './errors.js';
import { allOrWait, WaitList } from './waits.js';

describe('work that goes on past a wait', () => {
  it('allOrWait lets every branch finish past a wait, then throws the waits as one, naming their phases', async () => {
    const finished: string[] = [];
    const branch = async (name: string, waits: boolean): Promise<string> => {
      await new Promise((r) => setTimeout(r, waits ? 1 : 5));
      finished.push(name);
      if (waits) throw new AnswerPendingError(`id-${name}`).inPhase(name);
      return name;
    };
    const run = allOrWait([branch('baseline', true), branch('train', false), branch('judge', true)]);
    await expect(run).rejects.toMatchObject({ requestId: 'id-baseline', phases: ['baseline', 'judge'] });
    // The slower branch that did not wait ran to its end before the wait was thrown.
    expect(finished.sort()).toEqual(['baseline', 'judge', 'train']);
    await expect(allOrWait([branch('a', false), branch('b', false)])).resolves.toEqual(['a', 'b']);
  });

  it('allOrWait throws a real failure rather than a wait, after every branch settled', async () => {
    let settled = 0;
    const later = new Promise<number>((r) =>
      setTimeout(() => {
        settled += 1;
        r(1);
      }, 5),
    );
    const run = allOrWait<number>([
      Promise.reject(new AnswerPendingError('x')),
      Promise.reject(new Error('budget')),
      later,
    ]);
    await expect(run).rejects.toThrow('budget');
    expect(settled).toBe(1);
  });

  it('a wait is named by the innermost phase it happened in', () => {
    const inner = new AnswerPendingError('r').inPhase('skill train');
    expect(inner.inPhase('mine').phases).toEqual(['skill train']);
    expect(
      AnswerPendingError.join([inner, new AnswerPendingError('s').inPhase('skill train')]).phases,
    ).toEqual(['skill train']);
  });

  it('WaitList keeps each wait, lets the next step run, and throws them as one at the end', async () => {
    const waits = new WaitList();
    const ran: string[] = [];
    const step = (name: string, waits_: boolean): Promise<string> => {
      ran.push(name);
      return waits_ ? Promise.reject(new AnswerPendingError(name).inPhase(name)) : Promise.resolve(name);
    };
    expect(await waits.pass(step('baseline', true))).toBeUndefined();
    expect(await waits.pass(step('train', false))).toBe('train');
    expect(waits.waiting).toBe(true);
    expect(() => waits.rethrow()).toThrow(expect.objectContaining({ phases: ['baseline'] }));
    expect(ran).toEqual(['baseline', 'train']);
    await expect(waits.pass(Promise.reject(new Error('fatal')))).rejects.toThrow('fatal');
    expect(() => new WaitList().rethrow()).not.toThrow();
  });
});
