/**
 * Codex CLI / Desktop / VS Code transcripts ("rollouts"), harvest-spec §3. Three on-disk generations:
 * - G0 (≤ Aug 2025) `sessions/rollout-<date>-<uuid>.json`: one JSON document `{session, items}`;
 * - G1 (Aug 2025) JSONL with a bare meta first line, `{"record_type":"state"}` lines and bare items;
 * - G2 (Sep 2025 →) JSONL of `{timestamp, type, payload}` envelopes: session_meta, turn_context,
 *   response_item, event_msg (and others we ignore).
 * G1 and G2 are append-only and resume from a turn's offset; G0 is always read whole (offsets 0).
 * How duplicated G2 messages are counted once: see codex-session.ts.
 */
import path from 'node:path';
import { IoError, errorMessage } from '../../src/core/errors.js';
import { readJsonlLines } from '../../src/core/io/jsonl.js';
import { MAX_WHOLE_JSON_BYTES, readRegularFile } from '../../src/core/io/regular-file.js';
import { walkFiles } from '../../src/core/io/walk.js';
import { settled } from '../shared/values.js';
import { applyHeadRecord, applyLegacyMeta, applyRecord, applyResponseItem } from './records.js';
import { isRecord } from './text.js';
import { finishSession, newDraft, type SessionDraft } from './session.js';
import type { FileParse, HarvestContext, Harvester, ParseOptions } from '../types.js';
import type { SourceFile, HarvestedSession } from '../../src/core/session.js';

const SESSION_DIRS = ['sessions', 'archived_sessions'];
const ROLLOUT_UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl?$/i;
/** When resuming mid-file, metadata (id, cwd, model…) is read from this many lines at the top. */
const HEAD_LINES = 64;
/** A G0 `.json` session is one JSON document, parsed whole: a larger one is skipped with a warning. */
export const MAX_LEGACY_JSON_BYTES = MAX_WHOLE_JSON_BYTES;

export const codex: Harvester = {
  id: 'codex',
  incremental: true,
  roots: codexSessionRoots,
  discover: discoverCodexRollouts,
  parse: parseCodexRollout,
};

// ---------------------------------------------------------------------------------------------
// Roots and discovery

/** `sessions/` and `archived_sessions/` of each `$CODEX_HOME` entry (comma-separated), else `~/.codex`. */
function codexSessionRoots(ctx: HarvestContext): string[] {
  const configured = (ctx.env['CODEX_HOME'] ?? '')
    .split(',')
    .map((dir) => dir.trim())
    .filter((dir) => dir !== '');
  const homes = configured.length > 0 ? configured : [path.join(ctx.home, '.codex')];
  const roots = homes.flatMap((dir) =>
    SESSION_DIRS.map((sub) => path.resolve(expandHome(dir, ctx.home), sub)),
  );
  return [...new Set(roots)];
}

function expandHome(dir: string, home: string): string {
  if (dir === '~') return home;
  if (dir.startsWith('~/') || dir.startsWith('~\\')) return path.join(home, dir.slice(2));
  return dir;
}

/** Rollouts: any `.jsonl`, and G0 `rollout-*.json`. Sub-agent files are never sessions of their own. */
function isRolloutFile(relPath: string): boolean {
  const name = relPath.slice(relPath.lastIndexOf('/') + 1);
  if (name.startsWith('agent-')) return false;
  return name.endsWith('.jsonl') || (name.startsWith('rollout-') && name.endsWith('.json'));
}

/**
 * Archiving moves a rollout from `sessions/` to `archived_sessions/`; a copy left in both (or in two
 * homes) is one session, so files are deduplicated by the session uuid in their name (largest wins).
 */
async function discoverCodexRollouts(ctx: HarvestContext): Promise<SourceFile[]> {
  const byKey = new Map<string, SourceFile>();
  for (const root of codexSessionRoots(ctx)) {
    const files = await walkFiles(root, { match: isRolloutFile, skipDir: (name) => name === 'subagents' });
    for (const f of files) {
      const key = ROLLOUT_UUID.exec(path.basename(f.path))?.[1]?.toLowerCase() ?? f.path;
      const known = byKey.get(key);
      if (known !== undefined && known.size >= f.size) continue;
      byKey.set(key, { source: 'codex', path: f.path, size: f.size, mtimeMs: f.mtimeMs, inode: f.ino });
    }
  }
  return [...byKey.values()];
}

// ---------------------------------------------------------------------------------------------
// Parsing

function parseCodexRollout(
  file: SourceFile,
  fromOffset: number,
  options: ParseOptions = {},
): Promise<FileParse> {
  return settled(() => parseCodexRolloutNow(file, fromOffset, options));
}

function parseCodexRolloutNow(file: SourceFile, fromOffset: number, options: ParseOptions): FileParse {
  const draft = newDraft(sessionIdFromFileName(file.path));
  try {
    const read = file.path.toLowerCase().endsWith('.json')
      ? readWholeSession(file.path, draft)
      : readRolloutLines(file.path, Math.max(0, fromOffset), draft, options);
    const session = finishSession(draft, file.path, file.mtimeMs);
    const sessions: HarvestedSession[] = session ? [session] : [];
    return { sessions, ...read };
  } catch (err) {
    throw new IoError(`Cannot read Codex transcript ${file.path}: ${errorMessage(err)}`);
  }
}

type ReadResult = Omit<FileParse, 'sessions'>;

function sessionIdFromFileName(filePath: string): string {
  const name = path.basename(filePath);
  return ROLLOUT_UUID.exec(name)?.[1] ?? name.replace(/\.jsonl?$/i, '');
}

/** G1/G2: one record per line; from an offset, metadata still comes from the top of the file. */
function readRolloutLines(
  filePath: string,
  fromOffset: number,
  draft: SessionDraft,
  options: ParseOptions,
): ReadResult {
  if (fromOffset > 0) readHeadMetadata(filePath, fromOffset, draft);
  let badLines = 0;
  let endOffset = fromOffset;
  for (const line of readJsonlLines(filePath, fromOffset, options)) {
    endOffset = line.endOffset;
    if (line.bad || !isRecord(line.value)) badLines++;
    else applyRecord(draft, line.value, line.offset);
  }
  return { badLines, endOffset };
}

/** Session id, cwd, branch, model and version from the first lines, without their turns. */
function readHeadMetadata(filePath: string, fromOffset: number, draft: SessionDraft): void {
  let count = 0;
  for (const line of readJsonlLines(filePath, 0)) {
    if (line.offset >= fromOffset || ++count > HEAD_LINES) break;
    if (isRecord(line.value)) applyHeadRecord(draft, line.value);
  }
}

/** G0: the whole document is the session; every turn has offset 0 and the file is re-read whole. */
function readWholeSession(filePath: string, draft: SessionDraft): ReadResult {
  const bytes = readRegularFile(filePath, MAX_LEGACY_JSON_BYTES);
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, '')) as unknown;
  } catch {
    return { badLines: 1, endOffset: bytes.length };
  }
  if (!isRecord(doc) || !Array.isArray(doc['items'])) return { badLines: 1, endOffset: bytes.length };
  if (isRecord(doc['session'])) applyLegacyMeta(draft, doc['session'], true);
  let badLines = 0;
  for (const item of doc['items'] as unknown[]) {
    if (isRecord(item)) applyResponseItem(draft, item, null, 0);
    else badLines++;
  }
  return { badLines, endOffset: bytes.length };
}
