/**
 * The commands that may mark a session's kind (`coherence.ts`): a command with its subcommand says
 * what was done (`git diff`, `pnpm add`); a bare `ls` does not. A command that most sessions of a
 * project run only after they changed something (the test suite, the type checker after any edit)
 * is how this agent checks any work: like a function word, it marks no kind. The same command run
 * before any change (reproducing a failing test, `git diff --staged` for a message) still does.
 */
import type { ToolAction } from '../../core/session.js';
import { addActionFeatures, newSink } from './action-features.js';
import { plainWords } from './request-tokens.js';

/** Sessions of a project that ran a command only after a change, beyond this share: routine. */
const ROUTINE_SHARE = 0.5;
const CHANGES: ReadonlySet<string> = new Set(['edit', 'write', 'delete']);

export interface CommandInput {
  request: string;
  requestActions: readonly ToolAction[];
  cwd: string;
  partition: string;
}

/**
 * Per session, its command marks: the `c:` features with a subcommand of `features` (what the
 * session's actions gave), minus the project's routine checks.
 */
export function commandMarks(
  inputs: readonly CommandInput[],
  features: ReadonlyArray<ReadonlyMap<string, number>>,
): string[][] {
  const all = features.map((f) => [...f.keys()].filter((k) => k.startsWith('c:') && k.includes(' ')));
  const sessions = new Map<string, number>();
  const checks = new Map<string, number>();
  inputs.forEach((input, i) => {
    sessions.set(input.partition, (sessions.get(input.partition) ?? 0) + 1);
    const before = commandsBeforeChanges(input);
    for (const command of all[i] ?? []) {
      if (before.has(command)) continue;
      const key = `${input.partition}\u0000${command}`;
      checks.set(key, (checks.get(key) ?? 0) + 1);
    }
  });
  return inputs.map((input, i) => {
    const size = sessions.get(input.partition) ?? 0;
    return (all[i] ?? []).filter(
      (command) => (checks.get(`${input.partition}\u0000${command}`) ?? 0) <= ROUTINE_SHARE * size,
    );
  });
}

/** The commands of the request's reply before its first change (all of them if it changed nothing). */
function commandsBeforeChanges(input: CommandInput): Set<string> {
  const first = input.requestActions.findIndex((a) => CHANGES.has(a.kind));
  if (first === 0) return new Set();
  const lead = first < 0 ? input.requestActions : input.requestActions.slice(0, first);
  const sink = newSink();
  addActionFeatures(sink, lead, 1, input.cwd, plainWords(input.request));
  return new Set([...sink.features.keys()].filter((k) => k.startsWith('c:')));
}
