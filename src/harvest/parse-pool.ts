/**
 * Worker threads that parse and redact transcripts while the main thread writes the store
 * (`harvest.ts` keeps the file order: it awaits the replies in the order it asked). Each worker has a
 * small heap (`resourceLimits`): a file too large for it makes it exit, and the harvest parses that file,
 * and any other the worker held, on the main thread (a `lost` reply).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FileParse, ParseOptions } from '../../harvesters/types.js';
import type { SourceFile, SourceId } from '../core/session.js';
import type { ReadySession } from './ready-session.js';

/** What every worker is started with: the agent markers and the user's redact_patterns of the scope. */
export interface WorkerSetup {
  markers: readonly string[];
  patterns: ReadonlyArray<{ name: string; regex: string }>;
}

export interface ParseRequest {
  id: number;
  source: SourceId;
  file: SourceFile;
  from: number;
  options: ParseOptions;
}

/**
 * A worker's answer: the parse (its sessions made ready) or the message of what the parse threw; or
 * `lost`: the worker ended (its heap limit, a crash) before it answered, so the file is parsed on the
 * main thread. Never a rejected promise: a reply can wait long before the harvest reads it.
 */
export type ParseReply =
  | { id: number; parsed: Omit<FileParse, 'sessions'>; ready: ReadySession[] }
  | { id: number; error: string }
  | { id: number; lost: string };

export interface ParsePool {
  /** Parses and redacts `file` from `from` in a worker; `bytes` weighs the job when choosing a worker. */
  parse(request: Omit<ParseRequest, 'id'>, bytes: number): Promise<ParseReply>;
  close(): Promise<void>;
}

/**
 * A worker's heap. The young generation is what makes a process's peak memory grow with its input
 * (V8 enlarges it while much survives); a small one is collected more often and keeps the worker's
 * memory flat. The old generation holds the parses in flight: a file too large for it makes the worker
 * exit, and the harvest parses it, and the others that worker held, on the main thread.
 */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 };

const WORKER_URL = new URL('./parse-worker.js', import.meta.url);

/**
 * `count` parse workers, or null where there is no compiled worker to start (the TypeScript sources run
 * by the test runner: those harvest on the main thread).
 */
export function parsePool(count: number, setup: WorkerSetup): ParsePool | null {
  if (count < 1 || !existsSync(fileURLToPath(WORKER_URL))) return null;
  interface Pending {
    resolve: (reply: ParseReply) => void;
    bytes: number;
  }
  interface Slot {
    worker: Worker;
    pending: Map<number, Pending>;
    load: number;
    alive: boolean;
  }
  const lose = (slot: Slot, reason: string): void => {
    slot.alive = false;
    for (const [id, job] of slot.pending) job.resolve({ id, lost: reason });
    slot.pending.clear();
  };
  const slots: Slot[] = Array.from({ length: count }, () => {
    const worker = new Worker(WORKER_URL, { workerData: setup, resourceLimits: RESOURCE_LIMITS });
    const slot: Slot = { worker, pending: new Map(), load: 0, alive: true };
    worker.on('message', (reply: ParseReply) => {
      const job = slot.pending.get(reply.id);
      if (job === undefined) return;
      slot.pending.delete(reply.id);
      slot.load -= job.bytes;
      job.resolve(reply);
    });
    worker.on('error', (err) => lose(slot, err.message));
    worker.on('exit', (code) => lose(slot, `parse worker exited with code ${code}`));
    return slot;
  });
  let nextId = 0;
  return {
    parse(request, bytes) {
      // The least loaded worker still running; none: the caller parses on the main thread.
      let best: Slot | undefined;
      for (const s of slots) if (s.alive && (best === undefined || s.load < best.load)) best = s;
      if (best === undefined) return Promise.resolve({ id: -1, lost: 'no parse worker left' });
      const slot = best;
      const id = nextId++;
      slot.load += bytes;
      return new Promise<ParseReply>((resolve) => {
        slot.pending.set(id, { resolve, bytes });
        slot.worker.postMessage({ ...request, id } satisfies ParseRequest);
      });
    },
    async close() {
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
