/**
 * The screen every edit passes before it is applied to a document: a learned line is a sentence a
 * person would write, never a pattern or a check (`plain-words.ts`), and never a rule the user rejected
 * or forgot, in any wording (`src/core/forgotten-lesson.ts`).
 *
 * An edit that reads as a pattern is rewritten as the user's own sentence of the check it states
 * (the lesson's rule, the check's `because`), in the user's language; with no such sentence it is
 * refused. An edit that states a rejected rule (one of its checks, or most of its words) is dropped,
 * and only counted: what the store keeps of a rejected rule is hashes, never its words.
 */
import { checkHash, lineSaysForgottenRule, type ForgottenLesson } from '../core/forgotten-lesson.js';
import type { Check, Edit } from '../core/task.js';
import type { RejectedEdit } from './gate-records.js';
import { statesCheck } from './edit-checks.js';
import { patternReason } from './plain-words.js';

export interface ScreenContext {
  /** The checks of the tasks the edits were proposed for, with the sentences they were learned from. */
  checks: readonly Check[];
  /** The project's forgotten lessons and rejected rules. */
  forgotten: readonly ForgottenLesson[];
}

export interface ScreenResult {
  /** The edits to apply, those rewritten in the user's words included. */
  kept: Edit[];
  /** Edits that read as a pattern with no sentence to write instead (reflection sees why next time). */
  refused: RejectedEdit[];
  /** Edits rewritten from a pattern to the user's sentence. */
  rewritten: number;
  /** Edits dropped because they state a rule the user rejected or forgot. */
  forgottenDropped: number;
}

/** A check's own argument as written in a line (a pattern the model copied): long enough to name it. */
const MIN_ARG_CHARS = 3;

/** The checks a line states: by their terms or sentence (`statesCheck`), or their argument copied whole. */
function statedChecks(content: string, checks: readonly Check[]): Check[] {
  return checks.filter((check) => {
    const arg = typeof check.arg === 'string' ? check.arg : '';
    return statesCheck({ content }, check) || (arg.length >= MIN_ARG_CHARS && content.includes(arg));
  });
}

/** The user's sentence a line stands for, ended like a sentence; null when no check it states has one in words. */
function sentenceFor(content: string, checks: readonly Check[]): string | null {
  for (const check of statedChecks(content, checks)) {
    const sentence = (check.because ?? '').replace(/\s+/g, ' ').trim();
    if (sentence !== '' && patternReason(sentence) === null)
      return /[.!?。！？"”)]$/u.test(sentence) ? sentence : `${sentence}.`;
  }
  return null;
}

export function screenEdits(edits: readonly Edit[], ctx: ScreenContext): ScreenResult {
  const result: ScreenResult = { kept: [], refused: [], rewritten: 0, forgottenDropped: 0 };
  for (const edit of edits) {
    // A deletion writes nothing.
    if (edit.op === 'delete') {
      result.kept.push(edit);
      continue;
    }
    let screened = edit;
    const reason = patternReason(edit.content);
    if (reason !== null) {
      const sentence = sentenceFor(edit.content, ctx.checks);
      if (sentence === null) {
        result.refused.push({ ...edit, delta: 0, reason: `not plain words: ${reason}` });
        continue;
      }
      screened = { ...edit, content: sentence, rationale: `${edit.rationale} (written in the user's words)` };
      result.rewritten += 1;
    }
    const stated = statedChecks(screened.content, ctx.checks).map(checkHash);
    if (ctx.forgotten.some((f) => lineSaysForgottenRule(screened.content, stated, f))) {
      result.forgottenDropped += 1;
      continue;
    }
    result.kept.push(screened);
  }
  return result;
}
