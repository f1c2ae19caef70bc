/**
 * What an episode's answer holds, in the parts rule checks are decided on:
 *
 * - `full`: the answer as replayed (prose, commands, file text; see `renderAnswer`);
 * - `commands`: each command line as run, and `built`: the same with its arguments dropped (program,
 *   subcommands, flags): `rm -f package-lock.json` does not ask for a package-lock.json;
 * - `files`: each file written or edited (by name), with its path and the text put into it;
 * - `blocks`: the fenced blocks of the prose (a commit message, a query).
 *
 * The rest of the prose is left out: two replies in prose differ in a hundred words that mean nothing.
 *
 * A later answer often starts by undoing the rejected one (`pip uninstall -y x`, `git checkout --
 * dist/…`). `undoneIn` finds those commands: the same program run with another subcommand on an
 * argument of the rejected answer, or a command on files the rejected answer wrote and nothing new
 * (`git mv old new` names a new file: it is the fix, not an undo).
 */
import type { ToolAction } from '../../core/session.js';
import { renderAnswer, type Episode } from '../episodes.js';
import { PLAIN_WORD, simpleCommands } from '../shell-words.js';

export interface AnswerEvidence {
  full: string;
  commands: string[];
  built: string[];
  /** file name → path and text written */
  files: Map<string, { path: string; text: string }>;
  blocks: string[];
}

const FENCED = /```[^\n]*\n([\s\S]*?)(?:```|$)/g;

export function fencedBlocks(text: string): string[] {
  return [...text.matchAll(FENCED)].map((m) => (m[1] ?? '').trimEnd());
}

/**
 * `named`: words of the user's sentence. A second or later subcommand word the user named is the
 * object of the command (`npm install dayjs` for "and dayjs"), not how it was built.
 */
export function evidenceOf(
  episode: Episode,
  skip: ReadonlySet<number> = new Set(),
  named: ReadonlySet<string> = new Set(),
): AnswerEvidence {
  const commands: string[] = [];
  const built: string[] = [];
  const files = new Map<string, { path: string; text: string }>();
  episode.actions.forEach((action, i) => {
    if (skip.has(i)) return;
    if (action.kind === 'run' && action.target !== '') {
      commands.push(action.target);
      built.push(builtOf(action.target, named));
    } else if (action.kind === 'write' || action.kind === 'edit') {
      const name = fileName(action.target);
      const before = files.get(name);
      files.set(name, {
        path: action.target,
        text: before ? `${before.text}\n${action.added}` : action.added,
      });
    }
  });
  return {
    full: renderAnswer(episode, { skip }),
    commands,
    built,
    files,
    blocks: fencedBlocks(episode.text),
  };
}

/** Everything the answer did and produced, without the prose that talks about it. */
export function workText(e: AnswerEvidence): string {
  return [...e.blocks, ...e.commands, ...[...e.files.values()].map((f) => `${f.path}\n${f.text}`)]
    .filter((part) => part !== '')
    .join('\n');
}

function builtOf(line: string, named: ReadonlySet<string>): string {
  return simpleCommands(line)
    .map(({ program, args }) => {
      const words = [program];
      let subcommands = 0;
      let inChain = true;
      for (const arg of args) {
        if (arg.startsWith('-')) {
          words.push(arg.replace(/=.*$/, ''));
          continue;
        }
        const isSub =
          inChain && PLAIN_WORD.test(arg) && subcommands < 2 && !(subcommands >= 1 && named.has(arg));
        if (isSub) {
          words.push(arg);
          subcommands += 1;
        } else inChain = false;
      }
      return words.join(' ');
    })
    .join('\n');
}

/**
 * Whether a command argument names this file: its name, its path's end, or a folder it is in
 * (`git checkout -- dist/` names `/p/dist/assets/x.js`).
 */
export function argumentNames(arg: string, filePath: string): boolean {
  const file = filePath.replace(/\\/g, '/');
  const name = arg.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
  if (name === '' || name === '.' || name.startsWith('-')) return false;
  return (
    file === name || file.endsWith(`/${name}`) || file.includes(`/${name}/`) || file.startsWith(`${name}/`)
  );
}

/** Indices of the actions of `later` that undo something of `rejected`. */
export function undoneIn(later: Episode, rejected: Episode): Set<number> {
  const writtenPaths: string[] = [];
  const before: Array<{ program: string; sub: string; args: Set<string> }> = [];
  for (const action of rejected.actions) {
    if (action.kind === 'write' || action.kind === 'edit') writtenPaths.push(action.target);
    if (action.kind !== 'run') continue;
    for (const { program, args } of simpleCommands(action.target)) {
      before.push({
        program,
        sub: args[0] ?? '',
        args: new Set(args.slice(1).filter((a) => !a.startsWith('-'))),
      });
    }
  }
  const undone = new Set<number>();
  later.actions.forEach((action, i) => {
    if (action.kind !== 'run') return;
    for (const { program, args } of simpleCommands(action.target)) {
      const sub = args[0] ?? '';
      const rest = args.slice(1).filter((a) => !a.startsWith('-'));
      const otherSubcommand = before.some(
        (b) => b.program === program && b.sub !== sub && rest.some((arg) => b.args.has(arg)),
      );
      const paths = args.filter((arg) => !arg.startsWith('-') && /[./\\]/.test(arg));
      const names = (arg: string): boolean => writtenPaths.some((file) => argumentNames(arg, file));
      const namesWritten = paths.length > 0 && paths.every(names);
      if (otherSubcommand || namesWritten) undone.add(i);
    }
  });
  return undone;
}

export function fileName(filePath: string): string {
  return filePath.replace(/\\/g, '/').replace(/\/+$/, '').split('/').pop() ?? filePath;
}

/** The later answer works on what the earlier one did: the same files or commands, or a new version of its text. */
export function revisits(previous: Episode, later: Episode): boolean {
  const files = (actions: readonly ToolAction[]): Set<string> =>
    new Set(
      actions
        .filter((a) => a.kind === 'write' || a.kind === 'edit' || a.kind === 'delete')
        .map((a) => a.target.replace(/\\/g, '/').split('/').pop() ?? a.target),
    );
  const before = files(previous.actions);
  if ([...files(later.actions)].some((file) => before.has(file))) return true;
  const commands = (actions: readonly ToolAction[]): Set<string> =>
    new Set(
      actions
        .filter((a) => a.kind === 'run')
        .flatMap((a) => simpleCommands(a.target).map((c) => `${c.program} ${c.args[0] ?? ''}`)),
    );
  const ran = commands(previous.actions);
  if ([...commands(later.actions)].some((command) => ran.has(command))) return true;
  return fencedBlocks(previous.text).length > 0 && fencedBlocks(later.text).length > 0;
}
