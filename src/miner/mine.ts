/**
 * The miner: screens harvested sessions, clusters them into recurring tasks by what their first
 * intents mean (`cluster.ts`), turns the user's corrections into checks (remembering the session and
 * sentence of each), and emits one replayable task per session of the most recurrent clusters.
 */
import type { HarvestedSession } from '../../harvesters/types.js';
import { sha256Hex } from '../core/hash.js';
import type { Check, Outcome, TaskRecord } from '../core/task.js';
import { clusterIntents } from './cluster.js';
import { arrangeChecks, correctionsToChecks, dedupeChecks, filterUsefulChecks } from './corrections.js';
import type { CorrectionPattern } from './correction-patterns.js';
import { isReplayPrompt, normalizeIntent, userPrompts } from './normalize-intent.js';
import { feedbackSignals, labelOutcome } from './outcome.js';
import type {
  CheckSource,
  Cluster,
  CorrectionChecks,
  DroppedCounts,
  LabeledOutcome,
  MinedNight,
  MineOptions,
  MinerSession,
} from './types.js';

const MIN_INTENT_CHARS = 8;
const MAX_INTENT_CHARS = 800;
const EXCERPT_PROMPT_CHARS = 200;
const EXCERPT_TOTAL_CHARS = 600;
const EXCERPT_HEADER = 'Follow-up constraints from the same session:';
const MAX_TOOL_TAGS = 4;

/** A session that passed screening, with everything the miner derives from it. */
interface Observation {
  session: MinerSession;
  /** The first real prompt, trimmed and not yet truncated. */
  intent: string;
  outcome: LabeledOutcome;
  corrections: CorrectionChecks;
  /** Each of `corrections.checks` once, with the sentence it was read from. */
  sources: SourcedCheck[];
  /** The follow-ups shown to the target with the task (see {@link contextExcerpt}). */
  excerpt: string;
}

interface SourcedCheck {
  check: Check;
  sentence: string;
}

type Screening = { keep: true; intent: string } | { keep: false; reason: keyof DroppedCounts };

export function mineSessions(sessions: readonly MinerSession[], opts: MineOptions): MinedNight {
  const dropped: DroppedCounts = { meta: 0, short: 0, replay: 0 };
  const observations: Observation[] = [];
  for (const session of sessions) {
    const screening = screenSession(session);
    if (screening.keep) observations.push(observe(session, screening.intent, opts.correctionPatterns ?? []));
    else dropped[screening.reason] += 1;
  }
  const groups = groupBySimilarIntent(observations);
  const membersById = new Map<string, Observation[]>();
  const clusters = groups
    .map((members) => {
      const cluster = buildCluster(opts.project, members);
      membersById.set(cluster.id, members);
      return cluster;
    })
    .sort(compareClusters)
    .slice(0, Math.max(0, opts.maxTasks));
  const tasks = clusters.flatMap((cluster) =>
    (membersById.get(cluster.id) ?? []).map((member) => toTask(opts.project, cluster, member)),
  );
  return { clusters, tasks, dropped };
}

/** Drops our own replays first (they may also look short or meta), then prompt-less and tiny ones. */
function screenSession(session: HarvestedSession): Screening {
  const firstUserText = session.turns.find((turn) => turn.role === 'user' && turn.text.trim() !== '')?.text;
  const prompt = userPrompts(session.turns)[0];
  if ([firstUserText, prompt?.text].some((text) => text !== undefined && isReplayPrompt(text))) {
    return { keep: false, reason: 'replay' };
  }
  if (prompt === undefined) return { keep: false, reason: 'meta' };
  if (prompt.text.length < MIN_INTENT_CHARS) return { keep: false, reason: 'short' };
  return { keep: true, intent: prompt.text };
}

function observe(session: MinerSession, intent: string, patterns: readonly CorrectionPattern[]): Observation {
  const attempt = firstAttempt(session);
  const prompts = userPrompts(session.turns).slice(1);
  const parsedAll = prompts.map((prompt) => correctionsToChecks(prompt.text, patterns));
  const followUps = parsedAll.map((parsed) => {
    // Keep only checks the corrected answer fails: a check it already passes teaches nothing.
    const useful = filterUsefulChecks(parsed.checks, parsed.evidence, attempt);
    return { ...parsed, checks: useful.checks, evidence: useful.evidence };
  });
  const corrections = mergeCorrections(followUps);
  const plain = prompts.filter(
    (prompt, i) => (parsedAll[i]?.checks.length ?? 0) === 0 && !negativeFeedback(prompt.text),
  );
  return {
    session,
    intent,
    outcome: labelOutcome(session),
    corrections,
    sources: dedupeSources(followUps.flatMap(sourcedChecks)),
    excerpt: contextExcerpt(plain.map((prompt) => prompt.text)),
  };
}

/**
 * Pairs each check of one message with its sentence: the parser's `evidence` when it gives one,
 * else the first correction sentence that yields the check on its own.
 */
function sourcedChecks(result: CorrectionChecks): SourcedCheck[] {
  const { checks, evidence } = result;
  return checks.map((check, i) => ({
    check,
    sentence: evidence?.[i] ?? sentenceOf(check, result.corrections),
  }));
}

function sentenceOf(check: Check, sentences: readonly string[]): string {
  const key = checkKey(check);
  return sentences.find((s) => correctionsToChecks(s).checks.some((c) => checkKey(c) === key)) ?? '';
}

function dedupeSources(sources: readonly SourcedCheck[]): SourcedCheck[] {
  const seen = new Set<string>();
  return sources.filter(({ check }) => {
    const key = checkKey(check);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The identity `dedupeChecks` uses: same op and same argument. */
function checkKey(check: Check): string {
  return `${check.op}\u0000${String(check.arg ?? '')}`;
}

/** An intent made only of stop words must not merge with every other such intent. */
function normalizeIntentOrFallback(intent: string): string {
  const normalized = normalizeIntent(intent);
  return normalized !== '' ? normalized : intent.toLowerCase().replace(/\s+/g, ' ');
}

function mergeCorrections(parts: readonly CorrectionChecks[]): CorrectionChecks {
  return {
    checks: dedupeChecks(parts.flatMap((part) => part.checks)),
    corrections: unique(parts.flatMap((part) => part.corrections)),
    unparsed: unique(parts.flatMap((part) => part.unparsed)),
  };
}

/** Clusters of observations whose intents mean the same task, members sorted oldest first. */
function groupBySimilarIntent(observations: readonly Observation[]): Observation[][] {
  return clusterIntents(observations.map((o) => o.intent)).map((indices) =>
    indices.flatMap((i) => observations[i] ?? []).sort(compareByStart),
  );
}

function compareByStart(a: Observation, b: Observation): number {
  const timeA = sessionStart(a.session) ?? Number.NEGATIVE_INFINITY;
  const timeB = sessionStart(b.session) ?? Number.NEGATIVE_INFINITY;
  return timeA - timeB || compareText(a.session.key, b.session.key);
}

/**
 * The id and normal form come from the earliest member, so sessions added on later nights keep the
 * id; the shown intent is the most recent member's wording.
 */
function buildCluster(project: string, members: readonly Observation[]): Cluster {
  const normalized = normalizeIntentOrFallback(members[0]?.intent ?? '');
  const outcomes: Record<Outcome, number> = { success: 0, fail: 0, mixed: 0, unknown: 0 };
  let firstSeen: number | null = null;
  let lastSeen: number | null = null;
  for (const member of members) {
    outcomes[member.outcome.outcome] += 1;
    const start = sessionStart(member.session);
    const end = sessionEnd(member.session);
    if (start != null && (firstSeen == null || start < firstSeen)) firstSeen = start;
    if (end != null && (lastSeen == null || end > lastSeen)) lastSeen = end;
  }
  const checkSources: CheckSource[] = members.flatMap((m) =>
    m.sources.map(({ check, sentence }) => ({ check: { ...check }, sessionKey: m.session.key, sentence })),
  );
  return {
    id: clusterId(project, normalized),
    normalizedIntent: normalized,
    intent: members.at(-1)?.intent ?? '',
    members: members.map((m) => m.session.key),
    occurrences: members.length,
    firstSeen,
    lastSeen,
    outcomes,
    // Pairs ("use X" + "not Y") stay adjacent whatever order the members gave them in.
    checks: mergedChecks(members),
    corrections: unique(members.flatMap((m) => m.corrections.corrections)),
    checkSources,
  };
}

/** The cluster's checks, once each, with "use X" + "not Y" pairs kept adjacent across members. */
function mergedChecks(members: readonly Observation[]): Check[] {
  const merged = dedupeSources(members.flatMap((m) => m.sources));
  return arrangeChecks(
    merged.map((s) => s.check),
    merged.map((s) => s.sentence),
  ).checks;
}

/** Most recurrent first, then most recent, then by id so equal clusters keep a stable order. */
function compareClusters(a: Cluster, b: Cluster): number {
  const lastA = a.lastSeen ?? Number.NEGATIVE_INFINITY;
  const lastB = b.lastSeen ?? Number.NEGATIVE_INFINITY;
  return b.occurrences - a.occurrences || lastB - lastA || compareText(a.id, b.id);
}

/**
 * Stable across nights: the same project and normal form always give the same id. A cluster's id
 * uses the normal form of its earliest member.
 */
export function clusterId(project: string, normalizedIntent: string): string {
  return `task_${sha256Hex(`${project}::${normalizedIntent}`).slice(0, 12)}`;
}

/**
 * One replayable instance per session. Session keys are unique across projects, so the id (and with it
 * the hash split) does not change when a project folder moves.
 */
export function instanceId(sessionKey: string): string {
  return `inst_${sha256Hex(sessionKey).slice(0, 12)}`;
}

function toTask(project: string, cluster: Cluster, member: Observation): TaskRecord {
  const { session } = member;
  const checks: Check[] = cluster.checks.map((check) => ({ ...check }));
  const tools = session.toolsUsed.slice(0, MAX_TOOL_TAGS);
  const skills = unique(session.skillsUsed);
  return {
    id: instanceId(session.key),
    project,
    intent: truncateIntent(member.intent),
    context_excerpt: member.excerpt,
    system: '',
    attempted_solution: firstAttempt(session),
    outcome: member.outcome.outcome,
    reference_kind: checks.length > 0 ? 'rule' : 'none',
    reference: '',
    judge: checks.length > 0 ? { kind: 'rule', checks } : {},
    tags: [`cluster:${cluster.id}`, ...(tools.length > 0 ? [`tools:${tools.join('+')}`] : [])],
    source_sessions: [session.key],
    split: 'train',
    origin: 'real',
    derived_from: cluster.id,
    skill_hint: skills.length === 1 ? (skills[0] ?? '') : '',
  };
}

function truncateIntent(intent: string): string {
  return intent.length > MAX_INTENT_CHARS ? `${intent.slice(0, MAX_INTENT_CHARS)} …` : intent;
}

/**
 * Prompts 2–4 of the session, as the reference shows them to the target, minus the user's
 * corrections (parsed once, in `observe`, with the config's patterns too): those are what the skill
 * must learn, and handing them to the target with the task would make the baseline pass and hide the
 * lesson (the reference sends them).
 */
function contextExcerpt(followUps: readonly string[]): string {
  const shown = followUps.slice(0, 3);
  if (shown.length === 0) return '';
  const lines = shown.map((text) => `- ${text.slice(0, EXCERPT_PROMPT_CHARS)}`);
  return [EXCERPT_HEADER, ...lines].join('\n').slice(0, EXCERPT_TOTAL_CHARS);
}

/**
 * The agent's answer to the task before the user corrected anything: its text between the first
 * and the second prompt. When that is empty (only tool calls), the last text it wrote before the
 * first correction. The mock target replays this, so later fixes never leak into the baseline.
 */
export function firstAttempt(session: HarvestedSession): string {
  const prompts = userPrompts(session.turns);
  const first = prompts[0];
  if (first === undefined) return '';
  const secondIndex = prompts[1]?.index ?? session.turns.length;
  const direct = assistantTexts(session, first.index + 1, secondIndex);
  if (direct.length > 0) return direct.join('\n');

  const correction = prompts.slice(1).find((prompt) => isCorrection(prompt.text));
  const before = assistantTexts(session, first.index + 1, correction?.index ?? session.turns.length);
  return before.at(-1) ?? '';
}

function assistantTexts(session: HarvestedSession, from: number, to: number): string[] {
  return session.turns
    .slice(from, to)
    .filter((turn) => turn.role === 'assistant')
    .map((turn) => turn.text.trim())
    .filter((text) => text !== '');
}

/** A follow-up that implies a check or carries negative feedback. */
function isCorrection(text: string): boolean {
  return correctionsToChecks(text).checks.length > 0 || negativeFeedback(text);
}

function negativeFeedback(text: string): boolean {
  return feedbackSignals(text).some((signal) => signal.startsWith('neg:'));
}

function sessionStart(session: HarvestedSession): number | null {
  return session.startedAt ?? session.endedAt;
}

function sessionEnd(session: HarvestedSession): number | null {
  return session.endedAt ?? session.startedAt;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** Code-unit order, independent of the locale the process runs in. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
