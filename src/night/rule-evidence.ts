/**
 * The evidence of every line a night would write (`rules.json`, `src/core/rule-evidence.ts`): for each
 * staged document, the lines it adds, each with the checks it states and the lessons it says (their
 * rule, checks, and where the user said it: session, prompt, sentence).
 */
import { checkKey, ruleChecks, type Check, type TaskRecord } from '../core/task.js';
import { RULES_SCHEMA, type LearnedRule, type RulesFile } from '../core/rule-evidence.js';
import type { StageTarget } from '../../proposals/index.js';
import { statesCheck } from '../trainer/edit-checks.js';
import type { LessonReport } from './night-report.js';
import { learnedRules } from '../trainer/learned-block.js';
import { frontmatterBlock } from './memory-format.js';
import path from 'node:path';
import { isInsideDir } from '../../proposals/index.js';

const BULLET = /^\s*(?:[-*•]\s+)+/;
/** Markup a document holds around its rules: comments (the block's markers), headings, fences, notes. */
const MARKUP = /^(?:<!--|#|---|_|```)/;

const squash = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[`"'“”‘’]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The rules `proposed` adds to `base`: those of its learned block the base lacks, or (a document the
 * night edits outside a block) its new lines, bullets taken off, frontmatter and markup left out.
 */
export function addedLines(base: string | null, proposed: string): string[] {
  const blockRules = safeRules(proposed);
  if (blockRules !== null && blockRules.length > 0) {
    const before = new Set(safeRules(base ?? '') ?? []);
    return [...new Set(blockRules.filter((r) => !before.has(r)))];
  }
  const had = new Set((base ?? '').split('\n').map((l) => l.replace(BULLET, '').trim()));
  const out: string[] = [];
  const body = proposed.slice(frontmatterBlock(proposed).length);
  for (const raw of body.split('\n')) {
    const line = raw.replace(BULLET, '').trim();
    if (line === '' || MARKUP.test(line) || had.has(line) || out.includes(line)) continue;
    out.push(line);
  }
  return out;
}

/** The rules of a document's learned block; null when its block is malformed. */
function safeRules(doc: string): string[] | null {
  try {
    return learnedRules(doc);
  } catch {
    return null;
  }
}

/** The lesson a line says: its rule in the line, or one of its checks stated. */
function says(line: string, lesson: LessonReport): boolean {
  const rule = squash(lesson.rule);
  if (rule !== '' && squash(line).includes(rule)) return true;
  return lesson.checks.some((c) => statesCheck({ content: line }, { ...c, because: lesson.rule }));
}

const plainCheck = (c: Check): Check => (c.arg === undefined ? { op: c.op } : { op: c.op, arg: c.arg });

/** A target as the file names it: relative to the project (posix), absolute only outside it. */
function targetName(project: string, livePath: string): string {
  const live = path.resolve(livePath);
  return isInsideDir(live, project) ? path.relative(project, live).split(path.sep).join('/') : live;
}

export function ruleEvidence(
  project: string,
  targets: readonly StageTarget[],
  tasks: readonly TaskRecord[],
  lessons: readonly LessonReport[],
): RulesFile | null {
  const checks = new Map<string, Check>();
  for (const t of tasks)
    for (const c of ruleChecks(t)) if (!checks.has(checkKey(c))) checks.set(checkKey(c), c);
  const rules: LearnedRule[] = [];
  for (const target of targets) {
    for (const line of addedLines(target.baseText, target.proposedText)) {
      rules.push({
        n: rules.length + 1,
        target: targetName(project, target.livePath),
        line,
        checks: [...checks.values()].filter((c) => statesCheck({ content: line }, c)).map(plainCheck),
        lessons: lessons
          .filter((l) => l.retired_by === undefined && says(line, l))
          .map((l) => ({
            id: l.id,
            rule: l.rule,
            project: l.project,
            checks: l.checks.map(plainCheck),
            evidence: l.evidence.map((e) => ({ session: e.session, turn: e.turn, sentence: e.sentence })),
          })),
      });
    }
  }
  return rules.length === 0 ? null : { schema: RULES_SCHEMA, version: 1, rules };
}
