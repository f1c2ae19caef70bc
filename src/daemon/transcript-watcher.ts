/**
 * Watches the agents' transcript folders with chokidar and calls `onChange` once things have been quiet
 * for `debounceMs` (an agent appends a line per message; one harvest per burst is enough). Folders that
 * do not exist yet are looked for again on each `refresh()`.
 */
import { existsSync } from 'node:fs';
import { watch, type FSWatcher } from 'chokidar';
import { harvesters, SOURCE_IDS } from '../../harvesters/index.js';
import type { HarvestContext, SourceId } from '../../harvesters/types.js';

export interface TranscriptWatcher {
  /** Folders watched now. */
  watching(): string[];
  /** Start watching roots that appeared since the last call. */
  refresh(): void;
  close(): Promise<void>;
}

export function transcriptRoots(ctx: HarvestContext, sources: readonly SourceId[] = SOURCE_IDS): string[] {
  return [...new Set(sources.flatMap((id) => harvesters[id].roots(ctx)))];
}

export function watchTranscripts(
  ctx: HarvestContext,
  onChange: () => void,
  opts: { debounceMs: number; onError: (err: Error) => void },
): TranscriptWatcher {
  let watcher: FSWatcher | null = null;
  const watched = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  const changed = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      onChange();
    }, opts.debounceMs);
  };
  const refresh = (): void => {
    const fresh = transcriptRoots(ctx).filter((r) => !watched.has(r) && existsSync(r));
    if (fresh.length === 0) return;
    for (const r of fresh) watched.add(r);
    if (watcher === null) {
      watcher = watch(fresh, { ignoreInitial: true, persistent: true });
      watcher.on('add', changed).on('change', changed).on('unlink', changed);
      watcher.on('error', (err) => opts.onError(err instanceof Error ? err : new Error(String(err))));
    } else {
      watcher.add(fresh);
    }
  };
  refresh();
  return {
    watching: () => [...watched].sort(),
    refresh,
    close: async () => {
      if (timer) clearTimeout(timer);
      timer = null;
      if (watcher) await watcher.close();
    },
  };
}
