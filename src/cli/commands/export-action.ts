/** `export --tasks OUT`: a project's recurring tasks as a tasks file a team commits and trains on. */
// The command's action; its definition (options, help text) is `export.ts`, which imports this file
// only when the command runs, so `--help` and the other commands do not load what it needs.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { IoError, UsageError, errorMessage, errnoCode } from '../../core/errors.js';
import { DEFAULT_FILE_MODE, writeFileAtomicSync } from '../../core/io/atomic-file.js';
import { dbFile } from '../../config/paths.js';
import { harvest } from '../../harvest/harvest.js';
import { logHarvestEnd } from '../../harvest/harvest-end.js';
import { privacyOptions } from '../../harvest/harvest-rules.js';
import { TASKS_FORMAT_V1, tasksFileObject, tasksFileText } from '../../miner/tasks-file.js';
import { teamExportTasks, type LocalPaths } from '../../miner/team-tasks.js';
import type { Cluster } from '../../miner/types.js';
import type { TaskRecord } from '../../core/task.js';
import type { Config } from '../../config/schema.js';
import { DEFAULT_MAX_SESSIONS, mineProjectTasks, type ProjectTasks } from '../../night/mine-project.js';
import { isRecurring, selectedSources } from '../../night/night-tasks.js';
import { openStore } from '../../store/db.js';
import { checkGoneProject, cliContext, resolveStoredProject, type CommonFlags } from '../context.js';
import { cliPath } from '../io.js';
import { printJson, say } from '../output.js';
import { projectConfig } from '../project-config.js';

export interface ExportFlags extends CommonFlags {
  tasks: string;
}

/**
 * Where the export goes, checked before any harvest: its folder exists, and the path is new or holds
 * an earlier tasks file (a teammate's review is in git's history; any other file is refused).
 */
function checkExportTarget(out: string): { replaces: boolean } {
  const dir = path.dirname(out);
  if (!isDirectory(dir)) throw new UsageError(`--tasks ${out}: the folder ${dir} does not exist`);
  let text: string;
  try {
    text = readFileSync(out, 'utf8');
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT') return { replaces: false };
    if (code === 'EISDIR') throw new UsageError(`--tasks ${out} is a folder; give a file path`);
    throw new IoError(`cannot read ${out}: ${errorMessage(err)}`);
  }
  if (!isTasksFile(text)) {
    throw new UsageError(
      `--tasks ${out} exists and is not a ${TASKS_FORMAT_V1} file; refusing to overwrite it`,
    );
  }
  return { replaces: true };
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function isTasksFile(text: string): boolean {
  try {
    const data: unknown = JSON.parse(text);
    return (
      typeof data === 'object' && data !== null && (data as { format?: unknown }).format === TASKS_FORMAT_V1
    );
  } catch {
    return false;
  }
}

/** The recurring kinds of a mined project, and their tasks as an export writes them. */
function exportable(mined: ProjectTasks, local: LocalPaths): { recurring: Cluster[]; tasks: TaskRecord[] } {
  const recurring = mined.clusters.filter((c) => isRecurring(c) && c.noRequest !== true);
  return { recurring, tasks: teamExportTasks(mined.tasks, new Set(recurring.map((c) => c.id)), local) };
}

/**
 * Why an export found nothing, in one line: no session stored for the project; recurring tasks only
 * outside the active window (`outside` of them: since the last adopted night, or within lookback_hours),
 * with the option that widens it; or no task that recurs at all.
 */
function nothingToExport(mined: ProjectTasks, outside: number, project: string, config: Config): string {
  const minedSessions = `${mined.nSessions} session${mined.nSessions === 1 ? '' : 's'} mined`;
  if (mined.nSessions === 0)
    return `nothing to export: no sessions found for ${project} (sessions started in it or below count; --scope all mines every folder); nothing was written`;
  const since = mined.activeSince === null ? '' : new Date(mined.activeSince).toISOString();
  const none =
    outside === 1
      ? `the one recurring task of the ${minedSessions} has none`
      : `none of the ${outside} recurring tasks of the ${minedSessions} has one`;
  if (outside > 0 && mined.funnel.window === 'adopted_night')
    return `nothing to export: an export holds the tasks with a session since the last adopted night (${since}), and ${none}; nothing was written (--lookback-hours 0 exports from the whole history)`;
  if (outside > 0)
    return `nothing to export: an export holds the tasks with a session in the last ${config.lookback_hours} hours (lookback_hours, since ${since}), and ${none}; nothing was written (--lookback-hours 0 exports from the whole history, or give a larger --lookback-hours)`;
  const capped =
    mined.sessionsLeftOut > 0
      ? ` (${mined.sessionsLeftOut} older sessions were not mined: max_sessions_per_night is ${config.max_sessions_per_night ?? DEFAULT_MAX_SESSIONS}, raise it with --max-sessions)`
      : '';
  return `nothing to export: no task recurs (asked in two or more sessions) among the ${minedSessions} for ${project}; nothing was written${capped}`;
}

export async function doExport(flags: ExportFlags, command: Command): Promise<void> {
  const ctx = cliContext(flags, 'reading transcripts');
  const out = cliPath(flags.tasks);
  const project = resolveStoredProject(flags.project);
  const { replaces } = checkExportTarget(out);
  const config = projectConfig(ctx, project, command).config;
  const db = openStore(dbFile(ctx.home));
  try {
    const sources = selectedSources(config);
    const summary = await harvest({
      db,
      ctx: { home: ctx.userHome, env: ctx.env, projectFolders: () => [project] },
      clock: ctx.clock,
      logger: ctx.logger,
      ...(sources ? { sources } : {}),
      stateHome: ctx.home,
      retentionDays: config.retention_days,
      ...privacyOptions(config, ctx.userHome),
      onFile: (done, total) => ctx.status?.count(done, total, 'transcript files'),
    });
    logHarvestEnd(summary, ctx.logger);
    checkGoneProject(db, project, ctx.logger);
    const local = { project, home: ctx.userHome };
    const mined = mineProjectTasks(db, project, config, ctx.clock);
    const { recurring, tasks } = exportable(mined, local);
    if (tasks.length === 0) {
      // Mined again over the whole history (the mining itself is reused): is the window the cause?
      const whole =
        mined.activeSince === null
          ? null
          : exportable(mineProjectTasks(db, project, config, ctx.clock, true), local);
      throw new UsageError(nothingToExport(mined, whole?.recurring.length ?? 0, project, config));
    }
    const file = tasksFileObject({
      // The folder's name, not its path: the path names this machine's user.
      project: path.basename(project),
      transcriptSource: config.transcript_source,
      nSessions: mined.nSessions,
      targetSkillPath: '',
      reviewed: false,
      tasks,
    });
    // 0644, not private: the file is meant to be reviewed and committed for the team to read.
    try {
      writeFileAtomicSync(out, tasksFileText(file), DEFAULT_FILE_MODE);
    } catch (err) {
      throw new IoError(`cannot write ${out}: ${errorMessage(err)}`);
    }
    const result = {
      output: out,
      replaced: replaces,
      reviewed: false,
      n_sessions: mined.nSessions,
      n_recurring: recurring.length,
      n_tasks: tasks.length,
    };
    if (ctx.json) {
      printJson(result);
      return;
    }
    say(
      `[sleep] export: ${tasks.length} task instances of ${recurring.length} recurring tasks from ${mined.nSessions} sessions -> ${out}${replaces ? ' (replaced the earlier export)' : ''}`,
    );
    say(
      '[sleep] it is marked "reviewed": false: read it (every text is redacted, but it quotes your requests and the answers you accepted), then commit it',
    );
  } finally {
    db.close();
  }
}
