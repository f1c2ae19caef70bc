/**
 * The anchor of issue 20's harvest rows: read every file and JSON.parse every line (a whole-document
 * `.json` file is one parse), keeping nothing: what a parse-everything reader such as the Python
 * reference costs. A Markdown transcript (Aider's) has no JSON: its anchor is every line decoded and
 * its first character looked at, the least any reader of it does. Shared by `speed-child.ts` (its own process) and `harvest-floor.ts` (beside the pieces).
 */
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';

/**
 * A conversation of an agent's SQLite store (`<db>#<id>`, OpenCode's and Goose's): its anchor is every JSON
 * column of the store read and parsed, once per store, keeping nothing.
 */
const STORE_CONVERSATION = /^(.+\.db)#[^/\\]+$/;

export function bareParse(paths: readonly string[]): { bytes: number; lines: number } {
  let bytes = 0;
  let lines = 0;
  const stores = new Set<string>();
  for (const file of paths) {
    const store = STORE_CONVERSATION.exec(file);
    if (store !== null) {
      stores.add(store[1] ?? '');
      continue;
    }
    const buf = readFileSync(file);
    bytes += buf.length;
    if (file.endsWith('.json')) {
      JSON.parse(buf.toString('utf8'));
      lines++;
      continue;
    }
    if (file.endsWith('.md')) {
      lines += markdownLines(buf);
      continue;
    }
    let start = 0;
    for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10, start)) {
      if (nl > start) {
        JSON.parse(buf.toString('utf8', start, nl));
        lines++;
      }
      start = nl + 1;
    }
  }
  for (const store of stores) {
    const read = bareStore(store);
    bytes += read.bytes;
    lines += read.lines;
  }
  return { bytes, lines };
}

/** Every JSON value of an OpenCode (`message`, `part`: `data`) or Goose (`messages`: `content_json`) store. */
function bareStore(file: string): { bytes: number; lines: number } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = new Set(
      (
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>
      ).map((t) => t.name),
    );
    const sql = tables.has('part')
      ? 'SELECT data AS json FROM message UNION ALL SELECT data FROM part'
      : 'SELECT content_json AS json FROM messages';
    let bytes = 0;
    let lines = 0;
    for (const row of db.prepare(sql).iterate() as Iterable<{ json: string }>) {
      bytes += Buffer.byteLength(row.json);
      JSON.parse(row.json);
      lines++;
    }
    return { bytes, lines };
  } finally {
    db.close();
  }
}

/** Each line of a Markdown transcript decoded and told apart by its first character; returns the count. */
function markdownLines(buf: Buffer): number {
  let marked = 0;
  let other = 0;
  let start = 0;
  for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10, start)) {
    const text = buf.toString('utf8', start, nl);
    if (text.startsWith('#') || text.startsWith('>')) marked++;
    else other++;
    start = nl + 1;
  }
  return marked + other;
}
