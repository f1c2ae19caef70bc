/** One project's crontab line: build it (every word quoted, every `%` escaped) and read it back. */
import { UsageError } from '../core/errors.js';
import { nightLogFile, projectLogsDir } from '../config/paths.js';
import { markerFor, projectDigest } from './crontab-block.js';
import {
  assertNoControlCharacters,
  cronEscape,
  cronUnescape,
  shellQuote,
  shellSplit,
} from './shell-quote.js';

export interface NightCommand {
  project: string;
  /** Absolute path of the node binary and of the CLI entry (cron's PATH is minimal). */
  nodePath: string;
  cliPath: string;
  /** Arguments after `run --project <project>`. */
  args: string[];
  /** Variables set for the night only (`NAME=value` before the command). */
  env: Record<string, string>;
}

/** Refuse anything that cannot sit on one crontab line, before anything is written. */
export function assertSafeCommand(cmd: NightCommand): void {
  assertNoControlCharacters('the project path', cmd.project);
  assertNoControlCharacters('the node path', cmd.nodePath);
  assertNoControlCharacters('the CLI path', cmd.cliPath);
  for (const a of cmd.args) assertNoControlCharacters('an option', a);
  for (const [k, v] of Object.entries(cmd.env)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new UsageError(`bad environment variable name ${k}`);
    assertNoControlCharacters(k, v);
  }
}

/** The argv a scheduled night runs (also what the daemon spawns). */
export function nightArgv(cmd: NightCommand): string[] {
  return [cmd.nodePath, cmd.cliPath, 'run', '--project', cmd.project, ...cmd.args];
}

/** `<cron>  mkdir -p <logs> && VAR=… <node> <cli> run --project <p> … >> <log> 2>&1  # marker`. */
export function buildCronLine(cron: string, cmd: NightCommand): string {
  assertSafeCommand(cmd);
  const env = Object.entries(cmd.env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  const run = [...env, ...nightArgv(cmd).map(shellQuote)].join(' ');
  const shell = `mkdir -p ${shellQuote(projectLogsDir(cmd.project))} && ${run} >> ${shellQuote(nightLogFile(cmd.project))} 2>&1`;
  return `${cron}  ${cronEscape(shell)}  ${markerFor(projectDigest(cmd.project))}`;
}

export interface ParsedLine {
  cron: string;
  project: string | null;
}

/** Read back the schedule and project of a managed line (lines we wrote; null project if unreadable). */
export function parseCronLine(line: string): ParsedLine {
  const fields = line.trim().split(/\s+/);
  const cron = fields.slice(0, 5).join(' ');
  try {
    const command = cronUnescape(line.trim().replace(/^(\S+\s+){5}/, ''));
    const words = shellSplit(command);
    const at = words.indexOf('--project');
    return { cron, project: at >= 0 ? (words[at + 1] ?? null) : null };
  } catch {
    return { cron, project: null };
  }
}
