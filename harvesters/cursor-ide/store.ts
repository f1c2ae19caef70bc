/**
 * The Cursor editor's chat store: `<Cursor User>/globalStorage/state.vscdb`, a VS Code key-value database
 * whose table `cursorDiskKV(key, value)` holds a composer (a chat or agent conversation) as
 * `composerData:<composer id>` (`createdAt`, `lastUpdatedAt`, `fullConversationHeadersOnly: [{bubbleId}]`, or
 * the older inline `conversation: [bubble…]`) and each of its messages as `bubbleId:<composer id>:<bubble id>`.
 * Cursor documents none of it; the shapes are what public readers of real stores agree on. Read-only
 * (`shared/sqlite-store.ts`); each composer is a harvested file whose watermark is the size of its
 * `composerData` value plus its bubble count, and its `lastUpdatedAt`.
 */
import { isRecord, parseUtcMs } from '../shared/values.js';
import { storeConversationFile, withStore, type StoreDb, type StoreRow } from '../shared/sqlite-store.js';
import type { SourceFile } from '../../src/core/session.js';

export interface CursorComposer {
  id: string;
  data: Record<string, unknown>;
  /** In conversation order. */
  bubbles: Record<string, unknown>[];
}

const hasTable = (db: StoreDb): boolean =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'cursorDiskKV'").get() !==
  undefined;

/** Every composer of the store with its watermark. */
export function listComposers(dbPath: string, dbInode: number, dbMtimeMs: number): SourceFile[] {
  return withStore(dbPath, (db) => {
    if (!hasTable(db)) return [];
    // Key ranges, not LIKE: the key's unique index answers them (':' + 1 is ';').
    const bubbles = new Map<string, number>();
    const bubbleKeys = db
      .prepare("SELECT key FROM cursorDiskKV WHERE key >= 'bubbleId:' AND key < 'bubbleId;'")
      .pluck()
      .all() as string[];
    for (const key of bubbleKeys) {
      const id = key.slice('bubbleId:'.length, key.indexOf(':', 'bubbleId:'.length));
      bubbles.set(id, (bubbles.get(id) ?? 0) + 1);
    }
    const rows = db
      .prepare(
        `SELECT key, length(value) AS n,
           json_extract(CAST(value AS TEXT), '$.lastUpdatedAt') AS updated,
           json_extract(CAST(value AS TEXT), '$.createdAt') AS created
         FROM cursorDiskKV WHERE key >= 'composerData:' AND key < 'composerData;' AND json_valid(CAST(value AS TEXT))`,
      )
      .all() as StoreRow[];
    return rows.map((row) => {
      const id = String(row['key']).slice('composerData:'.length);
      const updatedMs = parseUtcMs(row['updated']) ?? parseUtcMs(row['created']);
      const rowsMark = Number(row['n']) + (bubbles.get(id) ?? 0);
      return storeConversationFile(
        'cursor-ide',
        dbPath,
        id,
        { rows: rowsMark, updatedMs },
        dbInode,
        dbMtimeMs,
      );
    });
  });
}

/** One composer with its bubbles in order; undefined when it is gone. */
export function readComposer(
  dbPath: string,
  composerId: string,
): { composer: CursorComposer | undefined; badRows: number } {
  return withStore(dbPath, (db) => {
    const value = (key: string): unknown =>
      db.prepare('SELECT value FROM cursorDiskKV WHERE key = ?').pluck().get(key);
    let badRows = 0;
    const parse = (raw: unknown): Record<string, unknown> | undefined => {
      if (raw == null) return undefined;
      try {
        const parsed: unknown = JSON.parse(valueText(raw));
        if (isRecord(parsed)) return parsed;
      } catch {
        // counted below
      }
      badRows++;
      return undefined;
    };
    const data = parse(value(`composerData:${composerId}`));
    if (data === undefined) return { composer: undefined, badRows };
    const bubbles: Record<string, unknown>[] = [];
    const headers = Array.isArray(data['fullConversationHeadersOnly'])
      ? data['fullConversationHeadersOnly'].filter(isRecord)
      : [];
    if (headers.length > 0) {
      for (const header of headers) {
        if (typeof header['bubbleId'] !== 'string') continue;
        const bubble = parse(value(`bubbleId:${composerId}:${header['bubbleId']}`));
        if (bubble !== undefined) bubbles.push(bubble);
      }
    } else if (Array.isArray(data['conversation'])) {
      bubbles.push(...data['conversation'].filter(isRecord)); // the older inline form
    }
    return { composer: { id: composerId, data, bubbles }, badRows };
  });
}

/** The composer ids a workspace's own `state.vscdb` lists (`ItemTable` `composer.composerData`). */
export function workspaceComposerIds(dbPath: string): string[] {
  return withStore(dbPath, (db) => {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ItemTable'").get();
    if (table === undefined) return [];
    const raw = db.prepare("SELECT value FROM ItemTable WHERE key = 'composer.composerData'").pluck().get();
    if (raw == null) return [];
    try {
      const parsed: unknown = JSON.parse(valueText(raw));
      const all = isRecord(parsed) && Array.isArray(parsed['allComposers']) ? parsed['allComposers'] : [];
      return all
        .filter(isRecord)
        .map((c) => c['composerId'])
        .filter((id): id is string => typeof id === 'string');
    } catch {
      return [];
    }
  });
}

/** A value as text: Cursor writes JSON as a BLOB or as TEXT. */
function valueText(raw: unknown): string {
  if (Buffer.isBuffer(raw)) return raw.toString('utf8');
  return typeof raw === 'string' ? raw : '';
}
