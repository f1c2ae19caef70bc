/**
 * What each prompt of a session says to the agent, read from structure and from this user's own
 * corpus, in any script, never from a list of phrases:
 *
 * - a **nudge** (go on, a choice, an approval): a prompt of two words or fewer;
 * - a **report** (a pasted log or spec): long or many lines, to act on, not a rule;
 * - a **question**: it ends on a question mark;
 * - a **correction**: the agent's next answer shows what the user rejected — a check read from the
 *   sentence separates the answer it reacted to from the one that followed (`rules/literal.ts`), the
 *   user named a command the agent had run and the agent stopped running it, or the user shouted a
 *   word ("NEVER") at an answer;
 * - a **preference**: the agent wrote what the user said into its own instructions (a memory
 *   document, rules or settings: `agent-files.ts`), in reply or a reply or two later, or opened its
 *   memory or settings in reply (about to record it);
 * - a **request**: anything else (new work, feedback on a result).
 *
 * A correction and a preference are what the user taught; the rest are not. A question or a nudge is
 * never a lesson on its own, whatever the agent did next: the evidence must be in the user's words.
 */
import type { ToolAction } from '../../core/session.js';
import type { Episode } from '../episodes.js';
import { simpleCommands } from '../shell-words.js';
import { fileName } from '../rules/evidence.js';
import { NOT_RUNS, RUNS } from '../../core/action-checks.js';
import type { FollowUpFinding } from '../rules/session-rules.js';
import { isAgentInstructionFile, namesAgentState } from './agent-files.js';
import { clauses, endsWithQuestion, oneLineCut, shoutedWords, textTokens, wordUnits } from './text.js';

export type PromptClass = 'correction' | 'preference' | 'request' | 'question' | 'nudge' | 'report';

export interface ClassifiedPrompt {
  /** Index of the prompt's episode. */
  episode: number;
  class: PromptClass;
  /** What made it a correction or a preference (empty for the other classes). */
  signals: string[];
  /** The user's words that state the lesson: the prompt, or its clauses that carry the signal (empty
   * for the classes that teach nothing). */
  rule: string;
  /** Earlier prompts of the session that said the same thing (a statement the agent recorded later). */
  alsoSaidAt: number[];
  /**
   * For a recorded preference, the episode of the agent's write that recorded it, or of the first
   * write that recording revised: prompts recorded by one write, or by rewrites of it, are one lesson.
   */
  recordedAt?: number;
}

export interface CorpusSignals {
  /** A lower-case word written as an ordinary word in the agents' prose (shouting is emphasis). */
  ordinaryWord: (word: string) => boolean;
  /** Words this user writes in many prompts, and function words: they name no step. */
  common: ReadonlySet<string>;
}

/** A prompt this short asks for nothing it could teach (in words; see `wordUnits`). */
const NUDGE_UNITS = 2;
/** Longer, or more lines, and the prompt is a pasted log or spec. */
const REPORT_CHARS = 600;
const REPORT_LINES = 6;
/** The longest rule a lesson keeps, in characters (the user's words, cut on one line). */
export const MAX_RULE_CHARS = 240;

export function isNudge(prompt: string): boolean {
  return wordUnits(prompt) <= NUDGE_UNITS;
}

/** Every prompt from the request on, classified. */
export function classifyPrompts(
  episodes: readonly Episode[],
  requestIndex: number,
  findings: readonly FollowUpFinding[],
  corpus: CorpusSignals,
  /** The follow-up at this episode gave a check the kind saw in two sessions or more. */
  confirmed: (episode: number) => boolean = () => false,
): ClassifiedPrompt[] {
  const byEpisode = new Map(findings.map((f) => [f.episode, f]));
  const out: ClassifiedPrompt[] = [];
  for (let k = Math.max(0, requestIndex); k < episodes.length; k++) {
    out.push(classifyOne(episodes, k, k === requestIndex, byEpisode.get(k), corpus, confirmed(k)));
  }
  return out;
}

/**
 * A check read from the sentence says the user rejected something when the term was quoted, when the
 * sentence named both the program the answer stopped running and the one it ran instead ("use pnpm
 * instead of npm": a tool swapped in the same step), or when the kind saw the same check in another
 * session. A word of the sentence that merely shows up in the next answer, or one the next answer's
 * text dropped, once, is what a change of the task looks like ("also add a search box", "remove the
 * block below the terms").
 */
function rejectsSomething(finding: FollowUpFinding, confirmed: boolean): boolean {
  const ops = new Set(finding.literal.map((l) => l.check.op));
  return confirmed || finding.literal.some((l) => l.quoted) || (ops.has(RUNS) && ops.has(NOT_RUNS));
}

function classifyOne(
  episodes: readonly Episode[],
  k: number,
  isRequest: boolean,
  finding: FollowUpFinding | undefined,
  corpus: CorpusSignals,
  confirmed: boolean,
): ClassifiedPrompt {
  const episode = episodes[k] as Episode;
  const prompt = episode.prompt.trim();
  const base = {
    episode: k,
    signals: [] as string[],
    rule: '',
    alsoSaidAt: [],
  };
  const said = (): string => oneLineCut(prompt, MAX_RULE_CHARS);
  const report = prompt.length > REPORT_CHARS || prompt.split('\n').length > REPORT_LINES;
  // A request states the task (a spec in capitals is still the task): it teaches by repetition only.
  if (isRequest) return { ...base, class: 'request' };
  if (!report && finding !== undefined && rejectsSomething(finding, confirmed))
    return { ...base, class: 'correction', signals: ['check'], rule: said() };
  if (isNudge(prompt)) return { ...base, class: 'nudge' };
  const memory = recordedInInstructions(episodes, k);
  if (memory !== null)
    return {
      ...base,
      class: 'preference',
      signals: [memory.written ? 'recorded' : 'recording'],
      rule: said(),
      alsoSaidAt: memory.alsoSaidAt,
      ...(memory.recordedAt === undefined ? {} : { recordedAt: memory.recordedAt }),
    };
  if (report) return { ...base, class: 'report' };
  const shouted = shoutedClauses(prompt, corpus.ordinaryWord);
  if (shouted.length > 0 && !endsWithQuestion(ruleOf(shouted)))
    return { ...base, class: 'correction', signals: ['shouted'], rule: ruleOf(shouted) };
  if (endsWithQuestion(prompt)) return { ...base, class: 'question' };
  if (stoppedNamedCommand(episodes, k, corpus.common))
    return { ...base, class: 'correction', signals: ['stopped'], rule: said() };
  return { ...base, class: 'request' };
}

/** The clauses of the prompt that hold a shouted word (paths, links and code are not prose). */
export function shoutedClauses(prompt: string, ordinaryWord: (word: string) => boolean): string[] {
  return clauses(prompt).filter((clause) => shoutedWords(proseOf(clause), ordinaryWord).length > 0);
}

/** The text without code, links and paths: `CLAUDE.md` in a path is a name, not a shout. */
export function proseOf(text: string): string {
  return text
    .replace(/```[\s\S]*?(?:```|$)/g, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/\S*[\\/.]\S*[\p{L}\p{N}]\S*/gu, ' ');
}

function ruleOf(parts: readonly string[]): string {
  return oneLineCut(parts.join('; '), MAX_RULE_CHARS);
}

const writes = (actions: readonly ToolAction[]): ToolAction[] =>
  actions.filter((a) => (a.kind === 'write' || a.kind === 'edit') && isAgentInstructionFile(a.target));

/**
 * The agent may record a statement a reply or two after it: it first proposes where and how (a
 * memory file, a rule, a setting), the user picks, then it writes.
 */
const RECORD_WINDOW = 3;
/** A recording made after a later prompt is this one's when it holds this share of its words. */
const LATER_RECORD_SHARE = 0.25;

/**
 * The agent wrote the user's words into its own instructions in reply, or within the next
 * {@link RECORD_WINDOW} replies when the text written holds a good share of this prompt's words, at
 * least as much as of any prompt in between but a nudge (it records this statement, not a later one). A prompt
 * just before it that the agent answered without acting, and whose words the text also holds, said
 * it first. When the session ends before anything is written, a reply that opens the agent's own
 * memory or settings (`namesAgentState`) was about to record it.
 */
function recordedInInstructions(
  episodes: readonly Episode[],
  k: number,
): { alsoSaidAt: number[]; written: boolean; recordedAt?: number } | null {
  const episode = episodes[k] as Episode;
  // A session that set out to write this file (its request names it) is working on it, not recording.
  const request = episodes.find((e) => e.prompt.trim() !== '')?.prompt.toLowerCase() ?? '';
  const own = textTokens(episode.prompt);
  for (let j = k; j < Math.min(episodes.length, k + RECORD_WINDOW); j++) {
    const written = writes((episodes[j] as Episode).actions);
    if (written.length === 0) continue;
    if (written.some((a) => request.includes(fileName(a.target)))) return null;
    const already = new Set(writes(episodes[j - 1]?.actions ?? []).map((a) => a.added));
    const tokens = textTokens(
      written
        .map((a) => a.added)
        .filter((added) => !already.has(added))
        .join('\n'),
    );
    const shared = (words: ReadonlySet<string>): number => {
      let n = 0;
      for (const token of words) if (tokens.has(token)) n += 1;
      return n;
    };
    const share = (prompt: string): number => {
      const words = textTokens(prompt);
      return words.size === 0 ? 0 : shared(words) / words.size;
    };
    if (shared(own) < Math.min(3, own.size)) return null;
    const confirmedOnly = j === k + 1 && isShort((episodes[j] as Episode).prompt);
    if (j > k && !confirmedOnly) {
      const mine = share(episode.prompt);
      if (mine < LATER_RECORD_SHARE) return null;
      // A nudge in between ("ok") says nothing of its own, whatever the text written holds.
      for (let i = k + 1; i <= j; i++) {
        const between = (episodes[i] as Episode).prompt;
        if (!isShort(between) && share(between) > mine) return null;
      }
    }
    const before = episodes[k - 1];
    const saidFirst =
      (j === k || confirmedOnly) &&
      before !== undefined &&
      before.actions.length === 0 &&
      k - 1 > 0 &&
      shared(textTokens(before.prompt)) >= Math.min(3, textTokens(before.prompt).size);
    return {
      alsoSaidAt: saidFirst ? [k - 1] : [],
      written: true,
      recordedAt: firstRecording(episodes, j, written),
    };
  }
  const opened = episode.actions.filter((a) => namesAgentState(a.target));
  if (opened.length === 0 || opened.some((a) => request.includes(fileName(a.target)))) return null;
  return { alsoSaidAt: [], written: false };
}

/**
 * The earliest reply that wrote a line the recording at `j` replaced in the same file (a line it
 * removed and did not write back): the user refined a rule the agent had recorded. An edit that only
 * anchors on the last line to append a new rule keeps that line, and revises nothing.
 */
function firstRecording(episodes: readonly Episode[], j: number, written: readonly ToolAction[]): number {
  let first = j;
  for (const action of written) {
    const kept = new Set(lines(action.added));
    const replaced = lines(action.removed).filter((line) => !kept.has(line));
    if (replaced.length === 0) continue;
    for (let i = 0; i < first; i++) {
      const earlier = writes((episodes[i] as Episode).actions).filter(
        (a) => fileName(a.target) === fileName(action.target),
      );
      const wrote = new Set(earlier.flatMap((a) => lines(a.added)));
      if (replaced.some((line) => wrote.has(line))) {
        first = i;
        break;
      }
    }
  }
  return first;
}

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /[\p{L}\p{N}]/u.test(line));

function isShort(prompt: string): boolean {
  return wordUnits(prompt) <= NUDGE_UNITS;
}

/**
 * The prompt names a step of the answer before it (the subcommand of a command the agent ran,
 * `checkout` after `git checkout x`), and the agent's reply does no work at all: the user objected
 * to the step. Had the user asked for it again, or for something new, the reply would work.
 */
function stoppedNamedCommand(episodes: readonly Episode[], k: number, common: ReadonlySet<string>): boolean {
  const previous = episodes[k - 1];
  const episode = episodes[k] as Episode;
  if (previous === undefined) return false;
  const steps = new Set<string>();
  for (const action of previous.actions) {
    if (action.kind !== 'run') continue;
    for (const { args } of simpleCommands(action.target)) {
      const sub = args[0];
      if (sub !== undefined && /^[a-z][a-z-]{2,}$/.test(sub)) steps.add(sub);
    }
  }
  if (steps.size === 0) return false;
  const said = new Set(episode.prompt.toLowerCase().match(/[\p{L}\p{N}_-]{3,}/gu) ?? []);
  const named = [...steps].filter((step) => said.has(step) && !common.has(step));
  if (named.length === 0) return false;
  // Any new work in reply ("also add a note to the README" after `uv add x`) is a new request.
  return !episode.actions.some((a) => a.kind === 'run' || a.kind === 'edit' || a.kind === 'write');
}
