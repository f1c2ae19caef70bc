/**
 * What a night already knows about its replays: each judged answer by (documents, task, sample), and
 * each judge's verdict by (task, answer). A trial whose documents equal ones already replayed (the
 * baseline's, another trial's), or an answer already judged, is not asked again. A real backend's
 * response cache would answer such a request too, but only once it was asked (and the mock has no
 * cache): here it is never asked, and the night's tally says so.
 */
import { sha256Hex } from '../core/hash.js';
import type { Score, TaskRecord } from '../core/task.js';
import type { Usage } from '../core/usage.js';

/** What one replay asked the backend, and what it took from the memo instead. */
export interface ReplayTally {
  /** Attempts asked of the target. */
  attempts: number;
  /** Verdicts asked of a model judge (rubric tasks and rubric criteria). */
  judges: number;
  /** Answers taken from earlier replays of the same documents. */
  reusedAnswers: number;
  /** Verdicts taken from earlier judgements of the same answer. */
  reusedVerdicts: number;
}

export const emptyTally = (): ReplayTally => ({
  attempts: 0,
  judges: 0,
  reusedAnswers: 0,
  reusedVerdicts: 0,
});

export function addTally(into: ReplayTally, more: ReplayTally): void {
  into.attempts += more.attempts;
  into.judges += more.judges;
  into.reusedAnswers += more.reusedAnswers;
  into.reusedVerdicts += more.reusedVerdicts;
}

type Verdict = Score & { usage: Usage };

export class ReplayMemo {
  // Promises, so a request in flight is shared too; a failed one (a handoff wait, a budget stop) is
  // forgotten so it is asked again.
  private readonly answers = new Map<string, Promise<unknown>>();
  private readonly verdicts = new Map<string, Promise<Verdict>>();

  /** The memo of one replay: `make` runs only when these documents never answered this task. */
  answer<T>(
    docs: { skill: string; memory: string },
    task: TaskRecord,
    sampleId: number,
    make: () => Promise<T>,
  ): { result: Promise<T>; reused: boolean } {
    const key = `${sha256Hex(`${docs.skill}\u0000${docs.memory}`)}\u0000${task.id}\u0000${sampleId}`;
    return this.remember(this.answers, key, make) as { result: Promise<T>; reused: boolean };
  }

  /** The memo of one verdict: the same answer to the same task is judged once. */
  verdict(
    task: TaskRecord,
    response: string,
    toolsCalled: readonly string[],
    make: () => Promise<Verdict>,
  ): { result: Promise<Verdict>; reused: boolean } {
    const key = `${task.id}\u0000${sha256Hex(`${toolsCalled.join('\u0001')}\u0000${response}`)}`;
    return this.remember(this.verdicts, key, make);
  }

  private remember<T>(
    map: Map<string, Promise<T>>,
    key: string,
    make: () => Promise<T>,
  ): { result: Promise<T>; reused: boolean } {
    const known = map.get(key);
    if (known) return { result: known, reused: true };
    const made = make();
    map.set(key, made);
    made.catch(() => map.delete(key));
    return { result: made, reused: false };
  }
}
