/**
 * What the LLM miner holds a model's task statement to: its intent (given to the target word for word)
 * states no correction, and its content checks separate the task's corrections as the offline miner's
 * checks must (`rules/verdict.ts`).
 */
import { ACTION_OPS } from '../core/action-checks.js';
import { MENTIONS, NOT_MENTIONS } from '../core/negative-check.js';
import type { TaskRecord } from '../core/task.js';
import type { MinedStatement } from './llm-miner.js';
import { locateCorrection } from './model/locate-correction.js';
import { separationProblem, type CorrectionAnswers } from './rules/verdict.js';
import { stopWords } from './stop-words.js';
import type { Cluster, MinerSession } from './types.js';

const wordsOf = (text: string): string[] =>
  (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_-]*/gu) ?? []).map((w) =>
    w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : w,
  );

/**
 * The intent without its sentences that state a follow-up: one holding a follow-up whole, two
 * distinctive words of one (3+ letters, no function word, in no wording of the request), or one that
 * the statement's own checks or rubric test ("imperative" of "commit subjects must be imperative"
 * after "write a commit message", judged by "the subject is imperative"). '' when every sentence did.
 */
export function withoutCorrections(
  intent: string,
  followUps: readonly string[],
  wordings: readonly string[],
  tested = '',
): string {
  const stop = stopWords();
  const asked = new Set(wordings.flatMap(wordsOf));
  const judged = new Set(wordsOf(tested));
  const distinctive = followUps.map(
    (f) => new Set(wordsOf(f).filter((w) => w.length >= 3 && !stop.has(w) && !asked.has(w))),
  );
  const flat = (text: string): string => wordsOf(text).join(' ');
  const whole = followUps.map(flat).filter((f) => f !== '');
  const sentences = intent.split(/(?<=[.!?;])\s+/);
  const kept = sentences.filter((sentence) => {
    const words = new Set(wordsOf(sentence));
    const text = flat(sentence);
    if (whole.some((f) => text.includes(f))) return false;
    return !distinctive.some((d) => {
      const shared = [...d].filter((w) => words.has(w));
      return shared.length >= 2 || shared.some((w) => judged.has(w));
    });
  });
  return kept.length === sentences.length ? intent : kept.join(' ').trim();
}

/** Ops whose checks test what the answer says or does, and so must separate a correction's answers. */
const SEPARATING_OPS: ReadonlySet<string> = new Set([
  'contains',
  'not_contains',
  MENTIONS,
  NOT_MENTIONS,
  'regex',
  ...ACTION_OPS,
]);

/** The cluster's corrections found again in their sessions, with the full answers they are judged on. */
export function correctionEvidence(
  cluster: Cluster,
  instances: readonly TaskRecord[],
  sessions: ReadonlyMap<string, MinerSession>,
): CorrectionAnswers[] {
  const intents = new Map(instances.map((t) => [t.source_sessions[0] ?? '', t.intent]));
  return cluster.correctionReports.flatMap((report) => {
    const session = sessions.get(report.sessionKey);
    if (session === undefined) return [];
    const nth = cluster.correctionReports
      .filter((r) => r.sessionKey === report.sessionKey && r.sentence === report.sentence)
      .indexOf(report);
    const answers = locateCorrection(session, intents.get(report.sessionKey) ?? '', report.sentence, nth);
    return answers === null ? [] : [answers];
  });
}

/**
 * A statement's content checks, each kept only when it separates one of the task's corrections
 * (`separationProblem`, the offline miner's test): a check the corrected answer already passes, or
 * that the accepted answer fails (a `not_contains "npm"` on "pnpm add zod"), measures nothing or can
 * never be met. A statement whose content checks all go is dropped (null). Without a correction to
 * judge on, the statement stays as validated.
 */
export function separatingChecks(
  statement: MinedStatement,
  evidence: readonly CorrectionAnswers[],
): { statement: MinedStatement | null; dropped: number } {
  const content = statement.checks.filter((c) => SEPARATING_OPS.has(c.op));
  if (evidence.length === 0 || content.length === 0) return { statement, dropped: 0 };
  const checks = statement.checks.filter(
    (c) => !SEPARATING_OPS.has(c.op) || evidence.some((answers) => separationProblem(c, answers) === null),
  );
  const dropped = statement.checks.length - checks.length;
  if (!checks.some((c) => SEPARATING_OPS.has(c.op))) return { statement: null, dropped };
  return { statement: { ...statement, checks }, dropped };
}
