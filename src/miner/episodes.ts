/**
 * A session as the miner reads it: a list of episodes, one per real user prompt, each holding what
 * the agent said and did in reply until the next prompt. An episode rendered as text is the
 * "answer" a replay is judged on: the agent's prose, the commands it ran and what it wrote into
 * files (reads and searches change nothing and are left out).
 */
import type { HarvestedSession, ToolAction } from '../core/session.js';
import { userPrompts } from './normalize-intent.js';
import { wordUnits } from './lessons/text.js';

export interface Episode {
  /** Index of the prompt's user turn in `session.turns`. */
  turnIndex: number;
  prompt: string;
  /** The agent's prose in reply (its turns joined). */
  text: string;
  /** What its tool calls did, in order. */
  actions: ToolAction[];
  /**
   * Set when the prompt was a template's expansion (`templates.ts`, after the whole project is read):
   * `prompt` is then only what the user typed, and `name` says what ran.
   */
  template?: { name: string };
}

export function sessionEpisodes(session: HarvestedSession): Episode[] {
  const prompts = userPrompts(session.turns);
  return prompts.map((prompt, i) => {
    const end = prompts[i + 1]?.index ?? session.turns.length;
    const replies = session.turns.slice(prompt.index + 1, end).filter((turn) => turn.role === 'assistant');
    return {
      turnIndex: prompt.index,
      prompt: prompt.text,
      text: replies
        .map((turn) => turn.text.trim())
        .filter((text) => text !== '')
        .join('\n'),
      actions: replies.flatMap((turn) => turn.actions ?? []),
    };
  });
}

/** A follow-up this short after a reply that only proposed is a go-ahead ("ok", "да", "好的"). */
const GO_AHEAD_MAX_WORDS = 3;

/** The agent ran a command or changed a file in reply. */
export function worked(episode: Pick<Episode, 'actions'>): boolean {
  return episode.actions.some(
    (a) => a.kind === 'run' || a.kind === 'edit' || a.kind === 'write' || a.kind === 'delete',
  );
}

/**
 * What the agent did for the request at `index`: its reply's actions, and, when that reply only
 * proposed (a plan, a question: no command run, no file changed), the actions of the replies to the
 * short go-aheads that followed, up to the first that worked. An agent told to show its plan first
 * does the request's work one turn later. `after` is the first episode past that work.
 */
export function requestWork(
  episodes: readonly Episode[],
  index: number,
): { actions: ToolAction[]; after: number } {
  const request = episodes[index];
  if (request === undefined) return { actions: [], after: index + 1 };
  const actions = [...request.actions];
  let at = index + 1;
  if (worked(request)) return { actions, after: at };
  for (let next = episodes[at]; next !== undefined; next = episodes[at]) {
    if (wordUnits(next.prompt) > GO_AHEAD_MAX_WORDS) break;
    actions.push(...next.actions);
    at += 1;
    if (worked(next)) break;
  }
  return { actions, after: at };
}

/** Whether the agent did anything in reply (said something or used a tool). */
export function agentActed(episode: Episode): boolean {
  return episode.text !== '' || episode.actions.length > 0;
}

export interface RenderOptions {
  /** Leave the prose out: only commands and file contents (what the agent did, not what it said). */
  actionsOnly?: boolean;
  /** Actions to leave out (by index in `episode.actions`). */
  skip?: ReadonlySet<number>;
}

/** Enough for any check and for a reviewer; the reference keeps 600 characters of prose. */
export const MAX_ANSWER_CHARS = 6000;

/**
 * The episode as an answer: its prose, then `$ <command>` for each command, `--- <path>` and the
 * text written for each file write or edit, `rm <path>` for a deletion.
 */
export function renderAnswer(episode: Pick<Episode, 'text' | 'actions'>, opts: RenderOptions = {}): string {
  const parts: string[] = [];
  if (!opts.actionsOnly && episode.text !== '') parts.push(episode.text);
  episode.actions.forEach((action, i) => {
    if (opts.skip?.has(i)) return;
    const line = renderAction(action);
    if (line !== '') parts.push(line);
  });
  const text = parts.join('\n');
  return text.length > MAX_ANSWER_CHARS ? text.slice(0, MAX_ANSWER_CHARS) : text;
}

function renderAction(action: ToolAction): string {
  switch (action.kind) {
    case 'run':
      return action.target === '' ? '' : `$ ${action.target}`;
    case 'write':
    case 'edit':
      return action.added === '' ? `--- ${action.target}` : `--- ${action.target}\n${action.added}`;
    case 'delete':
      return `rm ${action.target}`;
    default:
      return '';
  }
}
