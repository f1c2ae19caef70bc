/** `harvest`: read transcripts into the store and show (or write) the tasks a night would mine. */
// The command's action; its definition (options, help text) is `harvest.ts`, which imports this file
// only when the command runs, so `--help` and the other commands do not load what it needs.
import { existsSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { SOURCE_IDS } from '../../../harvesters/index.js';
import { IoError, UsageError, errorMessage, errnoCode } from '../../core/errors.js';
import { tasksFileObject, tasksFileText } from '../../miner/tasks-file.js';
import { harvest, type HarvestSummary } from '../../harvest/harvest.js';
import { logHarvestEnd } from '../../harvest/harvest-end.js';
import { demoConfig, prepareDemo } from '../../night/demo.js';
import {
  DEFAULT_MAX_SESSIONS,
  emptyNightNote,
  leftOutNote,
  mineProjectTasks,
} from '../../night/mine-project.js';
import { privacyOptions } from '../../harvest/harvest-rules.js';
import { isRecurring, recurringTaskReport, selectedSources } from '../../night/night-tasks.js';
import { taskCountText } from '../../night/night-report.js';
import { lessonSummary } from '../../night/lesson-report.js';
import { countSessionsBySource } from '../../store/sessions-repo.js';
import { openStore } from '../../store/db.js';
import { dbFile } from '../../config/paths.js';
import type { Scope } from '../../store/sessions-repo.js';
import type { Db } from '../../store/db.js';
import { checkGoneProject, cliContext, resolveStoredProject, type CommonFlags } from '../context.js';
import { projectConfig } from '../project-config.js';
import { displayText, printJson, say } from '../output.js';
import { cliPath } from '../io.js';
import type { Cluster } from '../../miner/types.js';
import type { TaskRecord } from '../../core/task.js';
import { redactionCountsText } from '../redaction-text.js';

/**
 * Per source: files scanned, this project's sessions in the store, sessions new/updated, lines skipped,
 * and the values this harvest redacted, per kind (of every project: the harvest reads them all).
 */
function sourceReport(db: Db, project: string, scope: Scope, summary: HarvestSummary) {
  const counts = countSessionsBySource(db, project, scope);
  return Object.fromEntries(
    SOURCE_IDS.filter((id) => summary.bySource[id] !== undefined).map((id) => {
      const s = summary.bySource[id];
      return [
        id,
        {
          files: s?.files ?? 0,
          sessions: counts[id] ?? 0,
          new: s?.new ?? 0,
          updated: s?.updated ?? 0,
          skipped_lines: s?.skipped_lines ?? 0,
          excluded: s?.excluded ?? 0,
          forgotten: s?.forgotten ?? 0,
          redactions: s?.redactions ?? {},
        },
      ];
    }),
  );
}

const majority = (counts: Record<string, number>): string =>
  Object.entries(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? '';

/** One entry per mined task: what a person reviews before trusting a night. */
function clusterSummaries(clusters: Cluster[], tasks: TaskRecord[]) {
  return clusters.map((c) => {
    const splits: Record<string, number> = {};
    for (const t of tasks) if (t.derived_from === c.id) splits[t.split] = (splits[t.split] ?? 0) + 1;
    const report = recurringTaskReport(c);
    return {
      id: c.id,
      label: c.label,
      intent: c.intent,
      occurrences: c.occurrences,
      // The agents' own session ids, prefixed with their source (never internal row ids).
      source_sessions: c.members,
      outcome: majority(c.outcomes),
      outcomes: c.outcomes,
      checks: c.checks,
      check_sources: report.checks,
      criteria: report.criteria,
      corrections: report.corrections,
      split: majority(splits),
      splits,
      first_seen: c.firstSeen,
      last_seen: c.lastSeen,
    };
  });
}

export async function doHarvest(
  flags: CommonFlags & { output?: string; force?: boolean },
  command: Command,
): Promise<void> {
  const ctx = cliContext(flags, 'reading transcripts');
  // A tasks file may hold a person's review: never replace it by accident (checked before any work).
  const output = flags.output ? cliPath(flags.output) : '';
  if (output && flags.force !== true && existsSync(output)) {
    throw new UsageError(`${output} already exists (a reviewed tasks file?); pass --force to overwrite it`);
  }
  const demo = flags.demo ? prepareDemo(ctx.home, false) : null;
  const db = openStore(demo ? ':memory:' : dbFile(ctx.home));
  try {
    const project = demo ? demo.project : resolveStoredProject(flags.project);
    const loaded = projectConfig(ctx, project, command).config;
    const config = demo ? demoConfig(loaded) : loaded;
    const sources = selectedSources(config);
    const summary = await harvest({
      db,
      ctx: demo ? demo.harvestCtx : { home: ctx.userHome, env: ctx.env, projectFolders: () => [project] },
      clock: ctx.clock,
      logger: ctx.logger,
      ...(sources ? { sources } : {}),
      // The demo's bundled transcripts are old: retention is for the user's own store.
      ...(demo ? { mapCwd: demo.mapCwd } : { stateHome: ctx.home, retentionDays: config.retention_days }),
      ...privacyOptions(config, ctx.userHome),
      onFile: (done, total) => ctx.status?.count(done, total, 'transcript files'),
    });
    logHarvestEnd(summary, ctx.logger);
    // After the harvest: a fresh store learns only now what was recorded in a folder that is gone.
    checkGoneProject(db, project, ctx.logger);
    const mined = mineProjectTasks(db, project, config, ctx.clock, demo !== null, demo?.idSpace);
    const { tasks, clusters, nSessions, sessionsLeftOut } = mined;
    const empty = emptyNightNote(mined, project, config);
    // Built once: written with --output and printed with --json.
    const tasksFile = tasksFileObject({
      project,
      transcriptSource: config.transcript_source,
      nSessions,
      targetSkillPath: '',
      reviewed: false,
      tasks,
    });
    ctx.logger.progress(
      `mine: ${tasks.length} task instances in ${clusters.length} distinct tasks from ${nSessions} sessions`,
    );
    if (output) {
      try {
        writeFileSync(output, tasksFileText(tasksFile), { flag: flags.force === true ? 'w' : 'wx' });
      } catch (err) {
        if (errnoCode(err) === 'EEXIST')
          throw new UsageError(`${output} already exists; pass --force to overwrite it`);
        throw new IoError(`cannot write ${output}: ${errorMessage(err)}`);
      }
    }
    const bySource = sourceReport(db, project, config.scope, summary);
    if (ctx.json) {
      printJson({
        ...tasksFile,
        n_sessions: nSessions,
        sessions_left_out: sessionsLeftOut,
        ...(empty ? { note: empty } : {}),
        sources: bySource,
        expired: summary.expired,
        excluded_stored: summary.excludedStored,
        lessons: mined.lessons.map(lessonSummary),
        recurring_tasks: clusterSummaries(clusters.filter(isRecurring), tasks),
        one_off_tasks: clusterSummaries(
          clusters.filter((c) => !isRecurring(c)),
          tasks,
        ),
        ...(output ? { output } : {}),
      });
      return;
    }
    for (const [id, s] of Object.entries(bySource)) {
      say(
        `[sleep] ${id}: ${s.files} files scanned, ${s.new} sessions new, ${s.updated} updated, ${s.skipped_lines} lines skipped${s.excluded + s.forgotten > 0 ? `, ${s.excluded + s.forgotten} kept out (excluded or forgotten)` : ''}; ${s.sessions} sessions of this project stored`,
      );
    }
    if (summary.expired > 0)
      say(
        `[sleep] retention: forgot ${summary.expired} sessions older than ${config.retention_days ?? '?'} days`,
      );
    for (const [id, s] of Object.entries(bySource)) {
      const counts = redactionCountsText(s.redactions);
      if (counts) say(`[sleep] ${id}: redacted ${counts}`);
    }
    const recurring = clusters.filter(isRecurring).length;
    say(`[sleep] ${nSessions} sessions -> ${taskCountText(tasks.length, clusters.length, recurring)}`);
    if (sessionsLeftOut > 0) {
      say(`[sleep] ${leftOutNote(sessionsLeftOut, config.max_sessions_per_night ?? DEFAULT_MAX_SESSIONS)}`);
    }
    if (empty) say(`[sleep] ${empty}`);
    if (output)
      say(
        `[sleep] wrote a tasks file to review: ${output} (marked "reviewed": false; read it, then set "reviewed": true for a real backend to train on it)`,
      );
    for (const c of clusters) {
      const checks = c.checks.length ? `  checks: ${c.checks.length}` : '';
      say(`  [x${c.occurrences}] ${displayText(c.label)}: ${displayText(c.intent).slice(0, 80)}${checks}`);
    }
  } finally {
    db.close();
    demo?.cleanup();
  }
}
