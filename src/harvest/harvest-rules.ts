/**
 * What a harvest may read, decided per session by its working folder: the user's `exclude_paths` and
 * `include_paths` (their own config only), and any `.skillopt-sleep-ignore` file in that folder or one
 * above it (it comes with a repository, so it can only keep sessions out, never let one in). A session
 * kept out is never written to the store: not its turns, not its cwd, not its transcript's path.
 */
import { closeSync, readSync } from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import picomatch from 'picomatch';
import type { Config } from '../config/schema.js';
import type { SourceId } from '../core/session.js';
import { errnoCode } from '../core/errors.js';
import { sha256Hex } from '../core/hash.js';
import { openRegularFile } from '../core/io/regular-file.js';

export const IGNORE_FILE = '.skillopt-sleep-ignore';

/** An ignore file larger than this opts its whole folder out (it is not read further). */
const MAX_IGNORE_FILE_BYTES = 64 * 1024;

export type ExclusionReason = 'exclude_paths' | 'include_paths' | typeof IGNORE_FILE;

export interface HarvestRules {
  /** Why sessions whose working folder is `cwd` (in the normal form of `project-path.ts`) stay out, or null. */
  excludes(cwd: string): ExclusionReason | null;
  /**
   * A hash of the user's rules: a transcript skipped under other rules is read again, so a session the
   * new rules let in is stored without re-reading anything else.
   */
  readonly hash: string;
}

export interface RulesContext {
  /** The user's home, for `~` in patterns. */
  userHome: string;
  platform: NodeJS.Platform;
}

/** The rules of a config: its privacy keys, and `.skillopt-sleep-ignore` files as found on disk. */
export function harvestRules(
  config: Pick<Config, 'exclude_paths' | 'include_paths'>,
  ctx: RulesContext,
): HarvestRules {
  const foldCase = ctx.platform === 'darwin' || ctx.platform === 'win32';
  const exclude = folderMatcher(config.exclude_paths, ctx, foldCase);
  const include = config.include_paths.length > 0 ? folderMatcher(config.include_paths, ctx, foldCase) : null;
  const optedOut = ignoreFileLookup();
  const decided = new Map<string, ExclusionReason | null>();
  return {
    hash: sha256Hex(
      JSON.stringify({
        v: 1,
        exclude: config.exclude_paths,
        include: config.include_paths,
        home: ctx.userHome,
      }),
    ),
    excludes(cwd) {
      let reason = decided.get(cwd);
      if (reason !== undefined) return reason;
      reason = null;
      if (exclude !== null && cwd !== '' && exclude(cwd)) reason = 'exclude_paths';
      else if (include !== null && (cwd === '' || !include(cwd))) reason = 'include_paths';
      else if (cwd !== '' && optedOut(cwd)) reason = IGNORE_FILE;
      decided.set(cwd, reason);
      return reason;
    },
  };
}

/**
 * A test of "this folder or one above it matches a pattern". A pattern is a glob over absolute folders
 * (`~` = the user's home); one that does not start at the root (`client-*`) matches at any depth.
 */
function folderMatcher(
  patterns: readonly string[],
  ctx: RulesContext,
  foldCase: boolean,
): ((cwd: string) => boolean) | null {
  if (patterns.length === 0) return null;
  const globs = patterns.flatMap((raw) => {
    const p = anchored(raw.trim(), ctx.userHome).replace(/\/+$/, '');
    return [p, `${p}/**`];
  });
  return picomatch(globs, { dot: true, nocase: foldCase });
}

function anchored(pattern: string, home: string): string {
  let p = pattern.replace(/\\/g, '/');
  if (p === '~' || p.startsWith('~/')) p = home.replace(/\\/g, '/') + p.slice(1);
  if (p.startsWith('/') || /^[A-Za-z]:\//.test(p)) return p;
  return `**/${p}`;
}

/**
 * Whether an ignore file in `cwd` or one of its ancestors keeps `cwd` out: an empty one (blank lines and
 * `#` comments only) keeps its whole folder out; otherwise its lines are .gitignore patterns over the
 * folders below it. One that cannot be read as a small regular file keeps its whole folder out too: the
 * repository asked for less, and we cannot tell how much less. Each folder is looked at once.
 */
function ignoreFileLookup(): (cwd: string) => boolean {
  const byFolder = new Map<string, IgnoreFile>();
  const fileOf = (folder: string): IgnoreFile => {
    let found = byFolder.get(folder);
    if (found === undefined) {
      found = readIgnoreFile(path.join(folder, IGNORE_FILE));
      byFolder.set(folder, found);
    }
    return found;
  };
  return (cwd) => {
    if (!path.isAbsolute(cwd)) return false;
    for (let folder = cwd; ; folder = path.dirname(folder)) {
      const file = fileOf(folder);
      if (file === 'whole') return true;
      if (
        file !== null &&
        folder !== cwd &&
        file.ignores(`${path.relative(folder, cwd).split(path.sep).join('/')}/`)
      )
        return true;
      if (path.dirname(folder) === folder) return false;
    }
  };
}

type IgnoreFile = null | 'whole' | ReturnType<typeof ignore>;

function readIgnoreFile(file: string): IgnoreFile {
  let text: string;
  try {
    const { fd, stats } = openRegularFile(file);
    try {
      if (stats.size > MAX_IGNORE_FILE_BYTES) return 'whole';
      const buffer = Buffer.alloc(stats.size);
      const n = stats.size === 0 ? 0 : readSync(fd, buffer, 0, stats.size, 0);
      text = buffer.subarray(0, n).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    return 'whole'; // there, but not readable as a regular file (a folder, a FIFO, no permission)
  }
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  if (lines.length === 0) return 'whole';
  return ignore().add(lines);
}

/** The harvest options a config's privacy keys give (`harvest()`'s `rules` and `excludedSources`). */
export function privacyOptions(
  config: Pick<Config, 'exclude_paths' | 'include_paths' | 'exclude_sources'>,
  userHome: string,
  platform: NodeJS.Platform = process.platform,
): { rules: HarvestRules; excludedSources: SourceId[] } {
  return {
    rules: harvestRules(config, { userHome, platform }),
    excludedSources: [...config.exclude_sources],
  };
}
