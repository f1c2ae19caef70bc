/** The model response cache: one row per (role, provider, model, prompt, parameters) hash, kept across nights. */
import type { Db } from './db.js';

export interface CachedResponse {
  text: string;
  inputTokens: number;
  outputTokens: number;
}

export interface ResponseCache {
  get(key: string): CachedResponse | undefined;
  put(key: string, value: CachedResponse, meta: { role: string; provider: string; model: string }): void;
}

export function sqliteResponseCache(db: Db, now: () => number): ResponseCache {
  const select = db.prepare('SELECT text, input_tokens, output_tokens FROM response_cache WHERE key = ?');
  const touch = db.prepare('UPDATE response_cache SET hits = hits + 1, last_used_at = ? WHERE key = ?');
  const insert = db.prepare(
    `INSERT INTO response_cache (key, role, provider, model, text, input_tokens, output_tokens, created_at,
       last_used_at, hits) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
     ON CONFLICT (key) DO UPDATE SET text = excluded.text, input_tokens = excluded.input_tokens,
       output_tokens = excluded.output_tokens, last_used_at = excluded.last_used_at`,
  );
  return {
    get(key) {
      const row = select.get(key) as
        { text: string; input_tokens: number; output_tokens: number } | undefined;
      if (!row) return undefined;
      touch.run(now(), key);
      return { text: row.text, inputTokens: row.input_tokens, outputTokens: row.output_tokens };
    },
    put(key, value, meta) {
      const t = now();
      insert.run(
        key,
        meta.role,
        meta.provider,
        meta.model,
        value.text,
        value.inputTokens,
        value.outputTokens,
        t,
        t,
      );
    },
  };
}

/** An in-memory cache (tests, and stores opened as `:memory:`). */
export function memoryResponseCache(): ResponseCache & { size(): number } {
  const map = new Map<string, CachedResponse>();
  return {
    get: (key) => map.get(key),
    put: (key, value) => void map.set(key, value),
    size: () => map.size,
  };
}
