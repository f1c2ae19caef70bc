/**
 * A handoff night across invocations, a `WaitingNight` (`waiting-night.ts`): a resumable night
 * (`resumable-night.ts`) whose state is saved beside its queue, so sessions harvested in between (the
 * answering agent's own among them) cannot change the night. Requests the night already asked are
 * answered from the queue, so the trainer replays to the point where it stopped and goes on.
 */
import path from 'node:path';
import type { HandoffQueue } from '../backends/handoff/handoff-queue.js';
import { handoffUsage } from '../backends/handoff/handoff-provider.js';
import { ExchangeWriter, toExchange } from '../backends/recording/exchange-log.js';
import type { TaskSet } from './night-tasks.js';
import type { HandoffReport, WaitingSummary } from './night-report.js';
import { recordingsDir } from '../config/paths.js';
import { loadResumableState, saveResumableState } from './resumable-night.js';
import { countByPurpose, type WaitingNight } from './waiting-night.js';

/** The project's handoff night: the one its queue holds, or a new one (its state saved once mined). */
export function handoffNight(queue: HandoffQueue): WaitingNight {
  const state = loadResumableState(queue.dir, queue.project);
  return {
    waitsAs: 'waiting_handoff',
    state,
    started: state?.started_at ?? null,
    saveState: (s) => saveResumableState(queue.dir, s),
    lastInvocation: () => queue.startedNight(),
    rememberInvocation: (id) => queue.rememberNight(id),
    // The queue answers as soon as an answer is recorded: every invocation replays.
    resume: () => Promise.resolve({ kind: 'replay' }),
    wait: (pending) =>
      Promise.resolve({
        waiting: waitingFor(queue, pending.phases),
        source: { handoff: queueReport(queue) },
      }),
    finish: (at) => ({ handoff: finishHandoff(queue, at) }),
    // The queue and its answers stay for the next `run` (or `handoff discard`).
    fail: () => undefined,
  };
}

/**
 * The night's exchanges (every answered request, in the order it was asked) as a recording that
 * `run --replay FILE` answers the same night from.
 */
export function exportHandoffRecording(
  queue: HandoffQueue,
  provider: { name: string; model: string },
  file: string,
): number {
  const writer = new ExchangeWriter(file);
  let n = 0;
  for (const r of queue.requests()) {
    const text = queue.answerFor(r.id);
    if (text === null) continue;
    const req = {
      role: r.role,
      system: r.system,
      messages: r.messages,
      maxTokens: r.max_tokens,
      temperature: r.temperature,
      sample: r.sample,
    };
    writer.append(
      toExchange(writer.nextSeq(), { ...provider, kind: 'agent-cli' }, req, {
        text,
        usage: handoffUsage(req, text),
      }),
    );
    n += 1;
  }
  return n;
}

/** An empty task set, for a night that stopped to wait before its mining finished. */
export function emptyTaskSet(): TaskSet {
  return {
    tasks: [],
    nSessions: 0,
    sessionsLeftOut: 0,
    nClusters: 0,
    nRecurring: 0,
    harvest: null,
    notes: [],
    clusters: [],
    taskSummaries: [],
    llmMiner: null,
    llmRefine: null,
  };
}

/** What a waiting night reports about its queue. */
function queueReport(queue: HandoffQueue): HandoffReport {
  return {
    open: queue.open().length,
    requests: queue.requests().length,
    queue_dir: queue.dir,
    recording: '',
  };
}

/** What the night waits for: the requests `handoff next` will serve, by purpose. */
function waitingFor(queue: HandoffQueue, phases: readonly string[]): WaitingSummary {
  const open = queue.open();
  return {
    phases: [...phases],
    open: open.length,
    open_by_purpose: countByPurpose(open.map((r) => r.purpose ?? r.role)),
    requests: queue.requests().length,
  };
}

/**
 * The night has every answer it needed: its exchanges become a recording in the state home (so the
 * night can be replayed) and the queue is removed, so the next handoff night starts afresh.
 */
export function finishHandoff(
  queue: HandoffQueue,
  at: { home: string; clock: { now(): number }; logger: { progress(line: string): void } },
): HandoffReport {
  const requests = queue.requests().length;
  const stamp = new Date(at.clock.now()).toISOString().replace(/[:.]/g, '-');
  const file = path.join(recordingsDir(at.home), `${stamp}-${path.basename(queue.dir)}-handoff.jsonl`);
  const n = exportHandoffRecording(queue, { name: 'handoff', model: 'handoff' }, file);
  queue.discard();
  at.logger.progress(`handoff: ${n} answered requests saved as a recording: ${file}`);
  return { open: 0, requests, queue_dir: queue.dir, recording: file };
}
