/**
 * The JSONL dataset adapter: one labelled task a line, `{id, input, answer | checks | rubric, split}`,
 * optionally `draft` (the untrained agent's first answer, which the mock target starts from) and `tags`.
 * `answer` (a string or a list of accepted strings) is scored by exact match and token F1; `checks` by the
 * rule judge; `rubric` by the backend's rubric judge.
 */
import { readFileSync } from 'node:fs';
import { InputError, errorMessage } from '../../core/errors.js';
import { emptyTask, type Check, type Split, type TaskRecord } from '../../core/task.js';
import { validateJudge } from '../../replay/judges/validate-checks.js';

export interface DatasetItem {
  task: TaskRecord;
  /** Accepted answers (empty for checks/rubric items). */
  answers: string[];
}

export interface Dataset {
  file: string;
  items: DatasetItem[];
  train: DatasetItem[];
  val: DatasetItem[];
  test: DatasetItem[];
}

const SPLIT_ALIASES: Record<string, Split> = {
  train: 'train',
  val: 'val',
  valid: 'val',
  validation: 'val',
  dev: 'val',
  test: 'test',
};

const SHAPE =
  '{"id": "q1", "input": "...", "answer": "..." | "checks": [{"op": "contains", "arg": "x"}] | "rubric": "...", "split": "train|val|test"}';

function parseItem(value: unknown, where: string): DatasetItem {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new InputError(`${where}: expected a JSON object like ${SHAPE}`);
  const r = value as Record<string, unknown>;
  const id = typeof r.id === 'number' ? String(r.id) : r.id;
  if (typeof id !== 'string' || id.trim() === '')
    throw new InputError(`${where}: field "id" must be a non-empty string`);
  if (typeof r.input !== 'string' || r.input.trim() === '')
    throw new InputError(`${where}: field "input" must be a non-empty string`);
  const split = typeof r.split === 'string' ? SPLIT_ALIASES[r.split.toLowerCase()] : undefined;
  if (!split)
    throw new InputError(
      `${where}: field "split" must be one of train, val, test (got ${JSON.stringify(r.split)})`,
    );
  const draft = r.draft === undefined ? '' : r.draft;
  if (typeof draft !== 'string') throw new InputError(`${where}: field "draft" must be a string`);
  const tags = Array.isArray(r.tags) ? r.tags.filter((t): t is string => typeof t === 'string') : [];
  const base = { id, intent: r.input, split, attempted_solution: draft, tags, origin: 'real' as const };

  const kinds = ['answer', 'checks', 'rubric'].filter((k) => r[k] !== undefined);
  if (kinds.length !== 1)
    throw new InputError(
      `${where}: give exactly one of "answer", "checks" or "rubric" (got ${kinds.length === 0 ? 'none' : kinds.join(', ')})`,
    );
  if (r.answer !== undefined) {
    const answers = typeof r.answer === 'string' ? [r.answer] : r.answer;
    if (!Array.isArray(answers) || answers.length === 0 || !answers.every((a) => typeof a === 'string'))
      throw new InputError(`${where}: field "answer" must be a string or a non-empty list of strings`);
    return { task: emptyTask({ ...base, reference_kind: 'exact', reference: answers[0] ?? '' }), answers };
  }
  if (r.checks !== undefined) {
    const checks = r.checks;
    const valid =
      Array.isArray(checks) &&
      checks.length > 0 &&
      checks.every(
        (c) =>
          c !== null &&
          typeof c === 'object' &&
          typeof (c as Check).op === 'string' &&
          ['string', 'number', 'undefined'].includes(typeof (c as Check).arg),
      );
    if (!valid) throw new InputError(`${where}: field "checks" must be a non-empty list of {"op", "arg"}`);
    // The same rules as a tasks file's checks: a pattern that needs backtracking, or a huge arg, is refused.
    const { errors } = validateJudge({ checks });
    if (errors.length > 0) throw new InputError(`${where}: field "checks": ${errors.join('; ')}`);
    return {
      task: emptyTask({
        ...base,
        reference_kind: 'rule',
        judge: { kind: 'rule', checks: checks as Check[] },
      }),
      answers: [],
    };
  }
  if (typeof r.rubric !== 'string' || r.rubric.trim() === '')
    throw new InputError(`${where}: field "rubric" must be a non-empty string`);
  return { task: emptyTask({ ...base, reference_kind: 'rubric', reference: r.rubric }), answers: [] };
}

/**
 * A dataset the trainer does not read itself (a benchmark seed folder, which the CLI reads): its items,
 * the skill it starts from, and a digest of what was read (a resumed run must be of the same data).
 */
export interface PreparedDataset {
  data: Dataset;
  skill: string;
  digest: string;
}

/** Rule tasks already split (train, val, test) as dataset items; `source` names them in messages. */
export function datasetOfTasks(source: string, tasks: readonly TaskRecord[]): Dataset {
  const items = tasks.map((task) => ({ task, answers: [] }));
  const of = (s: Split): DatasetItem[] => items.filter((it) => it.task.split === s);
  return { file: source, items, train: of('train'), val: of('val'), test: of('test') };
}

export function loadDataset(file: string): Dataset {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(`${file}: cannot read dataset: ${errorMessage(err)}`);
  }
  const items: DatasetItem[] = [];
  const seen = new Set<string>();
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `${file}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new InputError(`${where}: invalid JSON: ${errorMessage(err)}`);
    }
    const item = parseItem(value, where);
    if (seen.has(item.task.id)) throw new InputError(`${where}: duplicate id "${item.task.id}"`);
    seen.add(item.task.id);
    items.push(item);
  });
  if (items.length === 0) throw new InputError(`${file}: the dataset has no items`);
  const of = (s: Split): DatasetItem[] => items.filter((it) => it.task.split === s);
  return { file, items, train: of('train'), val: of('val'), test: of('test') };
}
