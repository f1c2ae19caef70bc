/**
 * From classified prompts to lessons. Every correction or preference (`follow-ups.ts`), every follow-up
 * whose check the kind confirmed (`rules/kind-rules.ts`), and every repeated instruction
 * (`repeated-clauses.ts`) is a candidate; candidates of one project that share a check, repeat the
 * same clause, or say the same thing (most of their distinctive words in common, in any script) are
 * one lesson, with a support count and all their evidence. A lesson whose check a later lesson of the
 * project contradicts ("use X" then "avoid X") is retired by it.
 */
import { sha256Hex } from '../../core/hash.js';
import type { Lesson, LessonEvidence } from '../../core/lesson.js';
import { checkKey, type Check } from '../../core/task.js';
import { avoidedTerm, usedTerm } from '../../core/action-checks.js';
import { renderAnswer, type Episode } from '../episodes.js';
import { MAX_ANSWER_EXCERPT as MAX_ANSWER_CHARS, type FollowUpFinding } from '../rules/session-rules.js';
import { classifyPrompts, isNudge, type ClassifiedPrompt, type CorpusSignals } from './follow-ups.js';
import type { FollowUpReading } from '../model/read-follow-ups.js';
import { clauseKey, repeatedClauses, type PromptRef } from './repeated-clauses.js';
import { endsWithQuestion, jaccard, oneLineCut, textTokens } from './text.js';
import { MAX_RULE_CHARS } from './follow-ups.js';
import { dedupeChecks } from '../corrections.js';

/** One mined session as the lesson builder reads it. */
export interface LessonSession {
  sessionKey: string;
  /** The project folder or repository it ran in (lessons never span two). */
  project: string;
  /** What the lesson's id hashes in place of `project` (`MineOptions.idSpace`); default `project`. */
  idFolder?: string;
  /** Index of its task kind. */
  kind: number;
  startedAt: number | null;
  episodes: readonly Episode[];
  request: number;
  findings: readonly FollowUpFinding[];
  /** The kind's confirmed checks this session's follow-ups gave, by the follow-up's episode. */
  keptChecks: ReadonlyMap<number, readonly Check[]>;
  /** Keys of the kind's checks that recurred in two sessions or more. */
  recurringChecks: ReadonlySet<string>;
  /** What a model read in the session's follow-ups, by episode (none when no model read it). */
  readings?: ReadonlyMap<number, FollowUpReading>;
}

export interface KindRef {
  id: string;
  label: string;
}

interface Candidate {
  project: string;
  idFolder: string;
  kind: number;
  evidence: LessonEvidence;
  rule: string;
  checks: Check[];
  tokens: Set<string>;
  startedAt: number;
  /** Candidates of one repeated clause share it. */
  clause: string;
  /** Candidates read from one statement (said, then recorded) share it. */
  link: string;
}

const MAX_SENTENCE_CHARS = 300;
/** Two rules with this share of their distinctive words in common say the same thing. */
const SAME_RULE = 0.5;
const MIN_SHARED_TOKENS = 2;

export function buildLessons(
  sessions: readonly LessonSession[],
  kinds: readonly KindRef[],
  corpus: CorpusSignals,
  common: ReadonlySet<string>,
): Lesson[] {
  const candidates: Candidate[] = [];
  const prompts: PromptRef[] = [];
  const bySession = new Map(sessions.map((s) => [s.sessionKey, s]));
  for (const s of sessions) {
    const findings = new Map(s.findings.map((f) => [f.episode, f]));
    // A check the kind saw in two sessions confirms the correction: the same change, asked again.
    const confirmed = (episode: number): boolean =>
      (s.keptChecks.get(episode) ?? []).some((check) => s.recurringChecks.has(checkKey(check)));
    const classified = classifyPrompts(s.episodes, s.request, s.findings, corpus, confirmed);
    for (const read of classified) {
      const c = withReading(read, s.readings?.get(read.episode));
      prompts.push({
        sessionKey: s.sessionKey,
        kind: s.kind,
        episode: c.episode,
        prompt: s.episodes[c.episode]?.prompt ?? '',
        paused: pausedThenWent(s.episodes, c.episode),
      });
      if (c.class !== 'correction' && c.class !== 'preference') continue;
      const checks = [...(s.keptChecks.get(c.episode) ?? [])];
      // One recording (or its rewrites) is one lesson, whichever prompts it recorded.
      const link =
        c.recordedAt === undefined
          ? `${s.sessionKey}\u0000${c.episode}`
          : `${s.sessionKey}\u0000recorded\u0000${c.recordedAt}`;
      for (const at of [...c.alsoSaidAt, c.episode]) {
        const own = at === c.episode;
        candidates.push({
          ...candidate(s, at, own ? c.rule : oneLineCut(s.episodes[at]?.prompt ?? '', MAX_RULE_CHARS), {
            signals: c.signals,
            checks: own ? checks : [],
            finding: own ? findings.get(at) : undefined,
            common,
          }),
          link,
        });
      }
    }
  }
  const byProject = new Map<string, PromptRef[]>();
  for (const ref of prompts) {
    const project = bySession.get(ref.sessionKey)?.project ?? '';
    const refs = byProject.get(project);
    if (refs) refs.push(ref);
    else byProject.set(project, [ref]);
  }
  for (const [, refs] of byProject) {
    for (const repeated of repeatedClauses(refs, common)) {
      for (const occurrence of repeated.occurrences) {
        const s = bySession.get(occurrence.sessionKey);
        if (s === undefined) continue;
        candidates.push({
          ...candidate(s, occurrence.episode, oneLineCut(repeated.text, MAX_RULE_CHARS), {
            signals: ['repeated'],
            checks: [],
            finding: undefined,
            common,
          }),
          clause: clauseKey(repeated.text),
        });
      }
    }
  }
  return consolidate(candidates, kinds);
}

const works = (e: Episode | undefined): boolean =>
  e !== undefined && e.actions.some((a) => a.kind === 'run' || a.kind === 'edit' || a.kind === 'write');

/** The reply to prompt `k` did no work, the next prompt was a nudge, and its reply worked. */
function pausedThenWent(episodes: readonly Episode[], k: number): boolean {
  const next = episodes[k + 1];
  return !works(episodes[k]) && next !== undefined && isNudge(next.prompt) && works(next);
}

/**
 * A model's reading of the follow-up wins over its structure: a correction or preference it found
 * (general beyond this task) is a lesson in the model's wording; anything else is not.
 */
function withReading(c: ClassifiedPrompt, reading: FollowUpReading | undefined): ClassifiedPrompt {
  if (reading === undefined) return c;
  const taught = (reading.class === 'correction' || reading.class === 'preference') && reading.general;
  if (!taught) return { ...c, class: 'request', signals: [], alsoSaidAt: [] };
  return {
    ...c,
    class: reading.class === 'preference' ? 'preference' : 'correction',
    signals: ['model', ...c.signals.filter((x) => x !== 'model')],
    rule: oneLineCut(reading.rule, MAX_RULE_CHARS),
  };
}

function candidate(
  s: LessonSession,
  episode: number,
  rule: string,
  opts: {
    signals: string[];
    checks: Check[];
    finding: FollowUpFinding | undefined;
    common: ReadonlySet<string>;
  },
): Candidate {
  const prompt = s.episodes[episode]?.prompt ?? '';
  const before = s.episodes[episode - 1];
  const reply = s.episodes[episode];
  const standing = opts.signals.includes('repeated') || episode === s.request;
  return {
    project: s.project,
    idFolder: s.idFolder ?? s.project,
    kind: s.kind,
    evidence: {
      session: s.sessionKey,
      turn: episode,
      sentence: [...prompt.trim()].slice(0, MAX_SENTENCE_CHARS).join(''),
      signals: opts.signals,
      rejected: standing
        ? ''
        : (opts.finding?.rejected ?? (before ? renderAnswer(before) : '')).slice(0, MAX_ANSWER_CHARS),
      accepted: standing
        ? ''
        : (opts.finding?.accepted ?? (reply ? renderAnswer(reply) : '')).slice(0, MAX_ANSWER_CHARS),
    },
    rule,
    checks: opts.checks,
    tokens: distinctive(rule, opts.common),
    startedAt: s.startedAt ?? 0,
    clause: '',
    link: '',
  };
}

function distinctive(rule: string, common: ReadonlySet<string>): Set<string> {
  return new Set([...textTokens(rule)].filter((t) => !common.has(t)));
}

/** Union-find over candidates of one project: same check, same repeated clause, or the same words. */
function consolidate(candidates: readonly Candidate[], kinds: readonly KindRef[]): Lesson[] {
  const parent = candidates.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  const join = (a: number, b: number): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  const firstBy = new Map<string, number>();
  candidates.forEach((c, i) => {
    const keys = [
      ...c.checks.map((check) => `c\u0000${checkKey(check)}`),
      ...(c.clause !== '' ? [`r\u0000${c.clause}`] : []),
      ...(c.link !== '' ? [`l\u0000${c.link}`] : []),
      // The same typed prompt read twice (a correction that also repeats a clause) is one piece of evidence.
      `e\u0000${c.evidence.session}\u0000${c.evidence.turn}`,
    ];
    for (const key of keys) {
      const scoped = `${c.project}\u0000${key}`;
      const first = firstBy.get(scoped);
      if (first === undefined) firstBy.set(scoped, i);
      else join(first, i);
    }
  });
  joinSameWords(candidates, find, join);
  const groups = new Map<number, Candidate[]>();
  candidates.forEach((c, i) => {
    const root = find(i);
    const group = groups.get(root);
    if (group) group.push(c);
    else groups.set(root, [c]);
  });
  const lessons = [...groups.values()].map((group) => toLesson(group, kinds));
  retireContradicted(lessons, groups);
  return lessons.sort((a, b) => b.support - a.support || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Joins candidates that say the same thing (most of their words in common). Two that both carry checks
 * are the same lesson only by their checks ("use yarn, not pnpm" is worded like "use pnpm, not yarn"
 * and says the opposite), so words join a sentence without checks to any other. Sentences with the
 * very same words (one instruction said in many sessions) form one wording, and only wordings are
 * compared with each other: the pairs looked at grow with how many ways the user said things, not
 * with how often.
 */
function joinSameWords(
  candidates: readonly Candidate[],
  find: (i: number) => number,
  join: (a: number, b: number) => void,
): void {
  const byWords = new Map<string, number[]>();
  candidates.forEach((c, i) => {
    if (c.tokens.size < MIN_SHARED_TOKENS) return;
    const key = `${c.project}\u0000${[...c.tokens].sort().join('\u0000')}`;
    const members = byWords.get(key);
    if (members) members.push(i);
    else byWords.set(key, [i]);
  });
  const wordings = [...byWords.values()].map((members) => ({
    members,
    free: members.find((i) => (candidates[i] as Candidate).checks.length === 0),
  }));
  for (const w of wordings) if (w.free !== undefined) for (const m of w.members) join(w.free, m);
  const absorbed = new Set<number>();
  const joinWording = (free: number, other: number): void => {
    const w = wordings[other] as (typeof wordings)[number];
    if (w.free !== undefined || absorbed.has(other)) join(free, w.free ?? (w.members[0] as number));
    else {
      for (const m of w.members) join(free, m);
      absorbed.add(other);
    }
  };
  for (const [x, y] of sharingWords(candidates, wordings)) {
    const a = wordings[x] as (typeof wordings)[number];
    const b = wordings[y] as (typeof wordings)[number];
    if (a.free === undefined && b.free === undefined) continue;
    const ca = candidates[a.members[0] as number] as Candidate;
    const cb = candidates[b.members[0] as number] as Candidate;
    // One member stands for its wording only once the whole wording is joined.
    const whole = (w: (typeof wordings)[number], at: number): boolean =>
      w.free !== undefined || absorbed.has(at);
    if (whole(a, x) && whole(b, y) && find(a.members[0] as number) === find(b.members[0] as number)) continue;
    if (!sameWords(ca.tokens, cb.tokens)) continue;
    if (a.free !== undefined) joinWording(a.free, y);
    else joinWording(b.free as number, x);
  }
}

/**
 * The pairs of wordings of one project that share a word, each once: only they can say the same
 * thing. A word most of the project's sentences hold pairs nothing (it is how this user writes).
 */
function sharingWords(
  candidates: readonly Candidate[],
  wordings: ReadonlyArray<{ members: readonly number[] }>,
): Array<[number, number]> {
  const byWord = new Map<string, { wordings: number[]; sentences: number }>();
  wordings.forEach((w, x) => {
    const c = candidates[w.members[0] as number] as Candidate;
    for (const token of c.tokens) {
      const key = `${c.project}\u0000${token}`;
      const entry = byWord.get(key) ?? { wordings: [], sentences: 0 };
      entry.wordings.push(x);
      entry.sentences += w.members.length;
      byWord.set(key, entry);
    }
  });
  const perProject = new Map<string, number>();
  for (const c of candidates) perProject.set(c.project, (perProject.get(c.project) ?? 0) + 1);
  const seen = new Set<number>();
  const pairs: Array<[number, number]> = [];
  const n = wordings.length;
  for (const [key, { wordings: list, sentences }] of byWord) {
    const total = perProject.get(key.slice(0, key.indexOf('\u0000'))) ?? 0;
    if (list.length < 2 || (total >= 8 && sentences * 2 > total)) continue;
    for (let p = 0; p < list.length; p++) {
      for (let q = p + 1; q < list.length; q++) {
        const x = list[p] as number;
        const y = list[q] as number;
        const id = x * n + y;
        if (seen.has(id)) continue;
        seen.add(id);
        pairs.push([x, y]);
      }
    }
  }
  return pairs;
}

function sameWords(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size < MIN_SHARED_TOKENS || b.size < MIN_SHARED_TOKENS) return false;
  return jaccard(a, b) >= SAME_RULE;
}

function toLesson(group: readonly Candidate[], kinds: readonly KindRef[]): Lesson {
  const ordered = [...group].sort(
    (a, b) =>
      a.startedAt - b.startedAt ||
      (a.evidence.session < b.evidence.session ? -1 : a.evidence.session > b.evidence.session ? 1 : 0) ||
      a.evidence.turn - b.evidence.turn,
  );
  const first = ordered[0] as Candidate;
  const evidence: LessonEvidence[] = [];
  const byPrompt = new Map<string, LessonEvidence>();
  for (const c of ordered) {
    const key = `${c.evidence.session}\u0000${c.evidence.turn}`;
    const known = byPrompt.get(key);
    if (known) {
      for (const signal of c.evidence.signals)
        if (!known.signals.includes(signal)) known.signals.push(signal);
      continue;
    }
    const piece = { ...c.evidence, signals: [...c.evidence.signals] };
    byPrompt.set(key, piece);
    evidence.push(piece);
  }
  const checks = dedupeChecks(ordered.flatMap((c) => c.checks));
  const ruleSource = representative(ordered);
  const kindIds = [...new Set(ordered.map((c) => kinds[c.kind]?.id ?? ''))].filter((id) => id !== '');
  return {
    id: `lesson_${sha256Hex(`${first.idFolder}\u0000${first.evidence.session}\u0000${first.evidence.turn}`).slice(0, 12)}`,
    rule: ruleSource.rule,
    rule_from: ruleSource.evidence.session,
    project: first.project,
    kind: kinds[first.kind]?.label ?? '',
    kinds: kindIds,
    evidence,
    checks: checks.map((check) => ({ ...check, because: ruleSource.rule })),
    criterion: checks.length > 0 ? null : ruleSource.rule,
    support: new Set(evidence.map((e) => e.session)).size,
    origin: evidence.some((e) => e.signals.includes('model')) ? 'model' : 'structure',
  };
}

/**
 * The rule is one of the user's own sentences: among those that gave a check (else all), the one that
 * says most of what the others say (its words held by most of the others), a statement before a question
 * ("why npm? this repo is pnpm only"), the first said on a tie.
 */
function representative(ordered: readonly Candidate[]): Candidate {
  const withChecks = ordered.filter((c) => c.checks.length > 0);
  const pool = withChecks.length > 0 ? withChecks : ordered;
  // How many of the pool's sentences hold each word: a sentence whose words the others hold says
  // what they say (linear in the words, where comparing every pair is not).
  const held = new Map<string, number>();
  for (const c of pool) for (const token of c.tokens) held.set(token, (held.get(token) ?? 0) + 1);
  let best = pool[0] as Candidate;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const c of pool) {
    let shared = 0;
    for (const token of c.tokens) shared += (held.get(token) ?? 1) - 1;
    const overlap = c.tokens.size === 0 ? 0 : shared / c.tokens.size / Math.max(1, pool.length - 1);
    const score = overlap - (endsWithQuestion(c.rule) || c.rule.includes('?') ? 1 : 0);
    if (score > bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}

/** The term a check asks for or forbids (in the text or in the answer's actions), lower-cased. */
function termOf(check: Check): { term: string; sign: 'use' | 'avoid' } | null {
  const used = usedTerm(check);
  if (used !== null) return { term: used.toLowerCase(), sign: 'use' };
  const avoided = avoidedTerm(check);
  return avoided === null ? null : { term: avoided.toLowerCase(), sign: 'avoid' };
}

/** Of two lessons of a project that ask for and forbid the same term, the one said last stands. */
function retireContradicted(lessons: Lesson[], groups: ReadonlyMap<number, Candidate[]>): void {
  const last = new Map<string, number>();
  [...groups.values()].forEach((group, i) => {
    const id = lessons[i]?.id;
    if (id !== undefined) last.set(id, Math.max(...group.map((c) => c.startedAt)));
  });
  for (const a of lessons) {
    for (const b of lessons) {
      if (a === b || a.project !== b.project || a.retired_by !== undefined) continue;
      const opposite = a.checks.some((ca) => {
        const ta = termOf(ca);
        return (
          ta !== null &&
          b.checks.some((cb) => {
            const tb = termOf(cb);
            return tb !== null && tb.term === ta.term && tb.sign !== ta.sign;
          })
        );
      });
      if (opposite && (last.get(a.id) ?? 0) < (last.get(b.id) ?? 0)) a.retired_by = b.id;
    }
  }
}
