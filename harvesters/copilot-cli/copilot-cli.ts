/**
 * GitHub Copilot CLI (harvest-spec §5). Under the Copilot home (`$COPILOT_HOME`, else
 * `<home>/.copilot`) it reads two kinds of file:
 * - `session-state/<id>/events.jsonl` (v1.0.11+) and legacy flat `session-state/<id>.jsonl`: the
 *   append-only event stream of one session (`copilot-cli-events.ts`), parsed from a byte offset;
 * - `session-store.db`: the SQLite cross-session index (`copilot-cli-store.ts`), opened read-only and
 *   parsed whole each time.
 *
 * `incremental` is per harvester, and the streams are what it is true for. The store ignores
 * `fromOffset`, gives every turn offset 0 and returns `endOffset` 0, so the core's cursor detects its
 * changes by size/mtime/inode (its size and mtime include the `-wal` file) and re-reads it whole.
 *
 * The same session (same id: `session.start.data.sessionId` = the folder name = `sessions.id`) can be
 * in both. The store parse leaves out sessions that have a stream, so the core upserts one session,
 * built from the fuller stream.
 */
import path from 'node:path';
import { walkFiles } from '../../src/core/io/walk.js';
import { settled } from '../shared/values.js';
import { parseEventsFile } from './events.js';
import { EVENTS_FILE_NAME } from './session.js';
import { parseStoreFile, SESSION_STATE_DIR, STORE_FILE_NAME, storeSnapshot } from './store.js';
import type { FileParse, HarvestContext, Harvester, ParseOptions } from '../types.js';
import type { SourceFile } from '../../src/core/session.js';

/** Session folders also hold `checkpoints/`, `files/` and `rewind-snapshots/`: no transcripts there. */
const NON_TRANSCRIPT_DIRS = new Set(['checkpoints', 'files', 'rewind-snapshots']);

export const copilotCli: Harvester = {
  id: 'copilot-cli',
  incremental: true,
  roots: copilotCliRoots,
  discover: discoverCopilotCliFiles,
  parse: parseCopilotCliFile,
};

// ---------------------------------------------------------------------------------------------
// Roots and discovery

/** `$COPILOT_HOME` (what `--config-dir` also sets), else `<home>/.copilot`. */
function copilotCliRoots(ctx: HarvestContext): string[] {
  const configured = ctx.env['COPILOT_HOME']?.trim();
  const dir = configured ? expandHome(configured, ctx.home) : path.join(ctx.home, '.copilot');
  return [path.resolve(dir)];
}

function expandHome(dir: string, home: string): string {
  if (dir === '~') return home;
  if (dir.startsWith('~/') || dir.startsWith('~\\')) return path.join(home, dir.slice(2));
  return dir;
}

/** `<id>/events.jsonl` one folder down, or a legacy `<id>.jsonl` directly in `session-state/`. */
function isEventsStream(relPath: string): boolean {
  const parts = relPath.split('/');
  if (parts.length === 1) return parts[0]?.endsWith('.jsonl') ?? false;
  return parts.length === 2 && parts[1] === EVENTS_FILE_NAME;
}

async function discoverCopilotCliFiles(ctx: HarvestContext): Promise<SourceFile[]> {
  const found: SourceFile[] = [];
  for (const root of copilotCliRoots(ctx)) {
    const store = await findStore(root);
    if (store) found.push(store);
    const streams = await walkFiles(path.join(root, SESSION_STATE_DIR), {
      match: isEventsStream,
      skipDir: (name) => NON_TRANSCRIPT_DIRS.has(name),
    });
    for (const f of streams) {
      found.push({ source: 'copilot-cli', path: f.path, size: f.size, mtimeMs: f.mtimeMs, inode: f.ino });
    }
  }
  return found;
}

async function findStore(root: string): Promise<SourceFile | undefined> {
  const storePath = path.join(root, STORE_FILE_NAME);
  try {
    const snapshot = await storeSnapshot(storePath);
    return { source: 'copilot-cli', path: storePath, ...snapshot };
  } catch {
    return undefined; // No store (older CLI, or never written): the streams are all there is.
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing

function parseCopilotCliFile(
  file: SourceFile,
  fromOffset: number,
  options: ParseOptions = {},
): Promise<FileParse> {
  return settled(() =>
    path.basename(file.path) === STORE_FILE_NAME
      ? parseStoreFile(file)
      : parseEventsFile(file, fromOffset, options),
  );
}
