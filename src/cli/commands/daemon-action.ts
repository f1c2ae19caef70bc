/** `daemon`: harvest as transcripts change and run the nights scheduled with `schedule --daemon`. */
// The command's action; its definition (options, help text) is `daemon.ts`, which imports this file
// only when the command runs, so `--help` and the other commands do not load what it needs.
import { userConfig } from '../../config/load.js';
import { dbFile, installedCliPath } from '../../config/paths.js';
import { acquireDaemonLock } from '../../daemon/instance-lock.js';
import { startDaemon } from '../../daemon/daemon.js';
import { spawnNight } from '../../daemon/night-runner.js';
import { openStore, type Db } from '../../store/db.js';
import { cliContext, stderrLogger } from '../context.js';
import { say } from '../output.js';

/** Positive whole milliseconds from an environment variable, else the default. */
function msFromEnv(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && Number.isInteger(n) && n > 0 ? n : fallback;
}

export async function doDaemon(flags: { quiet?: boolean }): Promise<void> {
  const ctx = cliContext({ progress: flags.quiet !== true });
  // A bad user config stops the daemon at start (exit 2) rather than at its first harvest.
  userConfig(ctx.home);
  // Signal handlers first, so a signal during start-up also ends in a clean stop.
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  const lock = acquireDaemonLock(ctx.home, ctx.clock.now());
  let db: Db;
  try {
    db = openStore(dbFile(ctx.home));
  } catch (err) {
    lock.release(); // a store that cannot be opened must not leave a daemon.lock behind
    throw err;
  }
  const cliPath = installedCliPath();
  try {
    const daemon = startDaemon({
      home: ctx.home,
      userHome: ctx.userHome,
      env: ctx.env,
      clock: ctx.clock,
      logger: stderrLogger(flags.quiet !== true),
      db,
      startNight: (entry) => spawnNight(entry, ctx.env, process.execPath, cliPath),
      debounceMs: msFromEnv(ctx.env.SKILLOPT_SLEEP_DAEMON_DEBOUNCE_MS, 1500),
      pollMs: msFromEnv(ctx.env.SKILLOPT_SLEEP_DAEMON_POLL_MS, 30_000),
      nightGraceMs: 10_000,
      ...(ctx.env.SKILLOPT_SLEEP_DAEMON_CRON ? { cronOverride: ctx.env.SKILLOPT_SLEEP_DAEMON_CRON } : {}),
    });
    const s = daemon.status();
    say(
      `[sleep] daemon running (pid ${process.pid}); watching ${s.watching.length} transcript folder(s); ${s.schedules.length} scheduled night(s)`,
    );
    const signal = await stopSignal;
    process.stderr.write(`[sleep] ${signal}: finishing the current write, then stopping\n`);
    await daemon.stop();
    say('[sleep] daemon stopped.');
  } finally {
    db.close();
    lock.release();
  }
}
