/**
 * The Cursor editor's own chats and agent runs (its composers), kept in the `User` folder of the Cursor
 * profile on Linux (`~/.config/Cursor/User`), macOS (`~/Library/Application Support/Cursor/User`), Windows
 * (`%APPDATA%\Cursor\User`) and remote servers (`shared/vscode-user-dirs.ts`): the conversations in
 * `globalStorage/state.vscdb` (`store.ts`), the workspace of each in the `state.vscdb` of the workspace that
 * lists it (`workspaceStorage/<hash>/`, `composer.composerData`) and that folder's `workspace.json`. Cursor's
 * CLI agent writes transcripts of its own (`cursor-cli/`). `incremental: false`: a changed composer is read whole.
 */
import path from 'node:path';
import { IoError, errorMessage } from '../../src/core/errors.js';
import { walkFiles } from '../../src/core/io/walk.js';
import { workspaceProject } from '../copilot-vscode/workspace.js';
import { splitConversationPath, storeStat, withStore } from '../shared/sqlite-store.js';
import { VSCODE_FORKS, vscodeUserDirs } from '../shared/vscode-user-dirs.js';
import { buildCursorSession } from './session.js';
import { listComposers, readComposer, workspaceComposerIds } from './store.js';
import type { FileParse, HarvestContext, Harvester } from '../types.js';
import type { SourceFile } from '../../src/core/session.js';

const CURSOR = VSCODE_FORKS.filter((p) => p.name === 'Cursor');
const GLOBAL_DB = path.join('globalStorage', 'state.vscdb');

export const cursorIde: Harvester = {
  id: 'cursor-ide',
  incremental: false,
  // The global store and its log, not all of globalStorage (every extension's storage is there).
  roots: (ctx) =>
    vscodeUserDirs(ctx, CURSOR).flatMap((dir) => [
      path.join(dir, GLOBAL_DB),
      path.join(dir, `${GLOBAL_DB}-wal`),
    ]),
  discover: discoverCursorIde,
  parse: parseCursorIdeFile,
};

function discoverCursorIde(ctx: HarvestContext): Promise<SourceFile[]> {
  const found: SourceFile[] = [];
  for (const userDir of vscodeUserDirs(ctx, CURSOR)) {
    const dbPath = path.join(userDir, GLOBAL_DB);
    const stat = storeStat(dbPath);
    if (stat === undefined) continue;
    try {
      found.push(...listComposers(dbPath, stat.inode, stat.mtimeMs));
    } catch {
      // Not readable as a store (locked, corrupt, not a regular file): the parse reports it by name.
      found.push({ source: 'cursor-ide', path: dbPath, size: 0, mtimeMs: stat.mtimeMs, inode: stat.inode });
    }
  }
  return Promise.resolve(found);
}

async function parseCursorIdeFile(file: SourceFile): Promise<FileParse> {
  try {
    const inStore = splitConversationPath(file.path);
    if (inStore === undefined || !inStore.dbPath.endsWith('.vscdb') || inStore.id.includes('/')) {
      // Throws why it cannot be read (not SQLite, locked, not a regular file).
      withStore(file.path, (db) => db.pragma('schema_version'));
      return { sessions: [], badLines: 0, endOffset: file.size, readWhole: true };
    }
    const read = readComposer(inStore.dbPath, inStore.id);
    const userDir = path.dirname(path.dirname(inStore.dbPath));
    const cwd = read.composer ? await composerFolder(userDir, inStore.id) : '';
    const session = read.composer ? buildCursorSession(read.composer, cwd, file.path) : undefined;
    return {
      sessions: session ? [session] : [],
      badLines: read.badRows,
      endOffset: file.size,
      readWhole: true,
    };
  } catch (err) {
    throw new IoError(`Cannot read Cursor chat ${file.path}: ${errorMessage(err)}`);
  }
}

/** Which workspace lists each composer, per `User` folder, kept while the workspace stores do not change. */
const folderMaps = new Map<string, { stamp: string; folders: Map<string, string> }>();

async function composerFolder(userDir: string, composerId: string): Promise<string> {
  const stores = await walkFiles(path.join(userDir, 'workspaceStorage'), {
    match: (rel) => rel.split('/').length === 2 && rel.endsWith('/state.vscdb'),
  });
  const stamp = stores.map((s) => `${s.path}:${s.size}:${s.mtimeMs}`).join('|');
  let cached = folderMaps.get(userDir);
  if (cached === undefined || cached.stamp !== stamp) {
    const folders = new Map<string, string>();
    for (const store of stores) {
      let ids: string[];
      try {
        ids = workspaceComposerIds(store.path);
      } catch {
        continue; // a workspace store being rewritten: its composers keep no folder this time
      }
      if (ids.length === 0) continue;
      const folder = await workspaceProject(path.join(path.dirname(store.path), 'workspace.json'));
      for (const id of ids) if (!folders.has(id)) folders.set(id, folder);
    }
    cached = { stamp, folders };
    folderMaps.set(userDir, cached);
  }
  return cached.folders.get(composerId) ?? '';
}
