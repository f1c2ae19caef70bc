/**
 * Lessons as the mock writes and reads them: the rule is the user's own sentence (a mined check's
 * `because`), scoped to the task kind it was learned on, never a pattern:
 *
 *   When the task is "commit message": our convention is imperative subjects, e.g. "Add retry to client".
 *
 * The mock target knows a lesson when its skill holds that sentence (in scope for the task), and then
 * meets the checks learned from it the way a model that follows the rule would: with the grammar rule
 * each check implies (see `mock-backend.ts`), or the answer the user accepted for a pattern.
 */
import type { Check, TaskRecord } from '../../core/task.js';
import { mentionsWord } from '../../core/negative-check.js';
import { formatScope, type RuleScope } from './rule-grammar.js';

const normalize = (s: string): string =>
  s
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[.!?。！？]+$/u, '')
    .trim();

/** The skill line of a lesson: its scope, then the user's sentence, ended. */
export function lessonRuleLine(sentence: string, scope: RuleScope): string {
  const text = sentence.replace(/\s+/g, ' ').trim();
  return `${formatScope(scope)}${/[.!?。！？"”]$/u.test(text) ? text : `${text}.`}`;
}

const SCOPED = /^When the task (is|mentions) "([^"]+)":\s*(.+)$/i;

/** The lessons' sentences the document states for this task (normalised), in scope. */
export function knownLessons(doc: string, task: Pick<TaskRecord, 'intent' | 'tags'>): Set<string> {
  const known = new Set<string>();
  for (const raw of doc.split('\n')) {
    const line = raw.replace(/^\s*[-*]\s+/, '').trim();
    if (line === '') continue;
    const m = SCOPED.exec(line);
    if (m === null) {
      known.add(normalize(line));
      continue;
    }
    const inScope =
      (m[1] ?? '').toLowerCase() === 'is'
        ? task.tags.includes(`kind:${m[2] ?? ''}`)
        : mentionsWord(task.intent, m[2] ?? '');
    if (inScope) known.add(normalize(m[3] ?? ''));
  }
  return known;
}

/** The task's checks whose lesson the document states. */
export function checksOfKnownLessons(checks: readonly Check[], known: ReadonlySet<string>): Set<number> {
  const out = new Set<number>();
  checks.forEach((check, i) => {
    if (check.because !== undefined && check.because !== '' && known.has(normalize(check.because)))
      out.add(i);
  });
  return out;
}
