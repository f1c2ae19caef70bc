/**
 * `forget`: delete stored sessions and everything derived from them (turns, labels, mined tasks,
 * replays, cached model replies, refused and pending edits), then VACUUM so their bytes leave the store
 * file and its WAL. Tombstones keep a later harvest from storing them again (unless `--reharvest`).
 */
// The command's action; its definition (options, help text) is `forget.ts`, which imports this file
// only when the command runs, so `--help` and the other commands do not load what it needs.
import { LockHeldError, UsageError } from '../../core/errors.js';
import { normalizeProjectPath } from '../../core/project-path.js';
import { userHome } from '../../config/paths.js';
import { userConfig } from '../../config/load.js';
import { privacyOptions } from '../../harvest/harvest-rules.js';
import { excludedSessionKeys } from '../../harvest/kept-out.js';
import type { Db } from '../../store/db.js';
import { endBatchNights } from '../../night/batch-status.js';
import { runningNights } from '../../night/lock.js';
import {
  forgetSessions,
  selectForgottenKeys,
  selectSessionKeys,
  vacuumStore,
  type ForgetCounts,
  type SessionSelector,
} from '../../store/forget-repo.js';
import { cliContext, fromCwd, openDb } from '../context.js';
import { cliIo } from '../io.js';
import { printJson, say } from '../output.js';

export interface ForgetFlags {
  project?: string;
  session?: string[];
  source?: string;
  before?: string;
  all?: boolean;
  excluded?: boolean;
  dryRun?: boolean;
  reharvest?: boolean;
  json?: boolean;
}

const DATE = /^(\d{4}-\d{2}-\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** An ISO date (UTC midnight) or date-time (UTC unless it names an offset), as epoch ms. */
export function parseBefore(value: string): number {
  const m = DATE.exec(value.trim());
  const text = value.trim();
  const ms = m ? Date.parse(text.includes('T') && m[2] === undefined ? `${text}Z` : text) : Number.NaN;
  // Date.parse rolls 2026-02-30 over to March: the calendar day must survive the round trip.
  const sameDay = m !== null && Number.isFinite(ms) && dayOf(text, ms) === m[1];
  if (!sameDay)
    throw new UsageError(
      `--before ${JSON.stringify(value)} is not a date: give YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM] (UTC unless an offset is given)`,
    );
  return ms;
}

/** The calendar day of `ms` in the offset `text` names (UTC without one). */
function dayOf(text: string, ms: number): string {
  const offset = /([+-])(\d{2}):(\d{2})$/.exec(text);
  const shift = offset
    ? (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])) * 60_000
    : 0;
  return new Date(ms + shift).toISOString().slice(0, 10);
}

function selector(flags: ForgetFlags): SessionSelector {
  const io = cliIo();
  const sel: SessionSelector = {};
  if (flags.project !== undefined) {
    if (flags.project.trim() === '') throw new UsageError('--project is empty: give a folder');
    sel.project = normalizeProjectPath(fromCwd(flags.project, io.cwd), {
      home: userHome(io.env),
      platform: process.platform,
    });
  }
  if (flags.session && flags.session.length > 0) sel.sessions = flags.session;
  if (flags.source !== undefined) sel.source = flags.source;
  if (flags.before !== undefined) sel.beforeMs = parseBefore(flags.before);
  if (flags.all === true) sel.all = true;
  if (Object.keys(sel).length === 0 && flags.excluded !== true)
    throw new UsageError(
      'forget needs a selection: --project DIR, --session ID, --source NAME, --before DATE, --excluded or --all',
    );
  return sel;
}

/** The stored sessions the user's exclusions keep out now (within `selected`, when other filters are given). */
function excludedKeys(db: Db, at: { home: string; userHome: string }, selected: string[] | null): string[] {
  const config = userConfig(at.home);
  const { rules, excludedSources } = privacyOptions(config, at.userHome);
  const keys = excludedSessionKeys(db, rules, excludedSources);
  if (selected === null) return keys;
  const within = new Set(selected);
  return keys.filter((k) => within.has(k));
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The counts as one line, per kind. */
export function countsText(c: ForgetCounts): string {
  return [
    plural(c.sessions, 'session'),
    plural(c.turns, 'turn'),
    plural(c.labels, 'label'),
    plural(c.tasks, 'mined task'),
    plural(c.replays, 'replay'),
    plural(c.cached_replies, 'cached model reply', 'cached model replies'),
    plural(c.rejected_edits, 'refused edit'),
    plural(c.pending_edits, 'pending edit'),
    plural(c.features + c.mined_projects, 'mining cache entry', 'mining cache entries'),
    // Hashes only, and rare: named when there were any.
    ...(c.forgotten_lessons > 0 ? [plural(c.forgotten_lessons, 'forgotten-lesson record')] : []),
  ].join(', ');
}

export function doForget(flags: ForgetFlags): void {
  const ctx = cliContext(flags);
  const sel = selector(flags);
  // A night mines from and writes to the store while it runs: what it derived would come back.
  const running = runningNights(ctx.home);
  if (running.length > 0 && flags.dryRun !== true) {
    const first = running[0];
    throw new LockHeldError(
      `a night is running for ${first?.project ?? '?'} (pid ${first?.pid ?? '?'}): run forget once it has finished`,
    );
  }
  const db = openDb(ctx);
  try {
    const selected = Object.keys(sel).length > 0 ? selectSessionKeys(db, sel) : null;
    const stored = flags.excluded === true ? excludedKeys(db, ctx, selected) : (selected ?? []);
    const lifted = flags.reharvest === true ? selectForgottenKeys(db, sel) : [];
    const keys = [...new Set([...stored, ...lifted])];
    const counts = forgetSessions(db, keys, {
      now: ctx.clock.now(),
      tombstone: true,
      ...(flags.reharvest === true ? { reharvest: true } : {}),
      ...(flags.dryRun === true ? { dryRun: true } : {}),
    });
    const batchNightsEnded =
      flags.dryRun === true || counts.sessions === 0 ? 0 : endBatchNights(db, ctx.home);
    // Always, not only when rows went: a run after one that found the store busy finishes its job.
    const vacuum = flags.dryRun === true ? null : vacuumStore(db);
    if (ctx.json) {
      printJson({
        dry_run: flags.dryRun === true,
        batch_nights_ended: batchNightsEnded,
        sessions: stored,
        removed: counts,
        vacuumed: vacuum?.vacuumed ?? false,
        wal_emptied: vacuum?.walEmptied ?? null,
      });
      return;
    }
    if (keys.length === 0) say('[sleep] no stored session matches the selection');
    if (flags.dryRun === true) {
      say(`[sleep] dry run: forget would remove ${countsText(counts)}; nothing was changed`);
      for (const key of stored.slice(0, 20)) say(`  ${key}`);
      if (stored.length > 20) say(`  … and ${stored.length - 20} more`);
      return;
    }
    say(`[sleep] forgot ${countsText(counts)}`);
    if (batchNightsEnded > 0)
      say(
        `[sleep] ended ${batchNightsEnded} waiting batch night${batchNightsEnded === 1 ? '' : 's'}: ${batchNightsEnded === 1 ? 'its' : 'their'} saved tasks may quote what was forgotten`,
      );
    if (flags.reharvest === true)
      say(
        `[sleep] the next harvest reads them again (${plural(counts.cursors, 'transcript file')}, ${plural(counts.tombstones_lifted, 'tombstone')} lifted)`,
      );
    else if (counts.tombstones > 0)
      say(
        '[sleep] they will not be harvested again; `forget --reharvest` with --session, --source or --all lets the next harvest read them again',
      );
    if (vacuum && (!vacuum.vacuumed || !vacuum.walEmptied))
      ctx.logger.warn(
        `the store could not be ${vacuum.vacuumed ? 'checkpointed (another process is reading it): deleted text may remain in its write-ahead log' : 'vacuumed (another process is writing to it): deleted text may remain in its free pages'}; run forget again with the same selection once it has finished`,
      );
  } finally {
    db.close();
  }
}
