/**
 * Which prompt of a session is its request. Real sessions often open with something else: a
 * preamble the user types at the start of every session ("load claude.md"), a greeting, or a prompt
 * a publisher replaced by a placeholder. None of these is recognised by its words:
 *
 * - a **preamble** is an opening prompt this corpus has seen open at least
 *   {@link PREAMBLE_MIN_SESSIONS} sessions, that the agent met without working (no command, no file
 *   changed) in most of them, and after which a later prompt of some session made it work. A request
 *   that recurs word for word ("suggest a commit message") sets the agent to work at once, so it is
 *   never taken for a preamble; a session that is only a preamble asked for nothing;
 * - a **greeting** is a short prompt ({@link GREETING_MAX_WORDS} words at most) the agent answered
 *   without using a tool, or by only looking around (reading, searching: nothing run or changed),
 *   followed by another prompt ("you there?", a bare flag);
 * - a **placeholder** prompt is made only of bracketed upper-case tags (`[REDACTED_PROMPT]`);
 * - a **typed command** is a short prompt that is a shell command the agent then ran (`ls`, `touch
 *   notes.md`), followed by another prompt: the user used the agent as a terminal before asking;
 * - a **bare template** is a template the user ran without typing anything into it (`templates.ts`),
 *   that the agent met without working, followed by another prompt: there the user picks the job. A
 *   template the agent did work on was the job itself.
 *
 * Leading prompts of these kinds are skipped. A session with nothing else (only "hi", only a
 * placeholder) has no request: it is a one-off.
 */
import { worked as works, type Episode } from './episodes.js';
import { wordUnits } from './lessons/text.js';
import { simpleCommands } from './shell-words.js';

const PREAMBLE_MIN_SESSIONS = 2;
const GREETING_MAX_WORDS = 3;
const PLACEHOLDER_TAG = /\[[A-Z][A-Z0-9_:. -]*\]/g;

export type SkipReason = 'preamble' | 'greeting' | 'placeholder' | 'template' | 'command';

export interface RequestChoice {
  /** Index of the request's episode, or -1 when the session asked for nothing. */
  index: number;
  skipped: Array<{ index: number; reason: SkipReason }>;
}

/** The normal form openers are compared in: lower case, single spaces, no outer punctuation. */
export function openerKey(prompt: string): string {
  return prompt
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^[\p{P}\s]+|[\p{P}\s]+$/gu, '');
}

/**
 * Openers that count as preambles in this corpus: the first prompts of at least
 * {@link PREAMBLE_MIN_SESSIONS} sessions that had a later prompt.
 */
export function corpusPreambles(sessions: ReadonlyArray<readonly Episode[]>): Set<string> {
  const counts = new Map<string, { sessions: number; idle: number; ledOn: number }>();
  for (const episodes of sessions) {
    const [first, ...later] = episodes;
    if (first === undefined) continue;
    const key = openerKey(first.prompt);
    if (key === '') continue;
    const entry = counts.get(key) ?? { sessions: 0, idle: 0, ledOn: 0 };
    entry.sessions += 1;
    if (!works(first)) entry.idle += 1;
    if (!works(first) && later.some(works)) entry.ledOn += 1;
    counts.set(key, entry);
  }
  return new Set(
    [...counts]
      .filter(([, e]) => e.sessions >= PREAMBLE_MIN_SESSIONS && e.idle * 3 >= e.sessions * 2 && e.ledOn > 0)
      .map(([key]) => key),
  );
}

export function chooseRequest(episodes: readonly Episode[], preambles: ReadonlySet<string>): RequestChoice {
  const skipped: RequestChoice['skipped'] = [];
  for (let i = 0; i < episodes.length; i++) {
    const episode = episodes[i] as Episode;
    const hasLater = i + 1 < episodes.length;
    const reason = skipReason(episode, hasLater, preambles);
    if (reason === null) return { index: i, skipped };
    skipped.push({ index: i, reason });
  }
  return { index: -1, skipped };
}

function skipReason(episode: Episode, hasLater: boolean, preambles: ReadonlySet<string>): SkipReason | null {
  if (isPlaceholder(episode.prompt)) return 'placeholder';
  if (episode.template !== undefined && episode.prompt === '')
    return hasLater && !works(episode) ? 'template' : null;
  // Words in any script: "如何更新本地master分支到最新" is a question of seven words, not one.
  const few = wordUnits(episode.prompt) <= GREETING_MAX_WORDS;
  const short = few && episode.actions.length === 0;
  if (short && (hasLater || episode.prompt.length <= 24)) return 'greeting';
  if (few && hasLater && ranTypedCommand(episode)) return 'command';
  if (preambles.has(openerKey(episode.prompt))) return 'preamble';
  // An opener the agent only looked around for (read, searched: nothing run or changed) before the
  // user said what they wanted ("you there?", a bare flag).
  if (few && hasLater && !works(episode)) return 'greeting';
  return null;
}

/** The prompt's program is one the agent ran in reply: the user typed a shell command. */
function ranTypedCommand(episode: Episode): boolean {
  const typed = simpleCommands(episode.prompt)[0]?.program;
  if (typed === undefined || typed === '') return false;
  return episode.actions.some(
    (a) => a.kind === 'run' && simpleCommands(a.target).some((c) => c.program === typed),
  );
}

export function isPlaceholder(prompt: string): boolean {
  return /\[[A-Z]/.test(prompt) && prompt.replace(PLACEHOLDER_TAG, '').replace(/[\s\p{P}]/gu, '') === '';
}
