/**
 * The saved state of a night that spans invocations (a handoff night, a `--batch` night). The first
 * `run` mines as usual and saves what the rest of the night depends on (its config, its tasks, the
 * spend of its mining) in the night's private folder; each later `run` starts from that state, so
 * sessions harvested in between cannot change the night, and the budget bounds the whole night.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../core/io/atomic-file.js';
import type { Config } from '../config/schema.js';
import type { SpendSummary } from '../backends/llm/spend-meter.js';
import type { TaskSet } from './night-tasks.js';

const NIGHT_FORMAT = 'skillopt_sleep.resumable_night.v1';
/** What handoff nights wrote before the state was shared (still read, so such a night goes on). */
const HANDOFF_FORMAT = 'skillopt_sleep.handoff_night.v1';

export interface ResumableState {
  format: typeof NIGHT_FORMAT;
  project: string;
  started_at: number;
  config: Config;
  tasks: TaskSet;
  /** What mining spent (null on a backend without a meter). */
  spend: SpendSummary | null;
}

/** A resumable night's folder and project, and its state once its mining finished. */
export interface ResumableNight {
  dir: string;
  project: string;
  state: ResumableState | null;
}

const stateFile = (dir: string): string => path.join(dir, 'night.json');

/** The saved state of the night in `dir`, or null before its mining finished. */
export function loadResumableState(dir: string, project: string): ResumableState | null {
  let raw: string;
  try {
    raw = readFileSync(stateFile(dir), 'utf8');
  } catch {
    return null;
  }
  try {
    const value = JSON.parse(raw) as Partial<Omit<ResumableState, 'format'>> & { format?: string };
    // Written whole by this program only (private folder): a wrong format or project means start over.
    const known = value.format === NIGHT_FORMAT || value.format === HANDOFF_FORMAT;
    if (!known || value.project !== project || !value.config || !value.tasks) return null;
    return { ...(value as ResumableState), format: NIGHT_FORMAT };
  } catch {
    return null;
  }
}

/** Save the state (the folder exists and is private: its owner made it). */
export function saveResumableState(dir: string, state: Omit<ResumableState, 'format'>): void {
  writeFileAtomicSync(stateFile(dir), `${JSON.stringify({ format: NIGHT_FORMAT, ...state })}\n`, 0o600);
}
