/** What `status` says about the daemon: whether it runs (live pid in its lock) and what it did last. */
import { runningDaemon } from './instance-lock.js';
import { readDaemonStatus, type DaemonStatus } from './status-file.js';

export interface DaemonSummary {
  running: boolean;
  pid: number | null;
  /** The last status the daemon wrote (also after it stopped), or null if it never ran here. */
  last: DaemonStatus | null;
}

export function daemonSummary(home: string): DaemonSummary {
  const holder = runningDaemon(home);
  const last = readDaemonStatus(home);
  return { running: holder !== null, pid: holder?.pid ?? null, last };
}

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** One human line, e.g. "running (pid 42) since …; last harvest …; last night …". */
export function describeDaemon(s: DaemonSummary): string {
  const parts: string[] = [];
  if (s.running)
    parts.push(`running (pid ${s.pid ?? '?'})${s.last ? ` since ${iso(s.last.started_at)}` : ''}`);
  else parts.push(s.last ? `not running (last seen ${iso(s.last.updated_at)})` : 'not running');
  const h = s.last?.last_harvest;
  if (h)
    parts.push(
      `last harvest ${iso(h.at)}: ${h.error ? `failed: ${h.error}` : `${h.sessions_stored} sessions stored`}`,
    );
  const n = s.last?.last_night;
  if (n)
    parts.push(
      `last night ${iso(n.started_at)} for ${n.project}: ${n.exit_code === null ? 'running' : `exit ${n.exit_code}`}`,
    );
  return parts.join('; ');
}
