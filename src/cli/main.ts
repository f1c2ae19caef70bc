#!/usr/bin/env node
/** The CLI entry: wires commands and is the one place that turns errors into exit codes. */
import { Command, CommanderError } from 'commander';
import { EXIT, SkilloptError } from '../core/errors.js';
import { adoptCommand } from './commands/adopt.js';
import { daemonCommand } from './commands/daemon.js';
import { handoffCommand } from './commands/handoff.js';
import { harvestCommand } from './commands/harvest.js';
import { installCommand, uninstallCommand } from './commands/install.js';
import { mcpCommand } from './commands/mcp.js';
import { CLI_VERSION } from './version.js';
import { dryRunCommand, runCommand } from './commands/night.js';
import { scheduleCommand, unscheduleCommand } from './commands/schedule.js';
import { proposalsCommand, rejectCommand } from './commands/proposals.js';
import { revertCommand } from './commands/revert.js';
import { statusCommand } from './commands/status.js';
import { evalCommand, trainCommand } from './commands/train.js';
import { printJson } from './output.js';

function buildProgram(): Command {
  const program = new Command('skillopt-sleep')
    .description(
      'A nightly "sleep" for coding agents: harvest local session logs, mine the tasks you repeat, train a skill document on them behind a held-out gate, and stage a proposal you review and adopt.\n\nTry it offline: skillopt-sleep dry-run --backend mock --demo',
    )
    .version(CLI_VERSION)
    .showHelpAfterError()
    .exitOverride();
  for (const make of [
    runCommand,
    dryRunCommand,
    statusCommand,
    adoptCommand,
    revertCommand,
    rejectCommand,
    proposalsCommand,
    harvestCommand,
    handoffCommand,
    mcpCommand,
    installCommand,
    uninstallCommand,
    scheduleCommand,
    unscheduleCommand,
    trainCommand,
    evalCommand,
    daemonCommand,
  ]) {
    program.addCommand(make());
  }
  sameErrorHandling(program);
  return program;
}

/**
 * Every command and subcommand throws instead of exiting (so `main` picks the exit code and the
 * `--json` payload) and writes its option errors in the CLI's one style, `[sleep] error: …`.
 */
function sameErrorHandling(cmd: Command): void {
  cmd.exitOverride().configureOutput({ outputError: (text, write) => write(`[sleep] ${text}`) });
  for (const sub of cmd.commands) sameErrorHandling(sub);
}

function wantsJson(argv: string[]): boolean {
  return argv.includes('--json');
}

async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version end here too; commander already printed them (and the error, on stderr).
      if (err.exitCode === 0) return EXIT.ok;
      if (wantsJson(argv))
        printJson({ ok: false, error: 'usage', message: err.message.replace(/^error: /, '') });
      return EXIT.usage;
    }
    if (err instanceof SkilloptError) {
      process.stderr.write(`[sleep] error: ${err.message}\n`);
      if (wantsJson(argv)) printJson({ ok: false, error: err.code, message: err.message });
      return err.exitCode;
    }
    const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
    const home = process.env.HOME;
    process.stderr.write(
      `[sleep] internal error (this is a bug, please report it):\n${home ? message.replaceAll(home, '~') : message}\n`,
    );
    if (wantsJson(argv))
      printJson({ ok: false, error: 'internal', message: err instanceof Error ? err.message : String(err) });
    return EXIT.runtime;
  }
}

// A reader that stops early (`| head`) is not an error worth a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
  throw err;
});

process.exitCode = await main(process.argv.slice(2));
