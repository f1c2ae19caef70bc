/**
 * Harvest: ask each source for its transcript files, read what changed since the last harvest, redact
 * secrets, and store the sessions. Harvesters only normalise; storing, redaction and the per-file cursor
 * live here. Append-only sources resume from the last stored turn of each file (a file of successive
 * sessions, Aider's, from its last session: read-plan.ts), so a session still being written is updated,
 * not duplicated; a truncated or replaced file is read again from the start.
 */
import { availableParallelism } from 'node:os';
import { harvesters, SOURCE_IDS } from '../../harvesters/index.js';
import type { FileParse, HarvestContext } from '../../harvesters/types.js';
import type { SourceFile, HarvestedSession, SourceId } from '../core/session.js';
import { boundSessionTimes } from '../../harvesters/shared/times.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { agentMarkersFromEnv } from '../core/machine-sessions.js';
import { cachedNormalizer } from '../core/project-path.js';
import { currentRedactPatterns } from '../core/redact-user.js';
import type { Db } from '../store/db.js';
import { sessionWriter } from '../store/session-writer.js';
import { fileCursors, type FileCursor } from '../store/sessions-repo.js';
import { applyRetention } from '../store/forget-repo.js';
import { hasMachinePrompt, redactSession, type ReadySession } from './ready-session.js';
import { parsePool, type ParsePool, type ParseReply } from './parse-pool.js';
import { claimSessionEnds, type SessionEnds } from './session-ends.js';
import { errorMessage } from '../core/errors.js';
import type { HarvestRules } from './harvest-rules.js';
import { keptOut, storedButExcluded } from './kept-out.js';
import { insertHarvestRun, type RedactionCounts } from '../store/harvest-runs-repo.js';
import { addNewRedactions, replacedMarkers, sessionMarkers } from './redaction-counts.js';
import { hasUnknownSession, mergeOffset, planRead, type ReadPlan } from './read-plan.js';
import { withStoredFolders } from './known-folders.js';

export { redactSession } from './ready-session.js';

export interface HarvestOptions {
  db: Db;
  ctx: HarvestContext;
  clock: Clock;
  logger: Logger;
  sources?: SourceId[];
  platform?: NodeJS.Platform;
  /** Rewrites a transcript's cwd before storing (the bundled demo maps its recorded cwd to the demo copy). */
  mapCwd?: (cwd: string) => string;
  /** Called after each file, for progress display. */
  onFile?: (done: number, total: number, bytes: number) => void;
  /** The state home whose `session-ends.jsonl` names transcripts to read first (`session-ends.ts`). */
  stateHome?: string;
  /** `retention_days`: sessions older than this are forgotten after the harvest (null/absent: kept). */
  retentionDays?: number | null;
  /** What the user's privacy settings and the repositories' ignore files keep out (`harvest-rules.ts`). */
  rules?: HarvestRules;
  /**
   * Where files are parsed and redacted: `workers` in worker threads while this thread writes, `sync` all
   * here; `auto` (the default) takes workers when there is enough to read (`WORKER_MIN_BYTES`).
   */
  pipeline?: 'auto' | 'workers' | 'sync';
  /** How many parse workers the pipeline starts (default: one less than the cores, at most two). */
  parseWorkers?: number;
  /** Sources the user excluded: only counted, for the note about sessions stored before (`excludedStored`). */
  excludedSources?: readonly SourceId[];
}

export interface SourceStats {
  files: number;
  parsed: number;
  new: number;
  updated: number;
  skipped_lines: number;
  /** Sessions not stored because a machine started them (our replays, other memory tools). */
  machine_sessions: number;
  /** Sessions not stored because the user's exclusions or a `.skillopt-sleep-ignore` keep them out. */
  excluded: number;
  /** Sessions not stored because `forget` deleted them. */
  forgotten: number;
  bytes_read: number;
  /** Values redacted per kind in what this harvest stored (`redaction-counts.ts`); never the values. */
  redactions: RedactionCounts;
}

export interface HarvestSummary {
  filesSeen: number;
  filesParsed: number;
  sessionsStored: number;
  badLines: number;
  bySource: Partial<Record<SourceId, SourceStats>>;
  /** Files that could not be read at all (permissions, not a regular file, over a size limit), with the reason. */
  unreadable: Array<{ path: string; error: string }>;
  /**
   * Files whose last line has no "\n" and was left until the file has been quiet for SETTLE_MS: a harvest
   * after that reads it (the daemon schedules one).
   */
  openLastLines: number;
  /** Sessions `retention_days` dropped at the end of this harvest (with everything derived from them). */
  expired: number;
  /**
   * Sessions stored before the current exclusions (paths, ignore files, sources) that these now keep out:
   * `forget --excluded` deletes them.
   */
  excludedStored: number;
  /** Values redacted per source and kind in what this harvest stored (each source's `redactions`). */
  redactions: Partial<Record<SourceId, RedactionCounts>>;
  /** Worker threads that parsed and redacted while this thread wrote (0: all on the main thread). */
  parseWorkers: number;
}

/**
 * A last line without "\n" is read once the file has not changed for this long: before that the agent
 * may still be writing it; after, it is the end of the transcript (an agent that exited without a final
 * newline). If the file grows later, the line is read again from its start (see planRead).
 */
export const SETTLE_MS = 60_000;

/** Commit every this many bytes of parsed input: few fsyncs, bounded transaction size. */
const BATCH_BYTES = 32 * 1024 * 1024;
/**
 * With parse workers, smaller: the main thread's heap (which no option of ours can size) holds what
 * waits for the next commit.
 */
const PIPELINE_BATCH_BYTES = 8 * 1024 * 1024;

/**
 * Less input than this is parsed on the main thread: a worker's start (its modules, a cold JIT) costs
 * more than it saves on a few files.
 */
export const WORKER_MIN_BYTES = 16 * 1024 * 1024;
/** The workers parse at most this much input ahead of the writes (what waits in memory is bounded). */
const AHEAD_BYTES = 8 * 1024 * 1024;
/** Two cores or more: parse in workers while this thread writes. */
const PARSE_WORKERS = Math.min(2, Math.max(1, availableParallelism() - 1));

function choosePool(
  mode: NonNullable<HarvestOptions['pipeline']>,
  bytes: number,
  markers: string[],
  count: number,
): ParsePool | null {
  if (mode === 'sync' || (mode === 'auto' && (bytes < WORKER_MIN_BYTES || availableParallelism() < 2)))
    return null;
  return parsePool(count, { markers, patterns: currentRedactPatterns() });
}

/** About what a harvest will read: files that changed since their cursor, from where it left off. */
function bytesToRead(
  work: ReadonlyArray<{ file: SourceFile }>,
  cursors: { get(path: string): FileCursor | null },
): number {
  let bytes = 0;
  for (const { file } of work) {
    const c = cursors.get(file.path);
    if (c === null) bytes += file.size;
    else if (c.size !== file.size || c.inode !== file.inode)
      bytes += Math.max(
        0,
        file.size - (c.inode === file.inode && file.size >= c.parsedOffset ? c.parsedOffset : 0),
      );
  }
  return bytes;
}

const emptyStats = (): SourceStats => ({
  files: 0,
  parsed: 0,
  new: 0,
  updated: 0,
  skipped_lines: 0,
  machine_sessions: 0,
  excluded: 0,
  forgotten: 0,
  bytes_read: 0,
  redactions: {},
});

/** A file read and waiting to be stored: reading happens outside any store transaction. */
interface ReadFile {
  file: SourceFile;
  stats: SourceStats;
  plan: NonNullable<ReadPlan>;
  /** Where the store merges its sessions (`mergeOffset`), null: each is replaced whole. */
  merge: number | null;
  cursor: FileCursor | null;
  parsed: Omit<FileParse, 'sessions'>;
  sessions: ReadySession[];
  /** Its last line has no "\n" and was left for a later harvest (the file was not quiet yet). */
  openLastLine: boolean;
}

export async function harvest(opts: HarvestOptions): Promise<HarvestSummary> {
  const summary: HarvestSummary = {
    filesSeen: 0,
    filesParsed: 0,
    sessionsStored: 0,
    badLines: 0,
    bySource: {},
    unreadable: [],
    openLastLines: 0,
    expired: 0,
    excludedStored: 0,
    redactions: {},
    parseWorkers: 0,
  };
  const startedAt = opts.clock.now();
  const writer = sessionWriter(opts.db);
  const storedMarkers = replacedMarkers(opts.db);
  const cursors = fileCursors(opts.db);
  const kept = keptOut(opts.db, opts.rules);
  const normalize = cachedNormalizer({ home: opts.ctx.home, platform: opts.platform ?? process.platform });
  const cwdOf = (s: HarvestedSession): string => normalize(opts.mapCwd ? opts.mapCwd(s.cwd) : s.cwd);
  const isKeptOut = (s: HarvestedSession): boolean => kept.reason(s, cwdOf(s)) !== null;
  const extraMarkers = agentMarkersFromEnv(opts.ctx.env['SKILLOPT_SLEEP_AGENT_MARKERS']);
  const ids = opts.sources ?? SOURCE_IDS;
  // Only Claude Code reports ended sessions: a harvest without it leaves the log for one with it.
  const ended = opts.stateHome && ids.includes('claude') ? claimSessionEnds(opts.stateHome) : null;
  // Sources that keep transcripts in the projects (Aider) look in the folders the store already knows.
  const ctx = withStoredFolders(opts.ctx, opts.db);
  const discovered = await Promise.all(
    ids.map(async (id) => ({ id, files: endedFirst(await harvesters[id].discover(ctx), ended) })),
  );
  const total = discovered.reduce((n, d) => n + d.files.length, 0);
  let done = 0;

  // A merged session's first prompt may not be in the parse: only a whole session shows who started it.
  const isMachine = (readied: ReadySession, merge: number | null): boolean =>
    merge === null && readied.machinePrompt;

  // On the main thread only what may be stored is redacted (a worker redacts every session it parses).
  const ready = (s: HarvestedSession, merge: number | null): ReadySession => {
    const readied = { session: s, redacted: false, machinePrompt: hasMachinePrompt(s, extraMarkers) };
    if (isKeptOut(s) || isMachine(readied, merge)) return readied;
    return { session: redactSession(s), redacted: true, machinePrompt: readied.machinePrompt };
  };

  const store = (read: ReadFile): void => {
    const { file, stats, plan, merge, cursor, parsed } = read;
    const now = opts.clock.now();
    // No time later than the file was written, nor than now (a file's mtime can be set to the future too).
    const latest = Math.min(file.mtimeMs, now);
    const keep = new Set<string>();
    // Asked before this file's sessions are written: for a file the store never held (a cold harvest's
    // every file) the index answers without a query.
    const heldBefore = plan.resume ? [] : writer.sessionsOfFile(file.path);
    let rulesSkipped = false;
    let stored = 0;
    for (const readied of read.sessions) {
      const session = boundSessionTimes(readied.session, latest);
      keep.add(`${session.source}:${session.sessionId}`);
      const cwd = cwdOf(session);
      // Checked before anything else reads the session: nothing of it (not its cwd) reaches the store.
      const out = kept.reason(session, cwd);
      if (out !== null) {
        if (out === 'forgotten') stats.forgotten++;
        else {
          stats.excluded++;
          rulesSkipped = true;
        }
        continue;
      }
      if (isMachine(readied, merge)) {
        stats.machine_sessions++;
        continue;
      }
      const key = `${session.source}:${session.sessionId}`;
      // A prompts-only copy (Gemini's logs.json) must not overwrite the full session its chat file gave.
      const from = session.promptsOnly === true ? writer.storedFrom(key) : undefined;
      if (from !== undefined && from !== file.path) continue;
      stored++;
      // Kept out when it was read, let in now (a tombstone lifted meanwhile): redacted here.
      const redacted = readied.redacted ? session : redactSession(session);
      const replaced = writer.isStored(key) ? storedMarkers(key, merge) : {};
      const outcome = writer.write(redacted, cwd, merge, now);
      addNewRedactions(stats.redactions, sessionMarkers(redacted), replaced);
      stats[outcome]++;
      summary.sessionsStored++;
    }
    // A file read whole is the truth: sessions it no longer holds are gone.
    for (const old of heldBefore) if (!keep.has(old.key)) writer.deleteSession(old.key);
    const badLines = (plan.resume ? (cursor?.badLines ?? 0) : 0) + parsed.badLines;
    // A last line left for later: record the size up to it, so the next harvest sees a change and reads it.
    const seen = read.openLastLine ? { ...file, size: parsed.endOffset } : file;
    kept.settle(seen, rulesSkipped, now);
    // A transcript whose every session the rules kept out leaves no cursor (its path would name the folder).
    if (!(rulesSkipped && stored === 0 && cursor === null))
      cursors.set(seen, parsed.endOffset, badLines, now);
  };

  let pending: ReadFile[] = [];
  let pendingBytes = 0;
  // The store is written in short IMMEDIATE transactions, between reads: a transcript that is slow (or
  // a planted FIFO) can then never hold the store's write lock while the other commands wait for it.
  // IMMEDIATE: the writer reads then writes; a deferred transaction could not upgrade to a write lock
  // while another process (a concurrent night, the daemon) writes, and would fail at once with SQLITE_BUSY.
  const flush = (): void => {
    if (pending.length === 0) return;
    opts.db.exec('BEGIN IMMEDIATE');
    try {
      kept.refresh();
      writer.beginWrite();
      for (const read of pending) store(read);
      writer.endWrite(true);
      opts.db.exec('COMMIT');
    } catch (err) {
      writer.endWrite(false);
      if (opts.db.inTransaction) opts.db.exec('ROLLBACK');
      throw err;
    }
    pending = [];
    pendingBytes = 0;
  };

  for (const { id } of discovered) summary.bySource[id] = emptyStats();
  const work = discovered.flatMap(({ id, files }) => files.map((file) => ({ id, file })));
  const workers = opts.parseWorkers ?? PARSE_WORKERS;
  const pool = choosePool(opts.pipeline ?? 'auto', bytesToRead(work, cursors), extraMarkers, workers);
  summary.parseWorkers = pool === null ? 0 : workers;
  /** Files planned ahead of the writes; a whole read among them is parsing in a worker meanwhile. */
  interface Ahead {
    id: SourceId;
    file: SourceFile;
    cursor: FileCursor | null;
    settled: boolean;
    reply: Promise<ParseReply> | null;
    bytes: number;
  }
  const ahead: Ahead[] = [];
  let next = 0;
  let aheadBytes = 0;
  // Back-pressure: the workers run at most AHEAD_BYTES of input ahead of the writes.
  const planAhead = (): void => {
    while (next < work.length && (ahead.length === 0 || (pool !== null && aheadBytes < AHEAD_BYTES))) {
      const { id, file } = work[next++] as (typeof work)[number];
      const cursor = cursors.get(file.path);
      // An ended session's file is finished: its last line needs no quiet time.
      const settled = ended?.paths.has(file.path) === true || opts.clock.now() - file.mtimeMs >= SETTLE_MS;
      let reply: Promise<ParseReply> | null = null;
      // Only whole reads go to a worker: their plan depends on nothing the writes before them change.
      const plan = pool === null ? null : planRead(harvesters[id], file, cursor, writer, kept);
      if (pool !== null && plan !== null && !plan.resume) {
        reply = pool.parse(
          { source: id, file, from: 0, options: { includeOpenLastLine: settled } },
          file.size,
        );
        aheadBytes += file.size;
      }
      ahead.push({ id, file, cursor, settled, reply, bytes: reply === null ? 0 : file.size });
    }
  };

  /** One file read (by its worker, or here), or null when nothing of it is to be stored now. */
  const readFile = async (item: Ahead, stats: SourceStats): Promise<ReadFile | null> => {
    const { id, file, cursor, settled } = item;
    const harvester = harvesters[id];
    const plan = planRead(harvester, file, cursor, writer, kept);
    const reply = item.reply === null ? null : await item.reply;
    aheadBytes -= item.bytes;
    if (plan === null) return null;
    const parseOptions = { includeOpenLastLine: settled };
    let parsed: Omit<FileParse, 'sessions'>;
    let sessions: ReadySession[];
    try {
      if (reply !== null && !plan.resume && 'error' in reply) throw new Error(reply.error);
      if (reply !== null && !plan.resume && 'parsed' in reply) {
        parsed = reply.parsed;
        sessions = reply.ready;
      } else {
        let whole = await harvester.parse(file, plan.from, parseOptions);
        if (plan.resume && hasUnknownSession(harvester, whole, writer, file.path, isKeptOut)) {
          // A session we never stored (or dropped as a machine's) shows up mid-file: read it whole.
          plan.from = 0;
          plan.resume = false;
          whole = await harvester.parse(file, 0, parseOptions);
        }
        const { sessions: raw, ...rest } = whole;
        const merge = mergeOffset(harvester, plan);
        parsed = rest;
        sessions = raw.map((s) => ready(s, merge));
      }
    } catch (err) {
      summary.unreadable.push({ path: file.path, error: errorMessage(err) });
      opts.logger.warn(`skipped unreadable transcript ${file.path}: ${errorMessage(err)}`);
      return null;
    }
    const openLastLine = !settled && parsed.readWhole !== true && parsed.endOffset < file.size;
    if (openLastLine) summary.openLastLines++;
    const merge = mergeOffset(harvester, plan);
    stats.parsed++;
    stats.skipped_lines += parsed.badLines;
    summary.filesParsed++;
    summary.badLines += parsed.badLines;
    return { file, stats, plan, merge, cursor, parsed, sessions, openLastLine };
  };

  try {
    for (planAhead(); ahead.length > 0; planAhead()) {
      const item = ahead.shift() as Ahead;
      const stats = summary.bySource[item.id] as SourceStats;
      stats.files++;
      summary.filesSeen++;
      const read = await readFile(item, stats);
      if (read !== null) {
        pending.push(read);
        const bytes = Math.max(0, read.file.size - read.plan.from);
        stats.bytes_read += bytes;
        pendingBytes += bytes;
        if (pendingBytes >= (pool === null ? BATCH_BYTES : PIPELINE_BATCH_BYTES)) flush();
      }
      opts.onFile?.(++done, total, stats.bytes_read);
    }
  } finally {
    await pool?.close();
  }
  flush();
  ended?.done();
  if (opts.retentionDays)
    summary.expired = applyRetention(opts.db, opts.retentionDays, opts.clock.now()).sessions;
  if (opts.rules !== undefined || (opts.excludedSources?.length ?? 0) > 0)
    summary.excludedStored = storedButExcluded(opts.db, opts.rules, opts.excludedSources ?? []);
  for (const [id, stats] of Object.entries(summary.bySource))
    summary.redactions[id as SourceId] = stats.redactions;
  if (summary.filesParsed > 0) recordRun(opts.db, startedAt, opts.clock.now(), summary);
  return summary;
}

/** A harvest that read something leaves a `harvest_runs` row: `status` sums its redaction counts. */
function recordRun(db: Db, startedAt: number, finishedAt: number, summary: HarvestSummary): void {
  insertHarvestRun(db, startedAt, finishedAt, {
    files_seen: summary.filesSeen,
    files_parsed: summary.filesParsed,
    sessions_stored: summary.sessionsStored,
    by_source: summary.bySource,
  });
}

/** The files of sessions reported ended come first, in the order they ended; the others keep theirs. */
function endedFirst<T extends { path: string }>(files: T[], ended: SessionEnds | null): T[] {
  if (!ended || ended.paths.size === 0) return files;
  const rank = new Map([...ended.paths].map((p, i) => [p, i]));
  const first = files
    .filter((f) => rank.has(f.path))
    .sort((a, b) => (rank.get(a.path) ?? 0) - (rank.get(b.path) ?? 0));
  return [...first, ...files.filter((f) => !rank.has(f.path))];
}
