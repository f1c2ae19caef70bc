/**
 * Recursive file listing for harvesters: stat data included, symlinked directories never followed.
 * Synchronous system calls under an async signature: listing a few thousand local files through the
 * thread pool cost a harvest with nothing new more than the rest of its work.
 */
import type { Dirent, Stats } from 'node:fs';
import { lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { IoError, errnoCode } from '../errors.js';

export interface WalkedFile {
  /** Absolute (or root-relative, if the root was relative) path of the file. */
  path: string;
  /** Path below the root, always with "/" separators (so `match` is the same on every OS). */
  relPath: string;
  size: number;
  mtimeMs: number;
  ino: number;
}

export interface WalkOptions {
  /** Keep a file when this returns true for its "/"-separated path below the root. */
  match: (relPath: string) => boolean;
  /** Do not descend into directories with this name. */
  skipDir?: (name: string) => boolean;
}

/** `special`: a FIFO, socket or device (or a symlink to one). */
type EntryKind = 'dir' | 'file' | 'special' | 'other';

/**
 * Lists the matching files under `root`, sorted by relPath. A missing root gives an empty list; an
 * unreadable root rejects with an IoError naming it. Unreadable subdirectories and entries that vanish
 * mid-walk are skipped (transcript folders change while agents run). Symlinks to files are listed;
 * symlinks to directories are not followed (no cycles, no escaping the root). A matching FIFO, socket
 * or device is listed too, so the reader refuses it by name (regular-file.ts) rather than it vanishing
 * without a word; never read a listed file without that check.
 */
export function walkFiles(root: string, options: WalkOptions): Promise<WalkedFile[]> {
  try {
    return Promise.resolve(walkFilesSync(root, options));
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

function walkFilesSync(root: string, options: WalkOptions): WalkedFile[] {
  const rootEntries = readRootDir(root);
  const found: WalkedFile[] = [];
  const stack: { dir: string; rel: string; entries: Dirent[] }[] = [
    { dir: root, rel: '', entries: rootEntries },
  ];

  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    for (const entry of next.entries) {
      const full = path.join(next.dir, entry.name);
      const rel = next.rel === '' ? entry.name : `${next.rel}/${entry.name}`;
      const kind = entryKind(entry, full);
      if (kind === 'dir') {
        if (options.skipDir?.(entry.name)) continue;
        const entries = readDirOrEmpty(full);
        stack.push({ dir: full, rel, entries });
      } else if ((kind === 'file' || kind === 'special') && options.match(rel)) {
        const stats = statOrUndefined(full);
        if (stats !== undefined && !stats.isDirectory()) found.push(toWalkedFile(full, rel, stats));
      }
    }
  }
  return found.sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
}

function readRootDir(root: string): Dirent[] {
  try {
    return readdirSync(root, { withFileTypes: true });
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new IoError(`Cannot list ${root}: ${code ?? String(err)}`);
  }
}

function readDirOrEmpty(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Directories are only real ones; a symlink counts as what it points at, unless that is a directory. */
function entryKind(entry: Dirent, full: string): EntryKind {
  if (entry.isDirectory()) return 'dir';
  if (entry.isFile()) return 'file';
  if (entry.isSymbolicLink()) return targetKind(full);
  if (entry.isFIFO() || entry.isSocket() || entry.isCharacterDevice() || entry.isBlockDevice()) {
    return 'special';
  }
  // Some filesystems report no type in readdir; lstat so an untyped symlink is still not followed.
  const stats = lstatOrUndefined(full);
  if (stats === undefined) return 'other';
  if (stats.isSymbolicLink()) return targetKind(full);
  if (stats.isDirectory()) return 'dir';
  return stats.isFile() ? 'file' : 'special';
}

/** What a symlink points at; a link to a directory (or to nothing) is never entered. */
function targetKind(full: string): EntryKind {
  const target = statOrUndefined(full);
  if (target === undefined || target.isDirectory()) return 'other';
  return target.isFile() ? 'file' : 'special';
}

function lstatOrUndefined(full: string): Stats | undefined {
  try {
    return lstatSync(full);
  } catch {
    return undefined;
  }
}

function statOrUndefined(full: string): Stats | undefined {
  try {
    return statSync(full);
  } catch {
    return undefined;
  }
}

function toWalkedFile(full: string, rel: string, stats: Stats): WalkedFile {
  return { path: full, relPath: rel, size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino };
}
