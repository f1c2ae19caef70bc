/**
 * The schedule registry, `<state home>/schedules.json`: every project `schedule` set up, how it runs
 * (`cron` line or the `daemon`), its cron expression and the exact night arguments. `schedule --list`
 * reads it to name projects (crontab markers hold only a digest) and the daemon reads it to know what to run.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { schedulesFile } from '../config/paths.js';
import { ConfigError } from '../core/errors.js';

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
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new ConfigError(`${file}: cannot read: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${file}: invalid JSON: ${(err as Error).message}`);
  }
  const result = fileSchema.safeParse(parsed);
  if (!result.success)
    throw new ConfigError(`${file}: not a schedule registry: ${result.error.issues[0]?.message ?? ''}`);
  return result.data.entries;
}

/** Replace the registry atomically (temp file + rename), so a crash never leaves half a file. */
export function writeRegistry(home: string, entries: ScheduleEntry[]): void {
  const file = schedulesFile(home);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 }); // the state home
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ version: 1, entries }, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

export function upsertEntry(entries: ScheduleEntry[], entry: ScheduleEntry): ScheduleEntry[] {
  const rest = entries.filter((e) => e.digest !== entry.digest);
  return [...rest, entry].sort((a, b) => a.project.localeCompare(b.project));
}
