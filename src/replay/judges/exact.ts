/**
 * Local judges that need no model: exact-reference matching with keyword partial credit, and the
 * outcome-derived weak label for tasks without a checkable reference.
 */
import type { Score, TaskRecord } from '../../core/task.js';

/** Python's Unicode `\w` is letters, numbers and underscore; everything else becomes a space. */
const NON_WORD = /[^\p{L}\p{N}_\s]/gu;
const MIN_KEYWORD_LENGTH = 3;

/** Lower-case, non-word characters to spaces, whitespace collapsed and trimmed. */
export function normalizeForExact(text: string): string {
  return text.toLowerCase().trim().replace(NON_WORD, ' ').replace(/\s+/gu, ' ').trim();
}

/**
 * Fraction of the reference's unique normalised tokens (longer than 2 characters) found as
 * substrings of the normalised response. Substring, not token, matching: "form" hits "format".
 */
export function keywordScore(reference: string, response: string): number {
  const keywords = referenceKeywords(reference);
  if (keywords.length === 0) return 0;
  const haystack = normalizeForExact(response);
  const hits = keywords.filter((keyword) => haystack.includes(keyword)).length;
  return hits / keywords.length;
}

function referenceKeywords(reference: string): string[] {
  const tokens = normalizeForExact(reference)
    .split(' ')
    .filter((token) => Array.from(token).length >= MIN_KEYWORD_LENGTH);
  return [...new Set(tokens)];
}

/** hard = 1 iff the normalised reference occurs in the normalised response; soft = max(hard, keywords). */
export function exactJudge(reference: string, response: string): Score {
  const normalizedReference = normalizeForExact(reference);
  // An empty reference would be a substring of every answer; treat it as uncheckable instead.
  if (normalizedReference === '') return { hard: 0, soft: 0, rationale: 'exact-match=0 (empty reference)' };
  const hard = normalizeForExact(response).includes(normalizedReference) ? 1 : 0;
  const keywords = keywordScore(reference, response);
  return {
    hard,
    soft: Math.max(hard, keywords),
    rationale: `exact-match=${hard}, keywords=${keywords.toFixed(4)}`,
  };
}

/** The rationale of {@link outcomeJudge}: how reflection tells a weak label from a judged answer. */
export const OUTCOME_RATIONALE = 'outcome-derived';

/** Weak label from the session's own outcome; it measures history, not the candidate answer. */
export function outcomeJudge(task: Pick<TaskRecord, 'outcome'>): Score {
  const hard = task.outcome === 'success' ? 1 : 0;
  return { hard, soft: hard, rationale: OUTCOME_RATIONALE };
}
