/**
 * The miner: reads each session as a request and its follow-ups (`episodes.ts`, `request.ts`),
 * groups sessions into task kinds by what was asked and what the agent did (`kinds/`), reads the
 * kind's rules from what its corrections changed (`rules/`), and emits one replayable task per
 * session. Everything it learns about words comes from this project's own sessions.
 */
import type { ToolAction } from '../core/session.js';
import { sha256Hex } from '../core/hash.js';
import { oneLine } from '../core/one-line.js';
import { checkKey, type Check, type Outcome, type TaskRecord } from '../core/task.js';
import { correctionsToChecks, filterUsefulChecks } from './corrections.js';
import { renderAnswer, type Episode } from './episodes.js';
import { groupKinds } from './kinds/kinds.js';
import { normalizeIntent } from './normalize-intent.js';
import { sessionFeatures } from './session-features.js';
import { chooseRequest, corpusPreambles } from './request.js';
import { kindRules, sentenceKey, type KindRules } from './rules/kind-rules.js';
import { commonPromptWords } from './rules/literal.js';
import { commandWordsOf } from './stop-words.js';
import { followUpFindings, type FollowUpFinding } from './rules/session-rules.js';
import { taskContext } from './task-context.js';
import type {
  Cluster,
  DroppedCounts,
  LabeledOutcome,
  MinedNight,
  MineOptions,
  MinerSession,
} from './types.js';

const MIN_INTENT_CHARS = 8;
const MAX_INTENT_CHARS = 800;
const MAX_TOOL_TAGS = 4;
/** Later replies that still say what kind of task it was (after that, sessions drift). */
const LATER_EPISODES = 2;
/**
 * How an agent starts on a request says what kind it is; a long reply's later actions (a hundred reads
 * and edits of the same project files) say which project it is.
 */
const KIND_ACTIONS = 16;
/** Feedback this user writes in this many sessions of several kinds is not about any one kind. */
const GENERIC_MIN_SESSIONS = 3;

/** A session that passed screening, with what the miner read from it. */
interface Observation {
  session: MinerSession;
  episodes: Episode[];
  request: number;
  outcome: LabeledOutcome;
  findings: FollowUpFinding[];
}

export function mineSessions(sessions: readonly MinerSession[], opts: MineOptions): MinedNight {
  const dropped: DroppedCounts = { meta: 0, no_request: 0, short: 0, replay: 0 };
  const screened: Array<{ session: MinerSession; episodes: Episode[]; outcome: LabeledOutcome }> = [];
  for (const session of sessions) {
    const features = opts.features?.get(session.key) ?? sessionFeatures(session);
    if (features.dropped === null && features.outcome !== null)
      screened.push({ session, episodes: features.episodes, outcome: features.outcome });
    else dropped[features.dropped ?? 'meta'] += 1;
  }
  const preambles = corpusPreambles(screened.map((s) => s.episodes));
  const observations: Observation[] = [];
  for (const { session, episodes, outcome } of screened) {
    const choice = chooseRequest(episodes, preambles);
    const request = episodes[choice.index];
    if (request === undefined) {
      dropped.no_request += 1;
      continue;
    }
    if (request.prompt.length < MIN_INTENT_CHARS) {
      dropped.short += 1;
      continue;
    }
    observations.push({
      session,
      episodes,
      request: choice.index,
      outcome,
      findings: [],
    });
  }
  const { groups, labels } = groupKinds(
    observations.map((o) => ({
      request: requestOf(o).prompt,
      requestActions: requestOf(o).actions.slice(0, KIND_ACTIONS),
      laterActions: o.episodes
        .slice(o.request + 1, o.request + 1 + LATER_EPISODES)
        .flatMap((e) => e.actions)
        .slice(0, KIND_ACTIONS / 2),
      cwd: o.session.cwd || o.session.projectRoot,
      partition: o.session.partition ?? '',
    })),
  );
  const commands = observations.flatMap((o) =>
    o.episodes.flatMap((e) => e.actions.filter((a) => a.kind === 'run').map((a) => a.target)),
  );
  const common = commonPromptWords(
    observations.flatMap((o) => promptsOf(o)),
    commandWordsOf(commands),
  );
  for (const o of observations) o.findings = followUpFindings(o.episodes, o.request, common);
  const generic = genericFeedback(groups, observations, common);
  const patterns = opts.correctionPatterns ?? [];
  const built = groups.map((indices, g) => {
    const members = indices.flatMap((i) => observations[i] ?? []).sort(compareByStart);
    const rules = withConfigPatterns(
      kindRules(
        members.map((m) => ({ sessionKey: m.session.key, findings: m.findings })),
        generic,
        common,
      ),
      members,
      patterns,
    );
    return { cluster: buildCluster(opts.project, labels[g] ?? 'task', members, rules), members, rules };
  });
  built.sort((a, b) => compareClusters(a.cluster, b.cluster));
  const kept = built.slice(0, Math.max(0, opts.maxTasks));
  const tasks = kept.flatMap(({ cluster, members, rules }) => {
    const checks = withProvenance(cluster.checks, cluster.checkSources);
    return members.map((member) => toTask(opts.project, cluster, member, rules, checks));
  });
  return { clusters: kept.map((k) => k.cluster), tasks, dropped };
}

function promptsOf(o: Observation | undefined): string[] {
  return o === undefined ? [] : o.episodes.map((e) => e.prompt);
}

function requestOf(o: Observation): Episode {
  return o.episodes[o.request] as Episode;
}

/** Follow-ups (by their distinctive words) written in several sessions of more than one kind: generic feedback. */
function genericFeedback(
  groups: readonly number[][],
  observations: readonly Observation[],
  common: ReadonlySet<string>,
): Set<string> {
  const seen = new Map<string, { sessions: number; kinds: Set<number> }>();
  groups.forEach((indices, g) => {
    for (const i of indices) {
      for (const finding of observations[i]?.findings ?? []) {
        const key = sentenceKey(finding.sentence, common);
        const entry = seen.get(key) ?? { sessions: 0, kinds: new Set<number>() };
        entry.sessions += 1;
        entry.kinds.add(g);
        seen.set(key, entry);
      }
    }
  });
  return new Set(
    [...seen].filter(([, e]) => e.sessions >= GENERIC_MIN_SESSIONS && e.kinds.size > 1).map(([k]) => k),
  );
}

/**
 * The user's own correction patterns (config `correction_patterns`) still count: a check they give
 * joins the kind when the session's first attempt fails it.
 */
function withConfigPatterns(
  rules: KindRules,
  members: readonly Observation[],
  patterns: NonNullable<MineOptions['correctionPatterns']>,
): KindRules {
  if (patterns.length === 0) return rules;
  const have = new Set(rules.checks.map((c) => `${c.op}\u0000${String(c.arg ?? '')}`));
  const extra: KindRules['sources'] = [];
  for (const member of members) {
    const attempt = renderAnswer(requestOf(member));
    for (const episode of member.episodes.slice(member.request + 1)) {
      const parsed = correctionsToChecks(episode.prompt, patterns);
      const useful = filterUsefulChecks(parsed.checks, parsed.evidence, attempt);
      useful.checks.forEach((check, i) => {
        const key = `${check.op}\u0000${String(check.arg ?? '')}`;
        if (have.has(key)) return;
        have.add(key);
        extra.push({ check, sessionKey: member.session.key, sentence: useful.evidence[i] ?? episode.prompt });
      });
    }
  }
  return {
    ...rules,
    checks: [...rules.checks, ...extra.map((e) => e.check)],
    sources: [...rules.sources, ...extra],
  };
}

function compareByStart(a: Observation, b: Observation): number {
  const timeA = sessionStart(a.session) ?? Number.NEGATIVE_INFINITY;
  const timeB = sessionStart(b.session) ?? Number.NEGATIVE_INFINITY;
  return timeA - timeB || compareText(a.session.key, b.session.key);
}

/**
 * The id and normal form come from the earliest member, so sessions added on later nights keep the
 * id; the shown intent is the most recent member's request.
 */
function buildCluster(
  project: string,
  label: string,
  members: readonly Observation[],
  rules: KindRules,
): Cluster {
  const first = members[0];
  const normalized = first ? normalizeIntentOrFallback(requestOf(first).prompt) : '';
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
  const last = members.at(-1);
  return {
    id: clusterId(project, normalized),
    label,
    normalizedIntent: normalized,
    intent: last ? requestOf(last).prompt : '',
    members: members.map((m) => m.session.key),
    occurrences: members.length,
    firstSeen,
    lastSeen,
    outcomes,
    checks: rules.checks.map((check) => ({ ...check })),
    corrections: unique(rules.sources.map((s) => s.sentence).filter((s) => s !== '')),
    correctionReports: rules.corrections,
    criteria: rules.criteria,
    checkSources: rules.sources.map((s) => ({
      check: { ...s.check },
      sessionKey: s.sessionKey,
      sentence: s.sentence,
    })),
  };
}

function normalizeIntentOrFallback(intent: string): string {
  const normalized = normalizeIntent(intent);
  return normalized !== '' ? normalized : intent.toLowerCase().replace(/\s+/g, ' ');
}

/** Most recurrent first, then most recent, then by id so equal clusters keep a stable order. */
function compareClusters(a: Cluster, b: Cluster): number {
  const lastA = a.lastSeen ?? Number.NEGATIVE_INFINITY;
  const lastB = b.lastSeen ?? Number.NEGATIVE_INFINITY;
  return b.occurrences - a.occurrences || lastB - lastA || compareText(a.id, b.id);
}

/** Stable across nights: the same project and normal form always give the same id. */
export function clusterId(project: string, normalizedIntent: string): string {
  return `task_${sha256Hex(`${project}::${normalizedIntent}`).slice(0, 12)}`;
}

/** Longest user sentence a check carries as its `because` (a correction, not a pasted log). */
const MAX_BECAUSE_CHARS = 240;

/** The checks, each with the first user sentence it was learned from, as one line. */
function withProvenance(checks: readonly Check[], sources: Cluster['checkSources']): Check[] {
  const said = new Map<string, string>();
  for (const source of sources) {
    const key = checkKey(source.check);
    if (source.sentence !== '' && !said.has(key)) said.set(key, source.sentence);
  }
  return checks.map((check) => {
    const sentence = said.get(checkKey(check));
    const because = sentence === undefined ? '' : [...oneLine(sentence)].slice(0, MAX_BECAUSE_CHARS).join('');
    return because === '' ? { ...check } : { ...check, because };
  });
}

/**
 * A task carries its kind's checks and criteria, so the corrections of the kind's other sessions too:
 * its `trace_sessions` (for `forget`), when there are any besides its own.
 */
export function traceSessions(
  sessionKey: string,
  cluster: Pick<Cluster, 'checkSources' | 'correctionReports'>,
  also: readonly string[] = [],
): Pick<TaskRecord, 'trace_sessions'> {
  const keys = new Set([sessionKey, ...also]);
  for (const s of cluster.checkSources) keys.add(s.sessionKey);
  for (const r of cluster.correctionReports) keys.add(r.sessionKey);
  return keys.size > 1 ? { trace_sessions: [...keys] } : {};
}

/** One replayable instance per session; session keys are unique across projects. */
export function instanceId(sessionKey: string): string {
  return `inst_${sha256Hex(sessionKey).slice(0, 12)}`;
}

function toTask(
  project: string,
  cluster: Cluster,
  member: Observation,
  rules: KindRules,
  clusterChecks: readonly Check[],
): TaskRecord {
  const { session } = member;
  const checks: Check[] = clusterChecks.map((check) => ({ ...check }));
  const tools = session.toolsUsed.slice(0, MAX_TOOL_TAGS);
  const skills = unique(session.skillsUsed);
  const kind: TaskRecord['reference_kind'] =
    checks.length > 0 ? 'rule' : rules.criteria.length > 0 ? 'rubric' : 'none';
  return {
    id: instanceId(session.key),
    project,
    intent: truncateIntent(requestOf(member).prompt),
    // What the user asked, never how they corrected the answers (see task-context.ts).
    context_excerpt: taskContext(
      member.episodes,
      member.request,
      cluster.correctionReports.filter((r) => r.sessionKey === session.key).map((r) => r.sentence),
    ),
    system: '',
    attempted_solution: firstAttempt(member),
    outcome: member.outcome.outcome,
    reference_kind: kind,
    // A rule task's reference is the answer the user accepted after correcting this session (the
    // mock target answers with it once it knows the rule; judges never read it).
    reference:
      kind === 'rubric' ? rules.criteria.join('\n') : kind === 'rule' ? acceptedAnswer(member, cluster) : '',
    judge: checks.length > 0 ? { kind: 'rule', checks } : {},
    ...(kind === 'rule' && rules.criteria.length > 0 ? { rubric_criteria: [...rules.criteria] } : {}),
    tags: [
      `cluster:${cluster.id}`,
      `kind:${cluster.label}`,
      ...(tools.length > 0 ? [`tools:${tools.join('+')}`] : []),
    ],
    source_sessions: [session.key],
    ...traceSessions(session.key, cluster),
    split: 'train',
    origin: 'real',
    derived_from: cluster.id,
    skill_hint: skills.length === 1 ? (skills[0] ?? '') : '',
  };
}

/** How a task states its request (the model pass finds the request again by it). */
export function truncateIntent(intent: string): string {
  return intent.length > MAX_INTENT_CHARS ? `${intent.slice(0, MAX_INTENT_CHARS)} …` : intent;
}

/** The first attempt as replayed: the reply to the request, or the first non-empty reply after it. */
function firstAttempt(member: Observation): string {
  for (const episode of member.episodes.slice(member.request)) {
    const text = renderAnswer(episode);
    if (text !== '') return text;
  }
  return '';
}

/** The reply to this session's last correction that gave one of the kind's checks ('' when none). */
function acceptedAnswer(member: Observation, cluster: Cluster): string {
  const keys = new Set(cluster.checks.map((c) => `${c.op}\u0000${String(c.arg ?? '')}`));
  const gave = member.findings.filter((f) =>
    [...f.literal.map((l) => l.check), ...f.shapes.map((s) => s.check)].some((c) =>
      keys.has(`${c.op}\u0000${String(c.arg ?? '')}`),
    ),
  );
  const last = gave.at(-1);
  return last === undefined
    ? ''
    : renderAnswer(member.episodes[last.episode] ?? { text: '', actions: [] as ToolAction[] });
}

function sessionStart(session: MinerSession): number | null {
  return session.startedAt ?? session.endedAt;
}

function sessionEnd(session: MinerSession): number | null {
  return session.endedAt ?? session.startedAt;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** Code-unit order, independent of the locale the process runs in. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
