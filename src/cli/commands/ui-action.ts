/** `ui`: the local dashboard (src/ui/), with its buttons wired to the CLI's own adopt/reject/revert. */
// The command's action; its definition (options, help text) is `ui.ts`, which imports this file
// only when the command runs, so `--help` and the other commands do not load what it needs.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../config/load.js';
import { SkilloptError, UsageError } from '../../core/errors.js';
import { checkProjectStateDir } from '../../core/io/project-state-dir.js';
import type { Logger } from '../../core/logger.js';
import { withRedactPatterns } from '../../core/redact-user.js';
import { mineProjectClusters } from '../../night/mine-project.js';
import { startUi, type RunProposalAction } from '../../ui/server.js';
import type { LessonCount } from '../../ui/views/project.js';
import { HISTORY_FILE } from '../../ui/data.js';
import { flagForKey } from '../options.js';
import { cliContext, commandProject, openDb, type CliContext } from '../context.js';
import { DEMO_RECORDED_CWD, demoHome } from '../../night/demo.js';
import { say } from '../output.js';
import {
  adoptAction,
  adoptedLines,
  rejectAction,
  rejectedLines,
  revertAction,
  revertedLines,
} from '../proposal-actions.js';

export interface UiFlags {
  port: number;
  open?: boolean;
  trainDir?: string[];
  demo?: boolean;
}

/** The dashboard's buttons: the same functions and lines as `adopt`, `reject` and `revert`. */
export function cliProposalActions(
  ctx: CliContext,
  db: Parameters<typeof adoptAction>[0]['db'],
): RunProposalAction {
  return async (action, project, id, extra) => {
    const lines: string[] = [];
    const logger: Logger = {
      progress: () => {},
      warn: (m) => {
        lines.push(`[sleep] warning: ${m}`);
        ctx.logger.warn(m);
      },
    };
    const base = { db, project, now: ctx.clock.now(), logger };
    const out = (line: string): void => void lines.push(line);
    try {
      checkProjectStateDir(project);
      if (action === 'adopt') {
        const commit = loadConfig(ctx.home, project, {}, flagForKey).config.adopt_commit;
        adoptedLines(await adoptAction({ ...base, id, select: {}, commit }), out);
      } else if (action === 'revert') {
        revertedLines(await revertAction({ ...base, id, force: false, commit: false }), out);
      } else {
        for (const line of rejectedLines(await rejectAction({ ...base, id, ...extra }))) out(line);
      }
      return { ok: true, lines };
    } catch (err) {
      if (!(err instanceof SkilloptError)) throw err;
      lines.push(`[sleep] error: ${err.message}`);
      return { ok: false, lines };
    }
  };
}

/**
 * The dashboard's lesson count: what `lessons list` mines (the stored sessions, no harvest; a result
 * the store already holds for the same inputs is reused), with the project's config.
 */
export function cliLessonCounts(
  ctx: CliContext,
  db: Parameters<typeof mineProjectClusters>[0],
  idSpace?: string,
) {
  return (project: string): LessonCount => {
    const { config } = loadConfig(ctx.home, project, {}, flagForKey);
    // Each count in a redaction scope of its own, as each CLI command runs (what mining stores is redacted).
    const mined = withRedactPatterns(config.redact_patterns, () =>
      mineProjectClusters(db, project, config, ctx.clock, true, idSpace),
    );
    return {
      lessons: mined.lessons.length,
      active: mined.lessons.filter((l) => l.retired_by === undefined).length,
      sessions: mined.nSessions,
    };
  };
}

/** The platform's opener, without a shell; a failure only warns (the address is printed anyway). */
function openInBrowser(url: string, logger: Logger): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  execFile(cmd, args, (err) => {
    if (err) logger.warn(`could not open a browser (${err.message}); open the address above yourself`);
  });
}

export async function doUi(flags: UiFlags): Promise<void> {
  if (flags.port > 65535) throw new UsageError('--port must be at most 65535');
  const trainDirs = (flags.trainDir ?? []).map((d) => path.resolve(d));
  for (const d of trainDirs)
    if (!existsSync(path.join(d, HISTORY_FILE)))
      throw new UsageError(`--train-dir ${d} holds no ${HISTORY_FILE} (give a \`train\` output folder)`);
  const ctx = cliContext({});
  // The demo's nights are in its own store (refused before `run --demo` made it), and it has no schedules.
  if (flags.demo) commandProject(ctx, { demo: true });
  const db = openDb(ctx, { demo: flags.demo === true });
  try {
    const ui = await startUi({
      home: flags.demo ? demoHome(ctx.home) : ctx.home,
      userHome: ctx.userHome,
      db,
      clock: ctx.clock,
      logger: ctx.logger,
      runAction: cliProposalActions(ctx, db),
      // The demo's ids hash the folder its transcripts recorded, as its night did: its mining is reused.
      countLessons: cliLessonCounts(ctx, db, flags.demo ? DEMO_RECORDED_CWD : undefined),
      port: flags.port,
      trainDirs,
    });
    say(`[sleep] ui: ${ui.url}`);
    if (flags.demo)
      say("[sleep] showing the demo's nights and proposals (its own store, none of your projects)");
    say('[sleep] stop it with Ctrl-C');
    if (flags.open) openInBrowser(ui.url, ctx.logger);
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    await ui.close();
  } finally {
    db.close();
  }
}
