/** The model response cache: one row per (role, provider, model, prompt, parameters) hash, kept across nights. */
import type { Db } from './db.js';
import { traceWriter } from './traces-repo.js';

export interface CachedResponse {
  text: string;
  inputTokens: number;
  outputTokens: number;
}

/**
 * `sessions`: the sessions whose text the request carried; traced on a put and on a hit (a reply
 * reused for another session's request carries that one's text too), so `forget` removes the reply.
 */
export interface ResponseCache {
  get(key: string, sessions?: readonly string[]): CachedResponse | undefined;
  put(
    key: string,
    value: CachedResponse,
    meta: { role: string; provider: string; model: string; sessions?: readonly string[] },
  ): void;
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
  const trace = traceWriter(db);
  return {
    get(key, sessions) {
      const row = select.get(key) as
        { text: string; input_tokens: number; output_tokens: number } | undefined;
      if (!row) return undefined;
      touch.run(now(), key);
      trace(sessions, 'response_cache', key);
      return { text: row.text, inputTokens: row.input_tokens, outputTokens: row.output_tokens };
    },
    put(key, value, meta) {
      const t = now();
      trace(meta.sessions, 'response_cache', key);
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
