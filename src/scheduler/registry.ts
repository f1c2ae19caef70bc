/**
 * The schedule registry, `<state home>/schedules.json`: every project `schedule` set up, how it runs
 * (`cron` line or the `daemon`), its cron expression and the exact night arguments. `schedule --list`
 * reads it to name projects (crontab markers hold only a digest) and the daemon reads it to know what to run.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { schedulesFile } from '../config/paths.js';
import { writeFileAtomicSync } from '../core/io/atomic-file.js';
import { readOptionalJsonFileSync } from '../core/io/json-file.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../core/io/private-mode.js';

export const SCHEDULE_VIA = ['cron', 'daemon'] as const;
export type ScheduleVia = (typeof SCHEDULE_VIA)[number];

const entrySchema = z
  .object({
    project: z.string().min(1),
    digest: z.string().regex(/^[0-9a-f]{64}$/),
    cron: z.string().min(1),
    via: z.enum(SCHEDULE_VIA),
    /** Arguments after `run --project <project>` (night options typed on `schedule`). */
    args: z.array(z.string()),
    /** Environment a night needs that cron would not give it (state home, agents' homes). */
    env: z.record(z.string(), z.string()),
    scheduled_at: z.number(),
  })
  .strict();

const fileSchema = z.object({ version: z.literal(1), entries: z.array(entrySchema) }).strict();

export type ScheduleEntry = z.infer<typeof entrySchema>;

export function readRegistry(home: string): ScheduleEntry[] {
  const file = schedulesFile(home);
  const owner = `state home ${path.dirname(file)}`;
  return readOptionalJsonFileSync(file, fileSchema, owner)?.entries ?? [];
}

/** Replace the registry atomically, so a crash never leaves half a file. */
export function writeRegistry(home: string, entries: ScheduleEntry[]): void {
  const file = schedulesFile(home);
  mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE }); // the state home
  writeFileAtomicSync(file, `${JSON.stringify({ version: 1, entries }, null, 2)}\n`, PRIVATE_FILE_MODE);
}

export function upsertEntry(entries: ScheduleEntry[], entry: ScheduleEntry): ScheduleEntry[] {
  const rest = entries.filter((e) => e.digest !== entry.digest);
  return [...rest, entry].sort((a, b) => a.project.localeCompare(b.project));
}
