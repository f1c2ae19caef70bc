/** What every command needs: the state home, the project, the effective config, the store. */
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { systemClock } from '../core/clock.js';
import { IoError, UsageError, errnoCode, errorMessage } from '../core/errors.js';
import { folderProblem, isFolder } from '../core/io/folder-problem.js';
import { keepPrivate, keepTreePrivate } from '../core/io/private-mode.js';
import { checkProjectStateDir } from '../core/io/project-state-dir.js';
import type { Logger } from '../core/logger.js';
import { dbFile, stateHome, stateHomeEntries, userHome, type Env } from '../config/paths.js';
import { openStore, type Db } from '../store/db.js';
import { markInterruptedNights } from '../store/nights-repo.js';
import { isPathOfPlatform, normalizeProjectPath } from '../core/project-path.js';
import { countQuerySessions } from '../store/sessions-repo.js';
import { demoProjectDir, demoStoreFile } from '../night/demo.js';
import { cliIo } from './io.js';
import { messageLine } from './output.js';
import type { StatusLine } from './status-line.js';
import { runTerminal } from './terminal.js';

export interface CommonFlags {
  project?: string;
  json?: boolean;
  progress?: boolean;
  demo?: boolean;
}

export interface CliContext {
  env: Env;
  home: string;
  userHome: string;
  clock: typeof systemClock;
  logger: Logger;
  json: boolean;
  /** A long command's status line (a terminal's stderr, no --json), which its progress messages set. */
  status?: StatusLine | null;
}

/**
 * Progress messages as lines on stderr with `progress` (a line repeating the one before is counted, not
 * printed again), and as the phase of `status` when there is one; warnings always.
 */
export function stderrLogger(progress: boolean, status: StatusLine | null = null): Logger {
  const stderr = cliIo().stderr;
  const terminal = runTerminal();
  return {
    progress: (m) => {
      const text = messageLine(m);
      status?.phase(text);
      if (!progress) return;
      if (terminal) terminal.progressLine(`[sleep] ${text}`);
      else stderr.write(`[sleep] ${text}\n`);
    },
    warn: (m) => stderr.write(`[sleep] warning: ${messageLine(m)}\n`),
  };
}

/**
 * The status line of a long command (`run`, `dry-run`, `harvest`, `export`, `train`, `eval`), showing
 * `label` until a progress message replaces it: only on a terminal's stderr, never with `--json`.
 */
export function statusLine(json: boolean, label: string): StatusLine | null {
  return json ? null : (runTerminal()?.statusLine(label) ?? null);
}

/**
 * The state home, checked before any command reads its config or opens its store, so every command
 * reports an unusable one with the same sentence and exit code.
 */
export function usableStateHome(env: Env): string {
  const home = stateHome(env);
  const problem = folderProblem(home);
  if (problem) {
    throw new IoError(
      `state home ${home} cannot be used: ${problem}. Set SKILLOPT_SLEEP_HOME to a folder you can write (or move that file away)`,
      'state_home_unusable',
    );
  }
  // Made 0700/0600 as it is written; an older or loosened one is tightened here, whole.
  keepPrivate(home);
  keepTreePrivate(stateHomeEntries(home));
  return home;
}

/** `status`: a long command's first phase, which makes it show a status line (`statusLine`). */
export function cliContext(flags: CommonFlags, status?: string): CliContext {
  const env = cliIo().env;
  const home = usableStateHome(env);
  const line = status === undefined ? null : statusLine(flags.json === true, status);
  return {
    env,
    home,
    userHome: userHome(env),
    clock: systemClock,
    logger: stderrLogger(flags.progress === true, line),
    json: flags.json === true,
    status: line,
  };
}

/**
 * The project folder: --project (a leading `~` is the home folder) or the current folder; it must
 * exist unless `mustExist` is false. An empty --project is refused rather than read as the current folder;
 * a symlink in its `.skillopt-sleep/` is refused (`checkProjectStateDir`), and modes there are tightened.
 */
export function resolveProject(flag: string | undefined, mustExist = true): string {
  if (flag !== undefined && flag.trim() === '')
    throw new UsageError(
      '--project is empty: give a project folder, or leave the option out for the current folder',
    );
  const io = cliIo();
  const project = normalizeProjectPath(flag === undefined ? io.cwd : fromCwd(flag, io.cwd), {
    home: userHome(io.env),
    platform: process.platform,
  });
  if (!folderHere(project)) {
    if (!mustExist) return project;
    // A folder that is gone may still have sessions in the store: say which commands read those.
    const gone = onThisMachine(project) && existsSync(project) ? '' : GONE_HINT;
    throw new UsageError(`${missingFolder(project)}${gone}`);
  }
  assertReadable(project);
  // Before its config, proposals or lock are read: a symlinked state folder is refused.
  checkProjectStateDir(project);
  return project;
}

/** A folder we may list and enter; one the user closed (EACCES) is one line, not a stack trace. */
function assertReadable(project: string): void {
  try {
    accessSync(project, constants.R_OK | constants.X_OK);
  } catch (err) {
    throw new IoError(
      `project folder ${project} cannot be read (${errnoCode(err) ?? errorMessage(err)}): give yourself read access to it, or choose another with --project`,
      'project_unreadable',
    );
  }
}

const GONE_HINT =
  ': this command needs it (harvest, lessons, status, export and report read the sessions stored for a folder that is gone, and run mines them)';

const missingFolder = (project: string): string =>
  `project folder ${project} does not exist or is not a folder`;

const onThisMachine = (project: string): boolean => isPathOfPlatform(project, process.platform);

/** A folder on this machine (a drive-letter path is never looked up on Linux: it would read as relative). */
export const folderHere = (project: string): boolean => onThisMachine(project) && isFolder(project);

/**
 * The project of a command that reads the store and writes nothing into the folder (harvest, status,
 * export, report): like `resolveProject`, but a folder that is not on this machine (moved, deleted,
 * recorded on another OS) passes, for `checkGoneProject` to decide once the store is open.
 */
export function resolveStoredProject(flag: string | undefined): string {
  const project = resolveProject(flag, false);
  if (!folderHere(project) && onThisMachine(project) && existsSync(project))
    throw new UsageError(missingFolder(project));
  return project;
}

/**
 * A folder that is not on this machine is used when the store holds sessions recorded in it or below
 * it (with a warning); with none it is refused as `resolveProject` refuses it.
 */
export function checkGoneProject(db: Db, project: string, logger: Logger): void {
  if (folderHere(project)) return;
  const n = countQuerySessions(db, { project, scope: 'invoked', sinceMs: null });
  if (n === 0) throw new UsageError(missingFolder(project));
  logger.warn(
    `project folder ${project} does not exist on this machine: only what the store holds for it is used (${n} session${n === 1 ? '' : 's'} started in it or below)`,
  );
}

/** A relative --project is relative to the CLI's folder; `~`, absolute and Windows paths are the normaliser's. */
export function fromCwd(flag: string, cwd: string): string {
  const p = flag.trim();
  if (p === '~' || /^~[\\/]/.test(p) || path.isAbsolute(p) || /^[A-Za-z]:[\\/]|^\\\\/.test(p)) return p;
  return path.resolve(cwd, p);
}

/**
 * The project a proposal command works on: the demo's copy with --demo (made by `run --demo`),
 * else --project or the current folder.
 */
export function commandProject(ctx: CliContext, flags: CommonFlags): string {
  if (!flags.demo) return resolveProject(flags.project);
  const demo = demoProjectDir(ctx.home);
  if (!existsSync(demo))
    throw new UsageError('the demo has not run yet: run `skillopt-sleep run --demo` first');
  return resolveProject(realpathSync(demo));
}

/** Whether `project` is the demo's copy that `run --demo` keeps (its nights are in the demo's store). */
export function isDemoProject(ctx: CliContext, project: string): boolean {
  const demo = demoProjectDir(ctx.home);
  return existsSync(demo) && realpathSync(demo) === project;
}

/**
 * How a command the CLI suggests names the project: `--demo` for the demo's copy (the demo's store),
 * else `--project "<folder>"`.
 */
export const projectArg = (project: string, demo: boolean): string =>
  demo ? '--demo' : `--project ${JSON.stringify(project)}`;

/** `commandProject` for a command that reads the store only: a folder that is gone may pass (`checkGoneProject`). */
export function storedCommandProject(ctx: CliContext, flags: CommonFlags): string {
  return flags.demo ? commandProject(ctx, flags) : resolveStoredProject(flags.project);
}

/** The store: the demo's own with --demo (sealed from real nights), else the state home's. */
export function openDb(ctx: CliContext, flags: CommonFlags = {}): Db {
  return openNightStore(ctx, flags.demo ? demoStoreFile(ctx.home) : dbFile(ctx.home));
}

/** Open a store and mark its nights whose process was killed as interrupted (they never finish). */
export function openNightStore(ctx: CliContext, file: string): Db {
  const db = openStore(file);
  try {
    markInterruptedNights(db, ctx.clock.now());
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}
