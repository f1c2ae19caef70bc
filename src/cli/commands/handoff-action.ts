/**
 * `handoff next|answer|discard`: be the model of a night run with `--backend handoff`. `next` prints
 * the oldest open request, `answer ID` records a reply (from --file or stdin), and the next
 * `run --backend handoff` goes on from there.
 */
// The command's action; its definition (options, help text) is `handoff.ts`, which imports this file
// only when the command runs, so `--help` and the other commands do not load what it needs.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { HandoffQueue, type HandoffRequest } from '../../backends/handoff/handoff-queue.js';
import { InputError, errnoCode } from '../../core/errors.js';
import {
  cliContext,
  isDemoProject,
  projectArg,
  resolveStoredProject,
  type CliContext,
  type CommonFlags,
} from '../context.js';
import { projectConfig } from '../project-config.js';
import { printJson, say, terminalText, write } from '../output.js';
import { cliIo, cliPath } from '../io.js';

export interface AnswerFlags extends CommonFlags {
  file?: string;
}

function queueOf(flags: CommonFlags): { ctx: CliContext; project: string; queue: HandoffQueue } {
  const ctx = cliContext(flags);
  // A night on a folder that moved queues requests too (`run` mines its stored sessions).
  const project = resolveStoredProject(flags.project);
  return { ctx, project, queue: new HandoffQueue(ctx.home, project) };
}

/** The `run` that goes on with the night: the demo's copy (`run --demo`'s) goes on with `--demo`. */
const resumeCommand = (ctx: CliContext, project: string): string =>
  `skillopt-sleep run --backend handoff ${projectArg(project, isDemoProject(ctx, project))}`;

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

export function doHandoffNext(_flags: CommonFlags, cmd: Command): void {
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
      ...(first ? {} : { next_step: resumeCommand(ctx, project) }),
    });
    return;
  }
  if (!first) {
    say(
      queue.exists()
        ? `[sleep] every handoff request is answered: continue the night with ${resumeCommand(ctx, project)}`
        : `[sleep] no handoff night is waiting for ${project}; start one with ${resumeCommand(ctx, project)}`,
    );
    return;
  }
  renderRequest(first, open.length);
}

export function doHandoffAnswer(id: string, _flags: AnswerFlags, cmd: Command): void {
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
      ...(open === 0 ? { next_step: resumeCommand(ctx, project) } : {}),
    });
    return;
  }
  say(
    open > 0
      ? `[sleep] answered ${id}; ${open} more open (skillopt-sleep handoff next)`
      : `[sleep] answered ${id}; none open: continue the night with ${resumeCommand(ctx, project)}`,
  );
}

export function doHandoffDiscard(_flags: CommonFlags, cmd: Command): void {
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
}
