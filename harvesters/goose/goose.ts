/**
 * Goose (block/goose). Its sessions folder is `<data>/sessions`, the data folder being `$GOOSE_PATH_ROOT/data`
 * (Goose's own setting, absolute only), else `$XDG_DATA_HOME/goose` or `<home>/.local/share/goose` (Linux and
 * macOS: Goose takes the XDG layout on both) and `%APPDATA%\Block\goose\data` on Windows
 * (`Paths::data_dir`, crates/goose/src/config/paths.rs). There:
 * - `sessions.db` (Goose 1.10+): SQLite, read per session (`store.ts`);
 * - `<id>.jsonl` (before): a metadata line (`working_dir`, `description`, `schedule_id`, token counts), then one
 *   message per line; Goose rewrote the file whole on each save. When Goose created the store it imported
 *   these files under the same ids: a file whose id the store holds is not read.
 * Scheduled recipe runs, sub-agents' and hidden sessions are not the user's. `incremental: false`: a changed
 * session is read whole; an unchanged one is not read at all.
 */
import path from 'node:path';
import { IoError, errorMessage } from '../../src/core/errors.js';
import { readJsonlLines } from '../../src/core/io/jsonl.js';
import { walkFiles } from '../../src/core/io/walk.js';
import { isRecord, settled } from '../shared/values.js';
import { splitConversationPath, storeStat, withStore } from '../shared/sqlite-store.js';
import { buildGooseSession, type GooseConversation } from './session.js';
import { listGooseStore, readGooseStoreSession } from './store.js';
import type { FileParse, HarvestContext, Harvester } from '../types.js';
import type { SourceFile } from '../../src/core/session.js';

const STORE_FILE = 'sessions.db';

export const goose: Harvester = {
  id: 'goose',
  incremental: false,
  roots: gooseRoots,
  discover: discoverGoose,
  parse: (file) => settled(() => parseGooseFile(file)),
};

/** The sessions folders Goose may use on this machine, in the order searched. */
function gooseRoots(ctx: HarvestContext): string[] {
  const pathRoot = ctx.env['GOOSE_PATH_ROOT']?.trim();
  if (pathRoot && path.isAbsolute(pathRoot)) return [path.join(pathRoot, 'data', 'sessions')];
  const xdg = ctx.env['XDG_DATA_HOME']?.trim();
  const dataHome = xdg && path.isAbsolute(xdg) ? xdg : path.join(ctx.home, '.local', 'share');
  const appData = ctx.env['APPDATA']?.trim() || path.join(ctx.home, 'AppData', 'Roaming');
  return [path.join(dataHome, 'goose', 'sessions'), path.join(appData, 'Block', 'goose', 'data', 'sessions')];
}

const isLegacySession = (relPath: string): boolean => !relPath.includes('/') && relPath.endsWith('.jsonl');

async function discoverGoose(ctx: HarvestContext): Promise<SourceFile[]> {
  const found: SourceFile[] = [];
  for (const root of gooseRoots(ctx)) {
    const dbPath = path.join(root, STORE_FILE);
    const stat = storeStat(dbPath);
    let inStore = new Set<string>();
    if (stat !== undefined) {
      try {
        const listed = listGooseStore(dbPath, stat.inode, stat.mtimeMs);
        found.push(...listed.files);
        inStore = listed.ids;
      } catch {
        // Not readable as a store (locked, corrupt, not a regular file): the parse reports it by name.
        found.push({ source: 'goose', path: dbPath, size: 0, mtimeMs: stat.mtimeMs, inode: stat.inode });
      }
    }
    for (const f of await walkFiles(root, { match: isLegacySession })) {
      if (inStore.has(path.basename(f.path, '.jsonl'))) continue;
      found.push({ source: 'goose', path: f.path, size: f.size, mtimeMs: f.mtimeMs, inode: f.ino });
    }
  }
  return found;
}

function parseGooseFile(file: SourceFile): FileParse {
  const done = (conversation: GooseConversation | undefined, badLines: number): FileParse => {
    const session = conversation ? buildGooseSession(conversation, file.path) : undefined;
    return { sessions: session ? [session] : [], badLines, endOffset: file.size, readWhole: true };
  };
  try {
    const inStore = splitConversationPath(file.path);
    if (inStore !== undefined && path.basename(inStore.dbPath) === STORE_FILE && !inStore.id.includes('/')) {
      const read = readGooseStoreSession(inStore.dbPath, inStore.id);
      return done(read.conversation, read.badRows);
    }
    if (path.basename(file.path) === STORE_FILE) {
      // Throws why it cannot be read (not SQLite, locked, not a regular file).
      withStore(file.path, (db) => db.pragma('schema_version'));
      return done(undefined, 0);
    }
    return parseLegacyFile(file, done);
  } catch (err) {
    throw new IoError(`Cannot read Goose session ${file.path}: ${errorMessage(err)}`);
  }
}

/** A legacy `<id>.jsonl`: Goose wrote it whole (to a new file it renamed), so every line is complete. */
function parseLegacyFile(
  file: SourceFile,
  done: (conversation: GooseConversation | undefined, badLines: number) => FileParse,
): FileParse {
  let badLines = 0;
  let workingDir = '';
  let scheduled = false;
  const messages: Record<string, unknown>[] = [];
  let first = true;
  for (const line of readJsonlLines(file.path, 0, { includeOpenLastLine: true })) {
    const value = line.value;
    if (line.bad || !isRecord(value)) {
      badLines++;
    } else if (first && !('role' in value)) {
      // The metadata line (Goose reads a first line that is not metadata as a message).
      if (typeof value['working_dir'] === 'string') workingDir = value['working_dir'];
      scheduled = typeof value['schedule_id'] === 'string' && value['schedule_id'] !== '';
    } else {
      messages.push(value);
    }
    first = false;
  }
  if (scheduled) return done(undefined, badLines); // a recipe the scheduler ran: nobody typed it
  const id = path.basename(file.path, '.jsonl');
  return done({ id, workingDir, createdMs: null, updatedMs: null, messages }, badLines);
}
