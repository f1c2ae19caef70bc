/**
 * A benchmark row as a dataset item: a task record the trainer and reflection read (its question as
 * the intent, its gold answer as the reference) and the environment's own fields kept beside it by id.
 * Texts are cleaned of control characters: they reach history files, reflection prompts and the terminal.
 */
import { sha256Hex } from '../../../core/hash.js';
import { plainText } from '../../../core/safe-text.js';
import { emptyTask, type Split } from '../../../core/task.js';
import type { Dataset, DatasetItem } from '../../batch/dataset.js';

export interface EnvRow<P> {
  id: string;
  /** What reflection reads as the task: the question (and its choices), never a whole document. */
  intent: string;
  /** The accepted answers (the first is the reference reflection sees). */
  answers: string[];
  /** Tags of the item (`type:<task type>`), for reports. */
  tags?: string[];
  payload: P;
}

export function envItem<P>(row: EnvRow<P>, split: Split): DatasetItem {
  const answers = row.answers.map((a) => plainText(a));
  return {
    task: emptyTask({
      id: plainText(row.id),
      intent: plainText(row.intent),
      split,
      reference_kind: 'exact',
      reference: answers[0] ?? '',
      tags: (row.tags ?? []).map((t) => plainText(t)),
      origin: 'real',
    }),
    answers,
  };
}

/** The dataset of split rows, and the payload of each item by its id (what `prompt` and `score` read). */
export function envDataset<P>(
  source: string,
  splits: Record<Split, Array<EnvRow<P>>>,
): { data: Dataset; payloads: Map<string, P> } {
  const payloads = new Map<string, P>();
  const of = (split: Split): DatasetItem[] =>
    splits[split].map((row) => {
      const item = envItem(row, split);
      payloads.set(item.task.id, row.payload);
      return item;
    });
  const train = of('train');
  const val = of('val');
  const test = of('test');
  return { data: { file: source, items: [...train, ...val, ...test], train, val, test }, payloads };
}

/** The payload of an item an environment loaded (a missing one is a bug, not bad data). */
export function payloadOf<P>(payloads: ReadonlyMap<string, P>, item: DatasetItem): P {
  const p = payloads.get(item.task.id);
  if (p === undefined)
    throw new Error(`unreachable: item ${item.task.id} was not loaded by this environment`);
  return p;
}

/** A digest of what a run reads: the selected items, their payload keys and the options. */
export function digestOf(data: Dataset, extra: unknown): string {
  return sha256Hex(
    JSON.stringify({
      items: data.items.map((it) => [it.task.id, it.task.split, it.task.intent, it.answers]),
      extra,
    }),
  );
}
