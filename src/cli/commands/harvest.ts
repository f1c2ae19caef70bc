/** `harvest`: read transcripts into the store and show (or write) the tasks a night would mine. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { IoError } from '../../core/errors.js';
import { assignSplitsWithinGroups } from '../../miner/split.js';
import { mineSessions } from '../../miner/mine.js';
import { serializeTasksFile } from '../../miner/tasks-file.js';
import { harvest } from '../../night/harvest.js';
import { prepareDemo } from '../../night/demo.js';
import { sessionsForProject } from '../../store/sessions-repo.js';
import { openStore } from '../../store/db.js';
import { dbFile } from '../../config/paths.js';
import { addCommonOptions } from '../options.js';
import { cliContext, projectConfig, resolveProject, type CommonFlags } from '../context.js';
import { displayText, printJson, say } from '../output.js';

export const harvestCommand = (): Command =>
  addCommonOptions(new Command('harvest'))
    .description(
      'Read new agent transcripts into the local store and list the tasks a night would mine for this project. With --output, write them as a tasks file to review (marked "reviewed": false).',
    )
    .option('--output <file>', 'write the mined tasks as a skillopt_sleep.tasks.v1 file')
    .option('--demo', 'harvest the bundled demo transcripts')
    .option('--lookback-hours <n>', 'only sessions from the last N hours, 0 = all (default: config)')
    .action(async (flags: CommonFlags & { output?: string; lookbackHours?: string }, command: Command) => {
      const ctx = cliContext(flags);
      const demo = flags.demo ? prepareDemo(ctx.home, false) : null;
      const db = openStore(demo ? ':memory:' : dbFile(ctx.home));
      try {
        const project = demo ? demo.project : resolveProject(flags.project);
        const { config } = projectConfig(ctx, project, command);
        const summary = await harvest({
          db,
          ctx: { home: ctx.userHome, env: demo ? { ...ctx.env, ...demo.harvestEnv } : ctx.env },
          clock: ctx.clock,
          logger: ctx.logger,
          ...(demo ? { mapCwd: demo.mapCwd } : {}),
        });
        const lookback =
          flags.lookbackHours !== undefined ? Number(flags.lookbackHours) : config.lookback_hours;
        const since = demo || lookback === 0 ? null : ctx.clock.now() - lookback * 3_600_000;
        const sessions = sessionsForProject(
          db,
          project,
          since,
          config.max_sessions_per_night ?? config.max_tasks_per_night * 3,
        );
        const mined = mineSessions(sessions, { project, maxTasks: config.max_tasks_per_night });
        const tasks = assignSplitsWithinGroups(mined.tasks, (t) => t.derived_from || t.id, {
          seed: config.seed,
          valFraction: config.val_fraction,
          testFraction: config.test_fraction,
        });
        const fileText = serializeTasksFile({
          project,
          transcriptSource: 'claude',
          nSessions: sessions.length,
          targetSkillPath: '',
          reviewed: false,
          tasks,
        });
        let output = '';
        if (flags.output) {
          output = path.resolve(flags.output);
          try {
            writeFileSync(output, fileText);
          } catch (err) {
            throw new IoError(`cannot write ${output}: ${(err as Error).message}`);
          }
        }
        if (ctx.json) {
          printJson({
            ...(JSON.parse(fileText) as object),
            harvest: {
              files_seen: summary.filesSeen,
              files_parsed: summary.filesParsed,
              sessions_stored: summary.sessionsStored,
              bad_lines: summary.badLines,
            },
            ...(output ? { output } : {}),
          });
          return;
        }
        say(
          `[sleep] ${sessions.length} sessions -> ${tasks.length} tasks in ${mined.clusters.length} recurring tasks (${summary.badLines} bad transcript lines skipped)`,
        );
        if (output) say(`[sleep] wrote reviewed-task draft: ${output}`);
        for (const c of mined.clusters) {
          say(
            `  [x${c.occurrences}] ${displayText(c.intent).slice(0, 90)}${c.checks.length ? `  checks: ${c.checks.length}` : ''}`,
          );
        }
      } finally {
        db.close();
        demo?.cleanup();
      }
    });
