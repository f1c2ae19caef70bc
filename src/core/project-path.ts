/**
 * One normal form for project folders and recorded working directories, so a session's cwd and the
 * invoked project compare equal: `~` expanded, Windows separators unified, symlinks resolved when the
 * folder exists, no trailing separator, and case folded where the file system ignores case.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';

export interface PathContext {
  home: string;
  platform: NodeJS.Platform;
}

const WINDOWS_PATH = /^[A-Za-z]:[\\/]|^\\\\/;
const DRIVE_PATH = /^[A-Za-z]:[\\/]/;

/**
 * Whether a folder in normal form can be on this machine: a drive-letter path only on Windows, a
 * `/…` path only elsewhere (a log recorded on the other OS names a folder no lookup here may find).
 */
export function isPathOfPlatform(p: string, platform: NodeJS.Platform): boolean {
  return platform === 'win32' ? DRIVE_PATH.test(p) : p.startsWith('/');
}

export function normalizeProjectPath(input: string, ctx: PathContext): string {
  let p = input.trim();
  if (p === '') return '';
  if (p === '~' || p.startsWith('~/') || p.startsWith('~\\')) p = path.join(ctx.home, p.slice(1));
  const windowsStyle = WINDOWS_PATH.test(p);
  if (windowsStyle) {
    p = p.replace(/\\/g, '/').replace(/\/{2,}/g, '/');
  } else {
    p = path.resolve(p);
    try {
      p = realpathSync.native(p);
    } catch {
      // A folder that no longer exists keeps its recorded spelling.
    }
  }
  if (p.length > 1) p = p.replace(/\/+$/, '');
  if (/^[A-Za-z]:$/.test(p)) p = `${p}/`;
  const foldCase = windowsStyle || ctx.platform === 'darwin' || ctx.platform === 'win32';
  return foldCase ? p.toLowerCase() : p;
}

/** Normalises many paths, resolving each distinct spelling once (the harvest sees the same cwd often). */
export function cachedNormalizer(ctx: PathContext): (input: string) => string {
  const cache = new Map<string, string>();
  return (input) => {
    let out = cache.get(input);
    if (out === undefined) {
      out = normalizeProjectPath(input, ctx);
      cache.set(input, out);
    }
    return out;
  };
}
