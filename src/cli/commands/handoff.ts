/**
 * `handoff next|answer|discard`: be the model of a night run with `--backend handoff`. `next` prints
 * the oldest open request, `answer ID` records a reply (from --file or stdin), and the next
 * `run --backend handoff` goes on from there.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { HandoffQueue, type HandoffRequest } from '../../backends/handoff/handoff-queue.js';
import { InputError, errnoCode } from '../../core/errors.js';
import { addCommonOptions } from '../options.js';
import { cliContext, projectConfig, resolveProject, type CliContext, type CommonFlags } from '../context.js';
import { printJson, say, terminalText, write } from '../output.js';
import { cliIo, cliPath } from '../io.js';

interface AnswerFlags extends CommonFlags {
  file?: string;
}

function queueOf(flags: CommonFlags): { ctx: CliContext; project: string; queue: HandoffQueue } {
  const ctx = cliContext(flags);
  const project = resolveProject(flags.project);
  return { ctx, project, queue: new HandoffQueue(ctx.home, project) };
}

const resumeCommand = (project: string): string =>
  `skillopt-sleep run --backend handoff --project ${JSON.stringify(project)}`;

/** The request as a model would see it: the system prompt, then each message. */
function renderRequest(r: HandoffRequest, open: number): void {
  say(`[sleep] handoff request ${r.id} (${r.role}; ${open} open; answer within ${r.max_tokens} tokens)`);
  say('--- system ---');
  write(`${terminalText(r.system)}\n`);
  for (const m of r.messages) {
    say(`--- ${m.role} ---`);
    write(`${terminalText(m.content)}\n`);
  }
  say('--- end ---');
  say(`[sleep] answer it: skillopt-sleep handoff answer ${r.id} --file REPLY.txt (or the reply on stdin)`);
}

const nextCommand = (): Command =>
  addCommonOptions(new Command('next'))
    .description('Print the oldest request of the waiting handoff night that has no answer yet.')
    .action((_flags: CommonFlags, cmd: Command) => {
      const flags = cmd.optsWithGlobals<CommonFlags>();
      const { ctx, project, queue } = queueOf(flags);
      const open = queue.open();
      const first = open[0] ?? null;
      if (ctx.json) {
        printJson({
          project,
          open: open.length,
          requests: queue.requests().length,
          request: first,
          ...(first ? {} : { next_step: resumeCommand(project) }),
        });
        return;
      }
      if (!first) {
        say(
          queue.exists()
            ? `[sleep] every handoff request is answered: continue the night with ${resumeCommand(project)}`
            : `[sleep] no handoff night is waiting for ${project}; start one with ${resumeCommand(project)}`,
        );
        return;
      }
      renderRequest(first, open.length);
    });

function readAnswer(file: string | undefined): string {
  if (file !== undefined) {
    try {
      return readFileSync(cliPath(file), 'utf8');
    } catch (err) {
      throw new InputError(`cannot read ${file}: ${errnoCode(err) ?? 'error'}`);
    }
  }
  if (cliIo().stdinIsTTY) throw new InputError('give the reply with --file FILE or on stdin');
  return cliIo().readStdin();
}

const answerCommand = (): Command =>
  addCommonOptions(new Command('answer'))
    .description('Record the reply to a handoff request (from --file, else from stdin).')
    .argument('<id>', 'the request id `handoff next` printed')
    .option('--file <file>', 'read the reply from this file instead of stdin')
    .action((id: string, _flags: AnswerFlags, cmd: Command) => {
      const flags = cmd.optsWithGlobals<AnswerFlags>();
      const { ctx, project, queue } = queueOf(flags);
      projectConfig(ctx, project, cmd); // the answer is stored redacted with the user's redact_patterns too
      queue.answer(id, readAnswer(flags.file), ctx.clock.now());
      const open = queue.open().length;
      if (ctx.json) {
        printJson({
          project,
          answered: id,
          open,
          ...(open === 0 ? { next_step: resumeCommand(project) } : {}),
        });
        return;
      }
      say(
        open > 0
          ? `[sleep] answered ${id}; ${open} more open (skillopt-sleep handoff next)`
          : `[sleep] answered ${id}; none open: continue the night with ${resumeCommand(project)}`,
      );
    });

const discardCommand = (): Command =>
  addCommonOptions(new Command('discard'))
    .description('Give up the waiting handoff night: its queue and answers are removed (nothing was staged).')
    .action((_flags: CommonFlags, cmd: Command) => {
      const flags = cmd.optsWithGlobals<CommonFlags>();
      const { ctx, project, queue } = queueOf(flags);
      const existed = queue.exists();
      queue.discard();
      if (ctx.json) printJson({ project, discarded: existed });
      else
        say(
          existed
            ? `[sleep] discarded the handoff night of ${project}`
            : `[sleep] no handoff night to discard for ${project}`,
        );
    });

export const handoffCommand = (): Command =>
  addCommonOptions(new Command('handoff'))
    .description(
      'Be the model of a night run with --backend handoff: next (the oldest open request), answer ID, discard.',
    )
    .addCommand(nextCommand(), { isDefault: true })
    .addCommand(answerCommand())
    .addCommand(discardCommand());
