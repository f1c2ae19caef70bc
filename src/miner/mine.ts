/**
 * The miner: reads each session as a request and its follow-ups (`episodes.ts`, `request.ts`),
 * groups sessions into task kinds by what was asked and what the agent did (`kinds/`), reads the
 * kind's rules from what its corrections changed (`rules/`), and emits one replayable task per
 * session. Everything it learns about words comes from this project's own sessions.
 */
import { clusterId, instanceId, truncateIntent } from './task-ids.js';
import type { Check, TaskRecord } from '../core/task.js';
import { correctionsToChecks, dedupeChecks, filterUsefulChecks } from './corrections.js';
import { renderAnswer, requestWork, type Episode } from './episodes.js';
import { groupKinds } from './kinds/kinds.js';
import { spacedLength } from './kinds/request-tokens.js';
import { buildCluster, compareByStart, uniqueIds } from './kind-cluster.js';
import { idFolderOf } from './task-ids.js';
import { sessionFeatures } from './session-features.js';
import { chooseRequest, corpusPreambles } from './request.js';
import { idleReason, noRequestKinds, type IdleSession } from './no-request.js';
import { corpusTemplates, statedRequest, statesPrompt, typedEpisodes } from './templates.js';
import { kindRules, sentenceKey, type KindRules } from './rules/kind-rules.js';
import { commonPromptWords } from './rules/literal.js';
import { commandWordsOf } from './stop-words.js';
import { followUpFindings, type FollowUpFinding } from './rules/session-rules.js';
import { taskContext } from './task-context.js';
import { buildLessons, type LessonSession } from './lessons/build.js';
import { corpusSignals } from './lessons/corpus-signals.js';
import { lessonIndex, type TaskJudge } from './lessons/judges.js';
import { parseStoredReadings, readingChunks, type FollowUpReading } from './model/read-follow-ups.js';
import { dropForgottenQuotes } from './lessons/forgotten.js';
import { withoutForgotten } from '../core/forgotten-lesson.js';
import type {
  Cluster,
  DroppedCounts,
  LabeledOutcome,
  MinedNight,
  MineOptions,
  MinerSession,
} from './types.js';

const MIN_INTENT_CHARS = 8;
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

export { clusterId, instanceId, truncateIntent };

/** A mined session as the miner reads it: its episodes and which of them is its request. */
export interface ObservedSession {
  session: MinerSession;
  episodes: Episode[];
  request: number;
}

/**
 * The miner's first phase: screening, episodes and the request of each session (the corpus decides
 * which openers are preambles). A model pass that reads sessions reads them through this, so it sees
 * exactly what the miner reads.
 */
export function observeSessions(
  sessions: readonly MinerSession[],
  opts: Pick<MineOptions, 'features'>,
): {
  observations: Array<ObservedSession & { outcome: LabeledOutcome }>;
  dropped: DroppedCounts;
  /** Sessions that asked for nothing (`no-request.ts`). */
  idle: IdleSession[];
} {
  const dropped: DroppedCounts = { meta: 0, no_request: 0, short: 0, replay: 0 };
  const screened: Array<{ session: MinerSession; episodes: Episode[]; outcome: LabeledOutcome }> = [];
  for (const session of sessions) {
    const features = opts.features?.get(session.key) ?? sessionFeatures(session);
    if (features.dropped === null && features.outcome !== null)
      screened.push({ session, episodes: features.episodes, outcome: features.outcome });
    else dropped[features.dropped ?? 'meta'] += 1;
  }
  // Every prompt as the user typed it; the statistics need the whole project, so never per session.
  const templates = corpusTemplates(screened.map((s) => s.episodes));
  const typed = screened.map((s) => ({ ...s, episodes: typedEpisodes(s.episodes, templates) }));
  const preambles = corpusPreambles(typed.map((s) => s.episodes));
  const observations: Array<ObservedSession & { outcome: LabeledOutcome }> = [];
  const idle: IdleSession[] = [];
  for (const { session, episodes, outcome } of typed) {
    const choice = chooseRequest(episodes, preambles);
    const request = episodes[choice.index];
    if (request === undefined) {
      dropped.no_request += 1;
      idle.push({ session, episodes, outcome, reason: idleReason(choice.skipped) });
      continue;
    }
    const stated = statedRequest(request);
    if (spacedLength(stated) < MIN_INTENT_CHARS) {
      dropped.short += 1;
      continue;
    }
    episodes[choice.index] = { ...request, prompt: stated };
    observations.push({ session, episodes, request: choice.index, outcome });
  }
  return { observations, dropped, idle };
}

export function mineSessions(sessions: readonly MinerSession[], opts: MineOptions): MinedNight {
  const idOf = idFolderOf(opts.project, opts.idSpace);
  const observed = observeSessions(sessions, opts);
  const { dropped } = observed;
  const observations: Observation[] = observed.observations.map((o) => ({ ...o, findings: [] }));
  const { groups, labels } = groupKinds(
    observations.map((o) => {
      const work = requestWork(o.episodes, o.request);
      return {
        request: requestOf(o).prompt,
        requestActions: work.actions.slice(0, KIND_ACTIONS),
        laterActions: o.episodes
          .slice(work.after, work.after + LATER_EPISODES)
          .flatMap((e) => e.actions)
          .slice(0, KIND_ACTIONS / 2),
        cwd: o.session.cwd || o.session.projectRoot,
        partition: o.session.partition ?? '',
      };
    }),
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
    return { cluster: buildCluster(idOf(opts.project), labels[g] ?? 'task', members, rules), members, rules };
  });
  uniqueIds(idOf(opts.project), built);
  const allLessons = buildLessons(
    built.flatMap(({ members, rules }, g) =>
      members.map((m): LessonSession => ({
        sessionKey: m.session.key,
        project: m.session.partition || opts.project,
        idFolder: idOf(m.session.partition || opts.project),
        kind: g,
        startedAt: sessionStart(m.session),
        episodes: m.episodes,
        request: m.request,
        findings: m.findings,
        keptChecks: rules.keptByFollowUp.get(m.session.key) ?? new Map(),
        recurringChecks: rules.recurring,
        ...readingsOfSession(opts.readings?.get(m.session.key), m.episodes, m.request),
      })),
    ),
    built.map(({ cluster }) => ({ id: cluster.id, label: cluster.label })),
    corpusSignals(
      observations.map((o) => ({ episodes: o.episodes, request: o.request })),
      common,
    ),
    common,
  );
  // Lessons the user forgot judge nothing: dropped before any task takes its judge from them.
  const { kept: lessons, dropped: forgotten } = withoutForgotten(
    allLessons,
    opts.forgottenLessons ?? [],
    common,
  );
  const index = lessonIndex(lessons);
  for (const { cluster, members } of built) {
    // Sessions of a kind mostly share one judge (the same object): each distinct judge read once.
    const judges = [...new Set(members.map((m) => index.judgeOf(m.session.key, cluster.id)))];
    // The kind's report lists each check once; its sentence is on the lesson (and on each task's check).
    cluster.checks = dedupeChecks(judges.flatMap((j) => j.checks)).map(({ op, arg }) =>
      arg === undefined ? { op } : { op, arg },
    );
    cluster.criteria = unique(judges.flatMap((j) => j.criteria));
  }
  built.sort((a, b) => compareClusters(a.cluster, b.cluster));
  const kept = built.slice(0, Math.max(0, opts.maxTasks));
  const tasks = kept.flatMap(({ cluster, members }) =>
    members.map((member) =>
      toTask(opts.project, cluster, member, index.judgeOf(member.session.key, cluster.id)),
    ),
  );
  // After the tasks: their context still leaves out every correction, forgotten or not.
  for (const { cluster } of built) dropForgottenQuotes(cluster, forgotten);
  // Shown after every kind that asked for something: they never take a replayed kind's place.
  const none = noRequestKinds(opts.project, observed.idle, idOf);
  return {
    clusters: [...kept.map((k) => k.cluster), ...none.clusters],
    tasks: [...tasks, ...none.tasks],
    dropped,
    lessons,
  };
}

/** The stored readings that still match the session's follow-ups, by episode. */
function readingsOfSession(
  stored: ReadonlyMap<string, string> | undefined,
  episodes: readonly Episode[],
  request: number,
): { readings?: Map<number, FollowUpReading> } {
  if (stored === undefined || stored.size === 0) return {};
  const readings = new Map<number, FollowUpReading>();
  for (const chunk of readingChunks(episodes, request)) {
    for (const reading of parseStoredReadings(stored.get(chunk.hash)) ?? [])
      readings.set(reading.turn, reading);
  }
  return readings.size > 0 ? { readings } : {};
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
  const keptByFollowUp = new Map([...rules.keptByFollowUp].map(([k, v]) => [k, new Map(v)]));
  const recurring = new Set(rules.recurring);
  for (const member of members) {
    const attempt = renderAnswer(requestOf(member));
    member.episodes.forEach((episode, index) => {
      if (index <= member.request) return;
      const parsed = correctionsToChecks(episode.prompt, patterns);
      const useful = filterUsefulChecks(parsed.checks, parsed.evidence, attempt);
      useful.checks.forEach((check, i) => {
        const key = `${check.op}\u0000${String(check.arg ?? '')}`;
        // A pattern the user configured is confirmed by them: it teaches from one session.
        recurring.add(key);
        const perSession = keptByFollowUp.get(member.session.key) ?? new Map<number, Check[]>();
        perSession.set(index, [...(perSession.get(index) ?? []), check]);
        keptByFollowUp.set(member.session.key, perSession);
        if (have.has(key)) return;
        have.add(key);
        extra.push({ check, sessionKey: member.session.key, sentence: useful.evidence[i] ?? episode.prompt });
      });
    });
  }
  return {
    ...rules,
    checks: [...rules.checks, ...extra.map((e) => e.check)],
    sources: [...rules.sources, ...extra],
    keptByFollowUp,
    recurring,
  };
}

/** Most recurrent first, then most recent, then by id so equal clusters keep a stable order. */
function compareClusters(a: Cluster, b: Cluster): number {
  const lastA = a.lastSeen ?? Number.NEGATIVE_INFINITY;
  const lastB = b.lastSeen ?? Number.NEGATIVE_INFINITY;
  return b.occurrences - a.occurrences || lastB - lastA || compareText(a.id, b.id);
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

function toTask(project: string, cluster: Cluster, member: Observation, judge: TaskJudge): TaskRecord {
  const { session } = member;
  const checks: Check[] = judge.checks.map((check) => ({ ...check }));
  const tools = session.toolsUsed.slice(0, MAX_TOOL_TAGS);
  const skills = unique(session.skillsUsed);
  const kind: TaskRecord['reference_kind'] =
    checks.length > 0 ? 'rule' : judge.criteria.length > 0 ? 'rubric' : 'none';
  const accepted = judge.acceptedAt === null ? undefined : member.episodes[judge.acceptedAt];
  const trace = new Set([session.key, ...judge.sessions]);
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
      kind === 'rubric'
        ? judge.criteria.join('\n')
        : kind === 'rule' && accepted !== undefined
          ? renderAnswer(accepted)
          : '',
    judge: checks.length > 0 ? { kind: 'rule', checks } : {},
    ...(kind === 'rule' && judge.criteria.length > 0 ? { rubric_criteria: [...judge.criteria] } : {}),
    tags: [
      `cluster:${cluster.id}`,
      `kind:${cluster.label}`,
      ...(tools.length > 0 ? [`tools:${tools.join('+')}`] : []),
      // The lessons that judge it: a night splits each lesson's tasks into train and validation.
      ...judge.lessons.map((id) => `lesson:${id}`),
    ],
    source_sessions: [session.key],
    ...(trace.size > 1 ? { trace_sessions: [...trace] } : {}),
    split: 'train',
    origin: 'real',
    derived_from: cluster.id,
    skill_hint: skills.length === 1 ? (skills[0] ?? '') : '',
  };
}

/**
 * The episode of a harvested session whose prompt a task's intent states: the prompt itself, or the
 * template's expansion the user's words were read from.
 */
export function requestIndexOf(episodes: readonly Episode[], intent: string): number {
  const exact = episodes.findIndex((e) => truncateIntent(e.prompt) === intent);
  return exact >= 0 ? exact : episodes.findIndex((e) => statesPrompt(e.prompt, intent));
}

/** The first attempt as replayed: the reply to the request, or the first non-empty reply after it. */
function firstAttempt(member: Observation): string {
  for (const episode of member.episodes.slice(member.request)) {
    const text = renderAnswer(episode);
    if (text !== '') return text;
  }
  return '';
}

function sessionStart(session: MinerSession): number | null {
  return session.startedAt ?? session.endedAt;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** Code-unit order, independent of the locale the process runs in. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
