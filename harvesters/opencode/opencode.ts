/**
 * OpenCode (sst/opencode). Its data folder is `$XDG_DATA_HOME/opencode`, else `<home>/.local/share/opencode`
 * on every platform (OpenCode takes the XDG layout on macOS and Windows too, `Global.Path.data`). There:
 * - `opencode.db` (v1.2+; `opencode-<channel>.db` for other release channels; `$OPENCODE_DB` names another
 *   file, relative to the data folder or absolute): SQLite, read per session (`store.ts`);
 * - `storage/session|message|part/…json`: the JSON files of older versions (`storage.ts`); a session the
 *   store also holds (OpenCode copies them over when it migrates) is read from the store only.
 * Sub-agents' sessions (`parent_id`) are not sessions of the user. `incremental: false`: a changed session
 * is read whole and replaced; an unchanged one is not read at all.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { IoError, errorMessage } from '../../src/core/errors.js';
import { settled } from '../shared/values.js';
import { splitConversationPath, storeStat, withStore } from '../shared/sqlite-store.js';
import { buildOpenCodeSession, type OpenCodeConversation } from './session.js';
import { listStorageSessions, readStorageSession } from './storage.js';
import { listStoreSessions, readStoreSession } from './store.js';
import type { FileParse, HarvestContext, Harvester } from '../types.js';
import type { SourceFile } from '../../src/core/session.js';

/** `opencode.db`, or a release channel's `opencode-<channel>.db` (`Database.path()` in OpenCode). */
const STORE_NAME = /^opencode(?:-[A-Za-z0-9._-]+)?\.db$/;

export const opencode: Harvester = {
  id: 'opencode',
  incremental: false,
  roots: openCodeRoots,
  discover: discoverOpenCode,
  parse: (file) => parseOpenCodeFile(file),
};

/**
 * What the daemon watches: the store, its write-ahead log (where OpenCode's commits land first) and the JSON
 * storage; not the whole data folder, whose `snapshot/` holds OpenCode's git copies of the projects. A
 * release channel's `opencode-<channel>.db` is found by each harvest's discovery, not watched.
 */
function openCodeRoots(ctx: HarvestContext): string[] {
  const store =
    ctx.env['OPENCODE_DB']?.trim() === ':memory:'
      ? []
      : [storeOverride(ctx) ?? path.join(openCodeDataDir(ctx), 'opencode.db')];
  return [...store.flatMap((db) => [db, `${db}-wal`]), path.join(openCodeDataDir(ctx), 'storage')];
}

export function openCodeDataDir(ctx: HarvestContext): string {
  const xdg = ctx.env['XDG_DATA_HOME']?.trim();
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(ctx.home, '.local', 'share');
  return path.join(base, 'opencode');
}

/** `$OPENCODE_DB`: the one store OpenCode uses (`:memory:` keeps none on disk); undefined when unset. */
function storeOverride(ctx: HarvestContext): string | undefined {
  const value = ctx.env['OPENCODE_DB']?.trim();
  if (!value || value === ':memory:') return undefined;
  return path.isAbsolute(value) ? value : path.join(openCodeDataDir(ctx), value);
}

function storePaths(ctx: HarvestContext): string[] {
  if (ctx.env['OPENCODE_DB']?.trim() === ':memory:') return [];
  const override = storeOverride(ctx);
  if (override !== undefined) return [override];
  const dataDir = openCodeDataDir(ctx);
  try {
    return readdirSync(dataDir)
      .filter((name) => STORE_NAME.test(name))
      .sort()
      .map((name) => path.join(dataDir, name));
  } catch {
    return []; // no data folder: OpenCode never ran here
  }
}

async function discoverOpenCode(ctx: HarvestContext): Promise<SourceFile[]> {
  const found: SourceFile[] = [];
  const inStore = new Set<string>();
  for (const dbPath of storePaths(ctx)) {
    const stat = storeStat(dbPath);
    if (stat === undefined) continue;
    try {
      for (const file of listStoreSessions(dbPath, stat.inode, stat.mtimeMs)) {
        found.push(file);
        const id = splitConversationPath(file.path)?.id;
        if (id !== undefined) inStore.add(id);
      }
    } catch {
      // Not readable as a store (locked, corrupt, not a regular file): the parse reports it by name.
      found.push({ source: 'opencode', path: dbPath, size: 0, mtimeMs: stat.mtimeMs, inode: stat.inode });
    }
  }
  found.push(...(await listStorageSessions(openCodeDataDir(ctx), inStore)));
  return found;
}

/** A session of a store (`<db>#<id>`), a store that could not be listed, or a JSON session file. */
async function parseOpenCodeFile(file: SourceFile): Promise<FileParse> {
  const done = (conversation: OpenCodeConversation | undefined, badLines: number): FileParse => {
    const session = conversation ? buildOpenCodeSession(conversation, file.path) : undefined;
    return { sessions: session ? [session] : [], badLines, endOffset: file.size, readWhole: true };
  };
  try {
    const inStore = splitConversationPath(file.path);
    if (inStore !== undefined && inStore.dbPath.endsWith('.db') && !inStore.id.includes('/')) {
      const read = await settled(() => readStoreSession(inStore.dbPath, inStore.id));
      return done(read.conversation, read.badRows);
    }
    if (file.path.endsWith('.db')) {
      // Throws why it cannot be read (not SQLite, locked, not a regular file).
      await settled(() => withStore(file.path, (db) => db.pragma('schema_version')));
      return done(undefined, 0);
    }
    const read = await readStorageSession(file.path);
    return done(read.conversation, read.badLines);
  } catch (err) {
    throw new IoError(`Cannot read OpenCode session ${file.path}: ${errorMessage(err)}`);
  }
}
