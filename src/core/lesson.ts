/**
 * A lesson: what the user taught the agent, with its evidence. The unit a night learns: its rule is
 * the user's own sentence (never a pattern), its judge says how to tell that an answer follows it, and
 * its evidence says where and when it was said.
 */
import type { Check } from './task.js';

/** How the lesson was read: from the logs' structure, or by a model that read the follow-up. */
export type LessonOrigin = 'structure' | 'model';

export interface LessonEvidence {
  /** `<source>:<session id>`. */
  session: string;
  /** The prompt's index among the session's typed prompts (0-based). */
  turn: number;
  /** The user's prompt as typed (capped). */
  sentence: string;
  /** Why it counts: `check`, `recorded`, `recording`, `shouted`, `stopped`, `repeated`, `model`. */
  signals: string[];
  /** The answer the user pushed back on and the one that followed ('' for a standing preference). */
  rejected: string;
  accepted: string;
}

export interface Lesson {
  /** `lesson_` + 12 hex characters, stable while its first evidence stays. */
  id: string;
  /** One sentence in the user's words and language. */
  rule: string;
  /** The session whose sentence the rule is (the provenance of every task it judges). */
  rule_from: string;
  /** The project folder (or repository) its sessions ran in: a lesson never spans two. */
  project: string;
  /** The readable label of the task kind it was said on (the kind of its first evidence). */
  kind: string;
  /** The kinds (cluster ids) its evidence comes from. */
  kinds: string[];
  evidence: LessonEvidence[];
  /** Checks validated on the lesson's own sessions (fail the rejected answer, pass the accepted one). */
  checks: Check[];
  /** The rule as a criterion a model judges, when no check can tell the answers apart. */
  criterion: string | null;
  /** Distinct sessions it was said in. */
  support: number;
  origin: LessonOrigin;
  /** Set when a later lesson of the same project said the opposite. */
  retired_by?: string;
}
