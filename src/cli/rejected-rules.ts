/**
 * What `reject` keeps of the rules it turns down (`reject ID`: every learned rule of the proposal;
 * `--rule N`: those named): each lesson a rule says, as `lessons forget` keeps a forgotten one, and a
 * rule no lesson stands for (a tasks file's) by its own words and checks. Hashes only; mining and every
 * later night's edits leave out anything that says one again, in any wording.
 */
import { InputError } from '../core/errors.js';
import { checkHash, forgottenOf, ruleKey, ruleTokenHashes } from '../core/forgotten-lesson.js';
import { sha256Hex } from '../core/hash.js';
import type { LearnedRule } from '../core/rule-evidence.js';
import type { Db } from '../store/db.js';
import { recordForgottenLesson } from '../store/forgotten-lessons-repo.js';

/** The rules `numbers` names (every rule when none), or a usage error naming what the proposal has. */
export function chosenRules(
  rules: readonly LearnedRule[],
  numbers: readonly number[],
  id: string,
): LearnedRule[] {
  if (numbers.length === 0) return [...rules];
  if (rules.length === 0)
    throw new InputError(
      `proposal ${id} lists no learned rules (no rules.json): reject it whole`,
      'invalid_selection',
    );
  const unknown = numbers.filter((n) => !rules.some((r) => r.n === n));
  if (unknown.length > 0)
    throw new InputError(
      `proposal ${id} has no rule ${unknown.join(', ')}; its rules are 1 to ${rules.length} (proposals show ${id})`,
      'invalid_selection',
    );
  return rules.filter((r) => numbers.includes(r.n));
}

export function recordRejectedRules(
  db: Db,
  project: string,
  rules: readonly LearnedRule[],
  now: number,
): number {
  let recorded = 0;
  for (const rule of rules) {
    for (const lesson of rule.lessons) {
      const evidence = lesson.evidence.map((e) => ({ ...e, signals: [], rejected: '', accepted: '' }));
      if (recordForgottenLesson(db, forgottenOf({ ...lesson, evidence }, 'reject'), now)) recorded += 1;
    }
    if (rule.lessons.length > 0) continue;
    // No lesson: the line itself is what was rejected (its words and the checks it states).
    const record = {
      id: `rule_${sha256Hex(`${project}\u0000${rule.line}`).slice(0, 12)}`,
      project,
      ruleKey: ruleKey(rule.line),
      evidence: [],
      tokens: ruleTokenHashes(rule.line),
      checks: [...new Set(rule.checks.map(checkHash))].sort(),
      origin: 'reject' as const,
    };
    if (recordForgottenLesson(db, record, now)) recorded += 1;
  }
  return recorded;
}
