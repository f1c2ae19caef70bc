/**
 * Instructions a user keeps repeating: a clause of four words or more that this user wrote in the
 * prompts of at least {@link MIN_SESSIONS} sessions, around different requests, in two kinds of task
 * or more, where the agent, each time, stopped before working and went on once the user said so
 * ("list your plan and wait for my approval" under every request): the agent's pause shows the clause
 * was about how to work. A repeated clause the agent just worked through is part of what was asked
 * (a pasted form filled in again, "for ONE use case", shouting or not). A clause repeated only within one kind,
 * unshouted, is that kind's request ("and update the lockfile"); a whole prompt sent again is the
 * same request again; a clause naming a path or a link is a detail of a task; and a prompt's opening
 * clause states what is asked, so only the clauses after it count.
 */
import { clauses, textTokens, wordUnits } from './text.js';

const MIN_SESSIONS = 2;
const MIN_KINDS = 2;
const MIN_UNITS = 4;
/** Words (or character pairs) of the clause this user does not write in many prompts. */
const MIN_DISTINCTIVE = 2;
/** A clause this long is a pasted paragraph, not an instruction. */
const MAX_UNITS = 40;

export interface PromptRef {
  sessionKey: string;
  /** The task kind (group index) of the session. */
  kind: number;
  episode: number;
  prompt: string;
  /** The agent answered without working, and worked once the user only said to go on. */
  paused: boolean;
}

export interface RepeatedClause {
  /** The clause as first written. */
  text: string;
  occurrences: Array<{ sessionKey: string; episode: number; prompt: string }>;
}

export function clauseKey(clause: string): string {
  return clause
    .toLowerCase()
    .replace(/\d+/g, '0')
    .replace(/[\s\p{P}\p{S}]+/gu, ' ')
    .trim();
}

const DETAIL = /[\\/]|:\/\/|`|\.\p{L}{1,8}\b/u;

/** The repeated clauses among one partition's prompts, in order of first appearance. */
export function repeatedClauses(
  prompts: readonly PromptRef[],
  common: ReadonlySet<string> = new Set(),
): RepeatedClause[] {
  const seen = new Map<
    string,
    {
      text: string;
      sessions: Set<string>;
      kinds: Set<number>;
      prompts: Set<string>;
      paused: number;
      occurrences: RepeatedClause['occurrences'];
    }
  >();
  for (const ref of prompts) {
    const own = clauses(ref.prompt);
    // A prompt that is only this clause is a request sent again ("commit"), not an instruction.
    if (own.length < 2) continue;
    // The opening clause says what is asked ("I keep hitting problems with kafka"); an instruction
    // about how to do it follows the request.
    for (const clause of own.slice(1)) {
      const units = wordUnits(clause);
      if (units < MIN_UNITS || units > MAX_UNITS || DETAIL.test(clause)) continue;
      // "where do I start", "can you fix it": a phrase of common words says how one asks, not what.
      if ([...textTokens(clause)].filter((t) => !common.has(t)).length < MIN_DISTINCTIVE) continue;
      const key = clauseKey(clause);
      const entry = seen.get(key) ?? {
        text: clause,
        sessions: new Set(),
        kinds: new Set(),
        prompts: new Set(),
        paused: 0,
        occurrences: [],
      };
      if (ref.paused) entry.paused += 1;
      entry.sessions.add(ref.sessionKey);
      entry.kinds.add(ref.kind);
      entry.prompts.add(ref.prompt.trim());
      entry.occurrences.push({ sessionKey: ref.sessionKey, episode: ref.episode, prompt: ref.prompt });
      seen.set(key, entry);
    }
  }
  return [...seen.values()]
    .filter(
      (e) =>
        e.sessions.size >= MIN_SESSIONS &&
        e.prompts.size >= 2 &&
        e.kinds.size >= MIN_KINDS &&
        e.paused >= MIN_SESSIONS,
    )
    .map((e) => ({ text: e.text, occurrences: e.occurrences }));
}
