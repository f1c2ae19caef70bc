/**
 * Whether the process that wrote a record (a lock, a running night) is still that process. A pid alone
 * is reused by the system after its process exits, so records also keep the process's start time: on
 * Linux field 22 of /proc/PID/stat (clock ticks since boot, fixed for the process's life). Elsewhere the
 * start time is unknown ('') and only the pid is checked (`process.kill(pid, 0)`).
 */
import { readFileSync } from 'node:fs';
import { errnoCode } from './errors.js';

export interface ProcessIdentity {
  pid: number;
  /** The process's start time as the OS reports it, or '' when it cannot be read. */
  start: string;
}

/** The start time of a live process, or '' when unknown (no /proc, or no such process). */
export function processStartTime(pid: number): string {
  if (process.platform !== 'linux') return '';
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (the command name) is in parentheses and may hold spaces: count fields after its end.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = rest[19] ?? '';
    return /^\d+$/.test(start) ? start : '';
  } catch {
    return '';
  }
}

let own: ProcessIdentity | null = null;

/** This process's identity, read once. */
export function ownIdentity(): ProcessIdentity {
  own ??= { pid: process.pid, start: processStartTime(process.pid) };
  return own;
}

/**
 * True while the recorded process runs: its pid exists (EPERM: it belongs to another user) and, when
 * both start times are known, it started when the record says.
 */
export function processAlive(who: ProcessIdentity): boolean {
  if (!Number.isSafeInteger(who.pid) || who.pid <= 0) return false;
  try {
    process.kill(who.pid, 0);
  } catch (err) {
    if (errnoCode(err) !== 'EPERM') return false;
  }
  if (who.start === '') return true;
  const now = processStartTime(who.pid);
  return now === '' || now === who.start;
}
