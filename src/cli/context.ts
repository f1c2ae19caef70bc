/** What every command needs: the state home, the project, the effective config, the store. */
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { systemClock } from '../core/clock.js';
import { UsageError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { loadConfig, type LoadedConfig } from '../config/load.js';
import { dbFile, stateHome, userHome, type Env } from '../config/paths.js';
import { openStore, type Db } from '../store/db.js';
import { normalizeProjectPath } from '../core/project-path.js';
import { demoProjectDir, demoStoreFile } from '../night/demo.js';
import { typedConfigFlags } from './options.js';

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
}

export function stderrLogger(progress: boolean): Logger {
  return {
    progress: (m) => {
      if (progress) process.stderr.write(`[sleep] ${m}\n`);
    },
    warn: (m) => process.stderr.write(`[sleep] warning: ${m}\n`),
  };
}

export function cliContext(flags: CommonFlags): CliContext {
  const env = process.env;
  return {
    env,
    home: stateHome(env),
    userHome: userHome(env),
    clock: systemClock,
    logger: stderrLogger(flags.progress === true),
    json: flags.json === true,
  };
}

/** The project folder: --project or the current folder; it must exist unless `mustExist` is false. */
export function resolveProject(flag: string | undefined, mustExist = true): string {
  const project = normalizeProjectPath(path.resolve(flag ?? process.cwd()), {
    home: userHome(process.env),
    platform: process.platform,
  });
  if (!mustExist) return project;
  const isDir = statSync(project, { throwIfNoEntry: false })?.isDirectory() ?? false;
  if (!isDir) throw new UsageError(`project folder ${project} does not exist or is not a folder`);
  return project;
}

export function projectConfig(ctx: CliContext, project: string, cmd: Command): LoadedConfig {
  return loadConfig(ctx.home, project, typedConfigFlags(cmd));
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

/** The store: the demo's own with --demo (sealed from real nights), else the state home's. */
export function openDb(ctx: CliContext, flags: CommonFlags = {}): Db {
  return openStore(flags.demo ? demoStoreFile(ctx.home) : dbFile(ctx.home));
}
