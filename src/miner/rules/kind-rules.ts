/**
 * The rules of one task kind, from the corrections of its sessions. A rule is confirmed when the same
 * change recurs in {@link MIN_SESSIONS} corrected sessions of the kind; a term the user quoted or
 * backticked (`uv add`) and a shape whose changed lines hold a word of the user's sentence hold from
 * one session. A change seen once and not named stays a rubric criterion. A kind never keeps both "use X" and "avoid X". A correction that gives no
 * check is kept in the user's words as a rubric criterion when the user gave it in more than one
 * session of the kind, or when the corrected answer took out part of the rejected one; never when it
 * is feedback this user gives across kinds ("still broken", "sorry, go on"): the same words in the
 * follow-ups of several kinds say nothing about any one of them. Of two checks where one implies the
 * other (`contains "vitest --run"`, `contains "--run"`), the better supported stays.
 */
import { avoidedTerm, usedTerm } from '../../core/action-checks.js';
import { mentionsWord } from '../../core/negative-check.js';
import type { Check } from '../../core/task.js';
import { evaluateCheck } from '../../replay/judges/rule-checks.js';
import { arrangeChecks } from '../corrections.js';
import { MAX_ANSWER_EXCERPT, type FollowUpFinding } from './session-rules.js';

const MIN_SESSIONS = 2;
const MIN_NAMED_WORD = 4;
/** Most rubric criteria a kind keeps. */
export const MAX_CRITERIA = 6;

/** Corrections that are never rules, whoever reads them (the model pass does not send them). */
export const PASTED_REASON = 'a pasted log or text, not a rule';
export const GENERIC_REASON = 'feedback the user gives on other kinds too';

export interface SessionFindings {
  sessionKey: string;
  findings: readonly FollowUpFinding[];
}

export type CorrectionResult = 'checks' | 'rubric' | 'none';

export interface CorrectionReport {
  sessionKey: string;
  sentence: string;
  result: CorrectionResult;
  /** The checks it gave (result 'checks'). */
  checks: Check[];
  /** Why it gave nothing (result 'none'). */
  reason: string;
  /** The answer the user reacted to and the one that followed (capped): what a model reads the rule from. */
  rejected: string;
  accepted: string;
}

export interface KindRules {
  checks: Check[];
  /** Same order as `checks`: the session and sentence each check came from (the first that gave it). */
  sources: Array<{ check: Check; sessionKey: string; sentence: string }>;
  criteria: string[];
  corrections: CorrectionReport[];
  /** Per session, per follow-up (episode index): the kind's confirmed checks that follow-up gave. */
  keptByFollowUp: Map<string, Map<number, Check[]>>;
  /** Keys (`op`, NUL, `arg`) of the kept checks that recurred in two sessions or more. */
  recurring: Set<string>;
}

interface Candidate {
  check: Check;
  named: boolean;
  sessions: Set<string>;
  first: { sessionKey: string; sentence: string };
}

const keyOf = (check: Check): string => `${check.op}\u0000${String(check.arg ?? '')}`;

/**
 * `generic`: the keys (see {@link sentenceKey}) of follow-ups this user also writes in other kinds;
 * `common`: the words this user writes in many prompts.
 */
export function kindRules(
  members: readonly SessionFindings[],
  generic: ReadonlySet<string>,
  common: ReadonlySet<string>,
): KindRules {
  const candidates = new Map<string, Candidate>();
  const note = (check: Check, named: boolean, sessionKey: string, sentence: string): void => {
    const key = keyOf(check);
    const entry = candidates.get(key) ?? {
      check,
      named: false,
      sessions: new Set(),
      first: { sessionKey, sentence },
    };
    entry.named ||= named;
    entry.sessions.add(sessionKey);
    candidates.set(key, entry);
  };
  for (const member of members) {
    for (const finding of member.findings) {
      for (const literal of finding.literal)
        note(literal.check, literal.quoted, member.sessionKey, finding.sentence);
      for (const shape of finding.shapes) {
        note(
          shape.check,
          !shape.verbatim && namesAWordOf(finding.sentence, shape.evidence),
          member.sessionKey,
          finding.sentence,
        );
      }
    }
  }
  const kept = new Map([...candidates].filter(([, c]) => c.named || c.sessions.size >= MIN_SESSIONS));
  dropContradicted(kept, members);
  dropContradictions(kept);
  const impliedBy = dropImplied(kept);
  const ordered = [...kept.values()];
  const arranged = arrangeChecks(
    ordered.map((c) => c.check),
    ordered.map((c) => pairKey(c, members, kept)),
  );
  const byKey = new Map(ordered.map((c) => [keyOf(c.check), c]));
  const sources = arranged.checks.map((check) => {
    const origin = byKey.get(keyOf(check))?.first ?? { sessionKey: '', sentence: '' };
    return { check, ...origin };
  });
  const keptOf = (finding: FollowUpFinding): Check[] =>
    unique(
      [...finding.literal.map((l) => l.check), ...finding.shapes.map((s) => s.check)]
        .map((check) => kept.get(impliedBy.get(keyOf(check)) ?? keyOf(check))?.check)
        .filter((check): check is Check => check !== undefined),
    );
  const keptByFollowUp = new Map<string, Map<number, Check[]>>();
  for (const member of members) {
    for (const finding of member.findings) {
      const checks = keptOf(finding);
      if (checks.length === 0) continue;
      const perSession = keptByFollowUp.get(member.sessionKey) ?? new Map<number, Check[]>();
      perSession.set(finding.episode, checks);
      keptByFollowUp.set(member.sessionKey, perSession);
    }
  }
  const corrections: CorrectionReport[] = [];
  const criteria: string[] = [];
  const repeated = new Map<string, Set<string>>();
  for (const member of members) {
    for (const finding of member.findings) {
      const key = sentenceKey(finding.sentence, common);
      repeated.set(key, (repeated.get(key) ?? new Set()).add(member.sessionKey));
    }
  }
  for (const member of members) {
    for (const finding of member.findings) {
      if (!finding.redo) continue;
      const key = sentenceKey(finding.sentence, common);
      const checks = keptOf(finding);
      const report: CorrectionReport = {
        sessionKey: member.sessionKey,
        sentence: finding.sentence,
        result: 'none',
        checks,
        reason: '',
        rejected: finding.rejected.slice(0, MAX_ANSWER_EXCERPT),
        accepted: finding.accepted.slice(0, MAX_ANSWER_EXCERPT),
      };
      const named = finding.literal.length > 0;
      if (checks.length > 0) report.result = 'checks';
      else if (finding.pasted) report.reason = PASTED_REASON;
      else if (key === '' || generic.has(key)) report.reason = GENERIC_REASON;
      else if (!named && finding.shapes.length > 0) report.reason = 'the change was seen in one session only';
      else if (!hasWords(finding.sentence)) report.reason = 'too short to be a rule';
      else if (!named && (repeated.get(key)?.size ?? 0) < 2 && !finding.replaced)
        report.reason = 'said once, and the answer only grew';
      else {
        // A named change seen once is not confirmed as a check; the user's words still state it.
        report.result = 'rubric';
        if (criteria.length < MAX_CRITERIA && !criteria.includes(finding.sentence))
          criteria.push(finding.sentence);
      }
      corrections.push(report);
    }
  }
  const recurring = new Set([...kept].filter(([, c]) => c.sessions.size >= MIN_SESSIONS).map(([key]) => key));
  return { checks: arranged.checks, sources, criteria, corrections, keptByFollowUp, recurring };
}

/**
 * What `arrangeChecks` pairs checks by: a "use X" and an "avoid Y" one correction gave together stay
 * a pair (the mock reads them as "Use X instead of Y"), even when other sessions gave them first.
 */
function pairKey(
  candidate: Candidate,
  members: readonly SessionFindings[],
  kept: ReadonlyMap<string, Candidate>,
): string {
  const key = keyOf(candidate.check);
  for (const member of members) {
    for (const finding of member.findings) {
      const keys = finding.literal.map((l) => keyOf(l.check)).filter((k) => kept.has(k));
      const signs = new Set(finding.literal.filter((l) => kept.has(keyOf(l.check))).map((l) => l.sign));
      if (keys.includes(key) && signs.size === 2) return `${member.sessionKey}\u0000${finding.sentence}`;
    }
  }
  return candidate.first.sentence;
}

/** A word of the sentence (4+ letters) appears in the changed lines or their context. */
function namesAWordOf(sentence: string, evidence: string): boolean {
  const words = (sentence.toLowerCase().match(/\p{L}+/gu) ?? []).filter((w) => w.length >= MIN_NAMED_WORD);
  const text = evidence.toLowerCase();
  return words.some((word) => text.includes(word));
}

/**
 * A check only one session gave must hold on most answers the user accepted after the kind's other
 * corrections: "e.g. `Add retry to client`" in one session is an example, not the rule.
 */
function dropContradicted(kept: Map<string, Candidate>, members: readonly SessionFindings[]): void {
  const accepted = new Map<string, string>();
  for (const member of members) {
    for (const finding of member.findings) {
      if (finding.literal.length > 0 || finding.shapes.length > 0)
        accepted.set(member.sessionKey, finding.accepted);
    }
  }
  for (const [key, candidate] of kept) {
    if (candidate.sessions.size > 1) continue;
    const others = [...accepted]
      .filter(([session]) => !candidate.sessions.has(session))
      .map(([, text]) => text);
    if (others.length === 0) continue;
    const holds = others.filter((text) => evaluateCheck(candidate.check, text, []).pass).length;
    if (holds * 2 < others.length) kept.delete(key);
  }
}

/** "use X" and "avoid X" in one kind cancel out, whether said or done (`runs X`, `not_mentions X`). */
function dropContradictions(kept: Map<string, Candidate>): void {
  const terms = new Map<string, string[]>();
  for (const [key, c] of kept) {
    const term = termOf(c.check);
    if (term !== null) terms.set(term, [...(terms.get(term) ?? []), key]);
  }
  for (const keys of terms.values()) {
    const signs = new Set(keys.map((key) => usedTerm(kept.get(key)?.check ?? { op: '' }) !== null));
    if (signs.size > 1) for (const key of keys) kept.delete(key);
  }
}

function termOf(check: Check): string | null {
  return (usedTerm(check) ?? avoidedTerm(check))?.toLowerCase() ?? null;
}

const KEYS = new WeakMap<ReadonlySet<string>, Map<string, string>>();

/** A follow-up's distinctive words, sorted: how repeated and generic feedback is recognised. */
export function sentenceKey(sentence: string, common: ReadonlySet<string>): string {
  let keys = KEYS.get(common);
  if (keys === undefined) {
    keys = new Map();
    KEYS.set(common, keys);
  }
  const known = keys.get(sentence);
  if (known !== undefined) return known;
  const words = (sentence.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? []).filter((w) => !common.has(w));
  const key = [...new Set(words)].sort().join(' ');
  keys.set(sentence, key);
  return key;
}

/**
 * Of two checks of the same kind and sign where one term holds the other, keep the better supported.
 * Returns dropped key → the key that stayed.
 */
function dropImplied(kept: Map<string, Candidate>): Map<string, string> {
  const implied = new Map<string, string>();
  const entries = [...kept].map(([key, c]) => ({ key, c, term: termOf(c.check), op: c.check.op }));
  for (const a of entries) {
    for (const b of entries) {
      if (a === b || a.term === null || b.term === null || a.op !== b.op) continue;
      if (!kept.has(a.key) || !kept.has(b.key) || !mentionsWord(a.term, b.term)) continue;
      const aWins =
        a.c.sessions.size > b.c.sessions.size ||
        (a.c.sessions.size === b.c.sessions.size && a.term.length < b.term.length);
      const [winner, loser] = aWins ? [a.key, b.key] : [b.key, a.key];
      kept.delete(loser);
      implied.set(loser, winner);
    }
  }
  for (const [loser, winner] of implied) {
    let final = winner;
    while (implied.has(final)) final = implied.get(final) as string;
    implied.set(loser, final);
  }
  return implied;
}

function unique(checks: readonly Check[]): Check[] {
  const seen = new Set<string>();
  return checks.filter((check) => {
    const key = keyOf(check);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function hasWords(sentence: string): boolean {
  return (sentence.match(/\p{L}{2,}/gu) ?? []).length >= 3;
}
