/** `harvest`: read transcripts into the store and show (or write) the tasks a night would mine. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { IoError } from '../../core/errors.js';
import { serializeTasksFile } from '../../miner/tasks-file.js';
import { harvest } from '../../night/harvest.js';
import { prepareDemo } from '../../night/demo.js';
import { mineProjectTasks } from '../../night/mine-project.js';
import { openStore } from '../../store/db.js';
import { dbFile } from '../../config/paths.js';
import { addCommonOptions, addNightOptions } from '../options.js';
import { cliContext, projectConfig, resolveProject, type CommonFlags } from '../context.js';
import { displayText, printJson, say } from '../output.js';

const HARVEST_KEYS = [
  'seed',
  'val_fraction',
  'test_fraction',
  'max_tasks_per_night',
  'max_sessions_per_night',
  'lookback_hours',
] as const;

export const harvestCommand = (): Command =>
  addNightOptions(addCommonOptions(new Command('harvest')), HARVEST_KEYS)
    .description(
      'Read new agent transcripts into the local store and list the tasks a night would mine for this project. With --output, write them as a tasks file to review (marked "reviewed": false).',
    )
    .option('--output <file>', 'write the mined tasks as a skillopt_sleep.tasks.v1 file')
    .option('--demo', 'harvest the bundled demo transcripts')
    .action(async (flags: CommonFlags & { output?: string }, command: Command) => {
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
        const { tasks, mined, nSessions } = mineProjectTasks(db, project, config, ctx.clock, demo !== null);
        const fileText = serializeTasksFile({
          project,
          transcriptSource: 'claude',
          nSessions: nSessions,
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
          `[sleep] ${nSessions} sessions -> ${tasks.length} tasks in ${mined.clusters.length} recurring tasks (${summary.badLines} bad transcript lines skipped)`,
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
