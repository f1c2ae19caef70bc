/**
 * `<state home>/daemon-status.json`: what the daemon is doing and did last, for `status`. Written
 * atomically (temp file + rename) after each harvest and night, and on start and stop.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { daemonStatusFile } from '../config/paths.js';

export interface DaemonStatus {
  pid: number;
  state: 'running' | 'stopping' | 'stopped';
  started_at: number;
  updated_at: number;
  /** Transcript folders being watched. */
  watching: string[];
  /** Projects whose nights the daemon runs, with their next run (UTC ms). */
  schedules: Array<{ project: string; cron: string; next_run: number | null }>;
  harvests: number;
  last_harvest: {
    at: number;
    files_parsed: number;
    sessions_stored: number;
    error?: string;
  } | null;
  nights: number;
  last_night: {
    project: string;
    started_at: number;
    ended_at: number | null;
    /** `run`'s exit code (75: another night held the project's lock); null while running. */
    exit_code: number | null;
  } | null;
}

export function writeDaemonStatus(home: string, status: DaemonStatus): void {
  const file = daemonStatusFile(home);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 }); // the state home
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(status, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

export function readDaemonStatus(home: string): DaemonStatus | null {
  try {
    return JSON.parse(readFileSync(daemonStatusFile(home), 'utf8')) as DaemonStatus;
  } catch {
    return null;
  }
}
