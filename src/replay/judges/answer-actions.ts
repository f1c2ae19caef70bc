/**
 * The actions an answer states, read back from the rendered-answer format: what `renderAnswer`
 * (src/miner/episodes.ts) writes for a recorded answer and what `templates/prompts/attempt.md` asks
 * a target to write, since a replay has no tools:
 *
 *   $ <command>     a command it runs (a line ending in `\` goes on on the next line)
 *   --- <path>      a file it writes or edits; the text it writes follows, up to the next action line
 *   rm <path>       a file it deletes (one path, no flag: `rm -rf x` in prose is not a deletion)
 *
 * Every other line is prose, which the action checks (`runs`, `edits`, `writes`) never read.
 */
import { boundedMemo } from '../../core/memo.js';
import { mentionsWord } from '../../core/negative-check.js';

export interface AnswerAction {
  kind: 'run' | 'write' | 'delete';
  /** The command (whitespace squeezed), or the path. */
  target: string;
  /** What a write puts in the file ('' for a run or a deletion). */
  text: string;
  /** The answer's lines the action spans, [start, end). */
  start: number;
  end: number;
}

const RUN = /^\$ +(\S.*)$/;
const WRITE = /^--- +(\S.*?)\s*$/;
const DELETE = /^rm +([^\s-]\S*)\s*$/;

const isActionLine = (line: string): boolean => RUN.test(line) || WRITE.test(line) || DELETE.test(line);
const squeeze = (text: string): string => text.replace(/\s+/g, ' ').trim();

function parse(answer: string): AnswerAction[] {
  const lines = answer.split(/\r?\n/);
  const actions: AnswerAction[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    const run = RUN.exec(line);
    const write = run ? null : WRITE.exec(line);
    const del = run || write ? null : DELETE.exec(line);
    const start = i;
    i += 1;
    if (run) {
      let command = run[1] as string;
      while (command.endsWith('\\') && i < lines.length && !isActionLine(lines[i] as string)) {
        command = `${command.slice(0, -1)} ${lines[i] as string}`;
        i += 1;
      }
      actions.push({ kind: 'run', target: squeeze(command), text: '', start, end: i });
    } else if (write) {
      while (i < lines.length && !isActionLine(lines[i] as string)) i += 1;
      const text = lines.slice(start + 1, i).join('\n');
      actions.push({ kind: 'write', target: write[1] as string, text, start, end: i });
    } else if (del) {
      actions.push({ kind: 'delete', target: del[1] as string, text: '', start, end: i });
    }
  }
  return actions;
}

/** The answer's actions in order (memoised: the miner judges one answer against many checks). */
export const answerActions: (answer: string) => AnswerAction[] = boundedMemo(parse, 512);

/** A command of the answer says the term, as a whole word (`npm` is not in `pnpm install`). */
export function runsTerm(actions: readonly AnswerAction[], term: string): boolean {
  const wanted = squeeze(term);
  return actions.some((a) => a.kind === 'run' && mentionsWord(a.target, wanted));
}

/** A file the answer writes, edits or deletes is at this path, in this folder, or has this name. */
export function editsPath(actions: readonly AnswerAction[], term: string): boolean {
  return actions.some((a) => a.kind !== 'run' && pathMatches(a.target, term));
}

/** The text the answer writes into a file says the term, as a whole word. */
export function writesTerm(actions: readonly AnswerAction[], term: string): boolean {
  return actions.some((a) => a.kind === 'write' && mentionsWord(a.text, term));
}

const normalPath = (path: string): string =>
  path.trim().replace(/\\/g, '/').replace(/^\.\//, '').toLowerCase();

/**
 * `dist/` or `dist` is a folder anywhere on the path, `packages/shared/dist/index.d.ts` the path or its
 * end (paths are often absolute), `index.d.ts` the file's name. Case is ignored, as the text ops do.
 */
export function pathMatches(path: string, term: string): boolean {
  const file = normalPath(path);
  const wanted = normalPath(term).replace(/\/+$/, '');
  if (wanted === '' || wanted === '.') return false;
  const inFolder = file.startsWith(`${wanted}/`) || file.includes(`/${wanted}/`);
  if (/\/\s*$/.test(term)) return inFolder;
  return inFolder || file === wanted || file.endsWith(`/${wanted}`);
}
