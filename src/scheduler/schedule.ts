/**
 * `schedule`, `unschedule` and `schedule --list`: keep the crontab's managed block and the registry in
 * step. The crontab is read first; if that fails nothing is written anywhere. A crontab that would not
 * change is not rewritten, so scheduling twice is a no-op.
 */
import { mkdirSync } from 'node:fs';
import { projectLogsDir, type Env } from '../config/paths.js';
import { IoError } from '../core/errors.js';
import { ensureProjectStateDir } from '../core/io/project-state-dir.js';
import { parseCron, nextRun } from './cron-expr.js';
import { parseCrontab, projectDigest, renderCrontab, withEntry, withoutEntries } from './crontab-block.js';
import { asCrontabText, CrontabMissingError, fromCrontabText, type CrontabIo } from './crontab-io.js';
import { withCrontabLock } from './crontab-lock.js';
import { buildCronLine, parseCronLine, type NightCommand } from './cron-line.js';
import {
  readRegistry,
  upsertEntry,
  writeRegistry,
  type ScheduleEntry,
  type ScheduleVia,
} from './registry.js';

/** Variables a night reads that cron would not pass on; recorded when set at `schedule` time. */
export const RECORDED_ENV = [
  'SKILLOPT_SLEEP_HOME',
  'CLAUDE_CONFIG_DIR',
  'CODEX_HOME',
  'COPILOT_HOME',
  'GEMINI_CLI_HOME',
  'PI_CODING_AGENT_DIR',
  'CURSOR_CONFIG_DIR',
  'XDG_DATA_HOME',
  'OPENCODE_DB',
  'GOOSE_PATH_ROOT',
  'AIDER_CHAT_HISTORY_FILE',
  'SKILLOPT_SLEEP_AIDER_FOLDERS',
  'SKILLOPT_SLEEP_AGENT_MARKERS',
] as const;

/** `extra`: more variables the recorded options need (the git identity of `--branch`). */
export function recordedEnv(env: Env, home: string, extra: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = { SKILLOPT_SLEEP_HOME: home };
  for (const k of [...RECORDED_ENV, ...extra]) {
    const v = env[k];
    if (k !== 'SKILLOPT_SLEEP_HOME' && v !== undefined && v !== '') out[k] = v;
  }
  return out;
}

export interface ScheduleRequest {
  home: string;
  crontab: CrontabIo;
  project: string;
  cron: string;
  via: ScheduleVia;
  command: NightCommand;
  now: number;
}

export interface ScheduleResult {
  entry: ScheduleEntry;
  /** The crontab line (also when via daemon: what cron would run). */
  line: string;
  /** False when the crontab already held exactly this line. */
  crontabChanged: boolean;
}

/** Apply a change to the managed block; write only if the text changed. */
function editCrontab(io: CrontabIo, edit: (text: string) => string): boolean {
  const before = io.read();
  const after = edit(before);
  if (after === before) return false;
  io.write(after);
  return true;
}

export function scheduleProject(req: ScheduleRequest): ScheduleResult {
  return withCrontabLock(req.home, () => scheduleLocked(req));
}

function scheduleLocked(req: ScheduleRequest): ScheduleResult {
  const schedule = parseCron(req.cron);
  const line = buildCronLine(schedule.expression, req.command);
  const digest = projectDigest(req.project);
  const registry = readRegistry(req.home);
  const previous = registry.find((e) => e.digest === digest);
  let changed = false;
  if (req.via === 'cron') {
    try {
      changed = editCrontab(req.crontab, (text) =>
        renderCrontab(withEntry(parseCrontab(text), { digest, line: asCrontabText(line) })),
      );
    } catch (err) {
      if (!(err instanceof CrontabMissingError)) throw err;
      throw new CrontabMissingError(
        `${err.message}. Nothing was scheduled; add this line with \`crontab -e\` yourself, or use --daemon:\n${line}`,
      );
    }
  } else if (previous?.via === 'cron') {
    // Moving to the daemon: the cron line goes, or the night would run twice.
    changed = editCrontab(req.crontab, (text) => renderCrontab(withoutEntries(parseCrontab(text), digest)));
  }
  ensureProjectStateDir(req.project);
  mkdirSync(projectLogsDir(req.project), { recursive: true });
  const entry: ScheduleEntry = {
    project: req.project,
    digest,
    cron: schedule.expression,
    via: req.via,
    args: req.command.args,
    env: req.command.env,
    // Keep the original time when nothing about the entry changed.
    scheduled_at:
      previous &&
      previous.cron === schedule.expression &&
      previous.via === req.via &&
      JSON.stringify([previous.args, previous.env]) === JSON.stringify([req.command.args, req.command.env])
        ? previous.scheduled_at
        : req.now,
  };
  writeRegistry(req.home, upsertEntry(registry, entry));
  return { entry, line, crontabChanged: changed };
}

export interface UnscheduleResult {
  removed: string[];
}

/** Remove one project's schedule (or all of them when `project` is null) from crontab and registry. */
export function unscheduleProjects(home: string, io: CrontabIo, project: string | null): UnscheduleResult {
  return withCrontabLock(home, () => unscheduleLocked(home, io, project));
}

function unscheduleLocked(home: string, io: CrontabIo, project: string | null): UnscheduleResult {
  const digest = project === null ? null : projectDigest(project);
  const registry = readRegistry(home);
  const removed = new Set<string>();
  try {
    editCrontab(io, (text) => {
      const parsed = parseCrontab(text);
      for (const e of parsed.entries) {
        if (digest !== null && e.digest !== digest) continue;
        removed.add(parseCronLine(fromCrontabText(e.line)).project ?? e.digest);
      }
      return renderCrontab(withoutEntries(parsed, digest));
    });
  } catch (err) {
    // Without any crontab program, daemon schedules can still be removed; any other failure stops here.
    const needsCron = registry.some((e) => e.via === 'cron' && (digest === null || e.digest === digest));
    if (needsCron || !(err instanceof CrontabMissingError)) throw err;
  }
  const keep = registry.filter((e) => digest !== null && e.digest !== digest);
  for (const e of registry) if (!keep.includes(e)) removed.add(e.project);
  if (keep.length !== registry.length) writeRegistry(home, keep);
  return { removed: [...removed].sort() };
}

export interface ListedSchedule {
  project: string;
  cron: string;
  via: ScheduleVia;
  /** Next firing time (UTC ms), in the machine's local time zone as cron reads it. */
  next_run: number | null;
  args: string[];
  /** In the crontab but not in this state home's registry (scheduled from another state home). */
  unregistered?: boolean;
}

export interface ScheduleListing {
  schedules: ListedSchedule[];
  /** Why the crontab could not be read ('' when it could, or was not asked). */
  crontab_error: string;
}

/**
 * The managed schedules: registry entries plus crontab lines the registry does not know. A crontab
 * that cannot be read only loses the second part (listing writes nothing).
 */
export function listSchedules(home: string, io: CrontabIo | null, now: number): ScheduleListing {
  const registry = readRegistry(home);
  const out: ListedSchedule[] = registry.map((e) => ({
    project: e.project,
    cron: e.cron,
    via: e.via,
    next_run: nextRun(parseCron(e.cron), now),
    args: e.args,
  }));
  let text = '';
  let crontabError = '';
  try {
    text = io ? io.read() : '';
  } catch (err) {
    if (!(err instanceof IoError)) throw err;
    crontabError = err.message;
  }
  if (text !== '') {
    for (const entry of parseCrontab(text).entries) {
      if (registry.some((e) => e.digest === entry.digest)) continue;
      const parsed = parseCronLine(fromCrontabText(entry.line));
      let next: number | null;
      try {
        next = nextRun(parseCron(parsed.cron), now);
      } catch {
        next = null; // a line edited by hand into something we cannot read
      }
      out.push({
        project: parsed.project ?? `(project-sha256 ${entry.digest})`,
        cron: parsed.cron,
        via: 'cron',
        next_run: next,
        args: [],
        unregistered: true,
      });
    }
  }
  return { schedules: out, crontab_error: crontabError };
}
