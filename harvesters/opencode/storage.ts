/**
 * OpenCode's JSON storage (before v1.2, and what the SQLite migration left behind): under
 * `<data>/storage/`, `session/<project id>/<session id>.json` (the session: `id`, `parentID`, `directory`,
 * `version`, `time`), `message/<session id>/<message id>.json` (a message with its `id`, `role`, `time`, …)
 * and `part/<message id>/<part id>.json`. A session is one harvested file: its path is the session's file,
 * its size and mtime those of all its files together, so a new message or part is a change.
 */
import path from 'node:path';
import { MAX_WHOLE_JSON_BYTES, readRegularFile } from '../../src/core/io/regular-file.js';
import { walkFiles, type WalkedFile } from '../../src/core/io/walk.js';
import { isRecord, parseUtcMs } from '../shared/values.js';
import type { OpenCodeConversation, OpenCodeMessage } from './session.js';
import type { SourceFile } from '../../src/core/session.js';

const twoLevelJson = (relPath: string): boolean => {
  const parts = relPath.split('/');
  return parts.length === 2 && (parts[1] ?? '').endsWith('.json');
};
const oneLevelJson = (relPath: string): boolean => !relPath.includes('/') && relPath.endsWith('.json');
const stem = (file: string): string => path.basename(file).replace(/\.json$/i, '');

/** The JSON sessions under `<data>/storage`, leaving out those `skip` names (the store holds them). */
export async function listStorageSessions(dataDir: string, skip: ReadonlySet<string>): Promise<SourceFile[]> {
  const storage = path.join(dataDir, 'storage');
  const sessions = await walkFiles(path.join(storage, 'session'), { match: twoLevelJson });
  if (sessions.length === 0) return [];
  const messages = groupByFolder(await walkFiles(path.join(storage, 'message'), { match: twoLevelJson }));
  const parts = groupByFolder(await walkFiles(path.join(storage, 'part'), { match: twoLevelJson }));
  const found: SourceFile[] = [];
  for (const session of sessions) {
    const id = stem(session.path);
    if (skip.has(id)) continue;
    let size = session.size;
    let mtimeMs = session.mtimeMs;
    for (const message of messages.get(id) ?? []) {
      size += message.size;
      mtimeMs = Math.max(mtimeMs, message.mtimeMs);
      for (const part of parts.get(stem(message.path)) ?? []) {
        size += part.size;
        mtimeMs = Math.max(mtimeMs, part.mtimeMs);
      }
    }
    found.push({ source: 'opencode', path: session.path, size, mtimeMs, inode: session.ino });
  }
  return found;
}

function groupByFolder(files: WalkedFile[]): Map<string, WalkedFile[]> {
  const groups = new Map<string, WalkedFile[]>();
  for (const file of files) {
    const folder = file.relPath.slice(0, file.relPath.indexOf('/'));
    const group = groups.get(folder);
    if (group) group.push(file);
    else groups.set(folder, [file]);
  }
  return groups;
}

/** A JSON file's object, or undefined (counted as a bad line) when it is not one. */
function readJsonObject(file: string, bad: { lines: number }): Record<string, unknown> | undefined {
  const text = readRegularFile(file, MAX_WHOLE_JSON_BYTES).toString('utf8');
  try {
    const value: unknown = JSON.parse(text);
    if (isRecord(value)) return value;
  } catch {
    // counted below
  }
  bad.lines++;
  return undefined;
}

/** The session of a `storage/session/<project>/<id>.json` file with its messages and parts. */
export async function readStorageSession(
  sessionFile: string,
): Promise<{ conversation: OpenCodeConversation | undefined; badLines: number }> {
  const bad = { lines: 0 };
  const info = readJsonObject(sessionFile, bad);
  if (info === undefined) return { conversation: undefined, badLines: bad.lines };
  const storage = path.dirname(path.dirname(path.dirname(sessionFile)));
  const id = typeof info['id'] === 'string' && info['id'] !== '' ? info['id'] : stem(sessionFile);
  const messages: OpenCodeMessage[] = [];
  for (const file of await walkFiles(path.join(storage, 'message', stem(sessionFile)), {
    match: oneLevelJson,
  })) {
    const data = readJsonObject(file.path, bad);
    if (data === undefined) continue;
    const messageId = typeof data['id'] === 'string' ? data['id'] : stem(file.path);
    const parts: Record<string, unknown>[] = [];
    for (const partFile of await walkFiles(path.join(storage, 'part', messageId), { match: oneLevelJson })) {
      const part = readJsonObject(partFile.path, bad);
      if (part !== undefined) parts.push(part);
    }
    messages.push({ id: messageId, data, parts });
  }
  messages.sort((a, b) => createdOf(a) - createdOf(b) || a.id.localeCompare(b.id));
  const time = isRecord(info['time']) ? info['time'] : {};
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  return {
    conversation: {
      id,
      directory: text(info['directory']),
      parentId: text(info['parentID']),
      version: text(info['version']),
      createdMs: parseUtcMs(time['created']),
      updatedMs: parseUtcMs(time['updated']),
      messages,
    },
    badLines: bad.lines,
  };
}

function createdOf(message: OpenCodeMessage): number {
  const time = isRecord(message.data['time']) ? message.data['time'] : {};
  return parseUtcMs(time['created']) ?? 0;
}
