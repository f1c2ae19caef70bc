/**
 * `<state home>/daemon-status.json`: what the daemon is doing and did last, for `status`. Written
 * atomically (`writeFileAtomicSync`) after each harvest and night, and on start and stop.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { daemonStatusFile } from '../config/paths.js';
import { writeFileAtomicSync } from '../core/io/atomic-file.js';
import { readJsonFileOrNull } from '../core/io/json-file.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../core/io/private-mode.js';

const daemonStatusSchema = z.object({
  pid: z.number(),
  state: z.enum(['running', 'stopping', 'stopped']),
  started_at: z.number(),
  updated_at: z.number(),
  /** Transcript folders being watched. */
  watching: z.array(z.string()),
  /** Projects whose nights the daemon runs, with their next run (UTC ms). */
  schedules: z.array(z.object({ project: z.string(), cron: z.string(), next_run: z.number().nullable() })),
  harvests: z.number(),
  last_harvest: z
    .object({
      at: z.number(),
      files_parsed: z.number(),
      sessions_stored: z.number(),
      error: z.string().optional(),
    })
    .nullable(),
  nights: z.number(),
  last_night: z
    .object({
      project: z.string(),
      started_at: z.number(),
      ended_at: z.number().nullable(),
      /** `run`'s exit code (75: another night held the project's lock); null while running. */
      exit_code: z.number().nullable(),
    })
    .nullable(),
});

export type DaemonStatus = z.infer<typeof daemonStatusSchema>;

export function writeDaemonStatus(home: string, status: DaemonStatus): void {
  const file = daemonStatusFile(home);
  mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE }); // the state home
  writeFileAtomicSync(file, `${JSON.stringify(status, null, 2)}\n`, PRIVATE_FILE_MODE);
}

/** The last status the daemon wrote; null when there is none or it is damaged (`status` shows no daemon). */
export function readDaemonStatus(home: string): DaemonStatus | null {
  return readJsonFileOrNull(daemonStatusFile(home), daemonStatusSchema);
}
