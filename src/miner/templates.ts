/**
 * Text the user did not type. A custom prompt or slash command (a Codex `/prompts:…`, a Copilot prompt
 * file, a command file some tool installed) reaches the transcript as its whole expanded text: a hundred
 * lines of instructions around the few words the user wrote. Read as the request, the template decides
 * which kind a session is and which sentence a follow-up "said". Nothing here knows a product or a
 * phrase; a template is recognised by how this user's own prompts repeat:
 *
 * - **template lines**: a line (trimmed, lower-cased, digits masked, so a date or a counter the template
 *   prints still matches) that is in at least {@link SHARED_MIN_PROMPTS} long prompts of at least
 *   {@link SHARED_MIN_SESSIONS} sessions. Three prompts, so that one message the user sent twice is not
 *   yet a template; two sessions, so that a paste the user repeats within one task is not either;
 * - a **template expansion** is a long prompt ({@link MIN_TEMPLATE_LINES} lines with letters or more; a
 *   short instruction the user pastes everywhere is their request, never a template) whose lines are
 *   mostly ({@link TEMPLATE_SHARE}) template lines; what the user typed is what remains;
 * - a **fenced argument**: a heading at the top with a fenced block right under it, in prompts that are
 *   otherwise identical (the same frame) but differ in that block. The block is the argument, even when
 *   its own lines recur (a user who fills the same form for every item).
 *
 * A template without an argument (the user ran it bare) types nothing: its prompt becomes '' and the
 * request is the next turn, where the user picks the job (see `request.ts`). The template keeps a
 * name to say what ran: its first line no other template has (the line in the fewest prompts).
 */
import type { Episode } from './episodes.js';

export const MIN_TEMPLATE_LINES = 8;
export const TEMPLATE_SHARE = 2 / 3;
const SHARED_MIN_PROMPTS = 3;
const SHARED_MIN_SESSIONS = 2;
/** "At the top": the heading over the argument is among the prompt's first lines. */
const TOP_LINES = 3;
/** A name says what ran; the template itself is not repeated. */
const MAX_NAME_CHARS = 120;

const HEADING = /^\s{0,3}#{1,6}\s+\S/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const HAS_LETTER = /\p{L}/u;

/** What ran, when a prompt was a template's expansion: its most distinctive line (heading marks dropped, cut short). */
export type TemplateUse = NonNullable<Episode['template']>;

export interface TypedPrompt {
  /** What the user typed: the whole prompt, the argument, or '' for a template run bare. */
  text: string;
  template: TemplateUse | null;
}

interface LineStats {
  prompts: number;
  sessions: number;
  /** The last prompt and session counted (a line repeated within one counts once). */
  lastPrompt: number;
  lastSession: number;
}

interface FrameStats {
  /** The first argument seen with this frame, and whether another one differed. */
  body: string;
  prompts: number;
  differs: boolean;
}

/** The corpus statistics, computed once per mined project. */
export interface TemplateIndex {
  lines: ReadonlyMap<string, LineStats>;
  frames: ReadonlyMap<string, FrameStats>;
  /** Line → its key: a template's lines come back in every expansion, so each is normalised once. */
  keyOf: Map<string, string>;
  /** The long prompts as the counting split them, so reducing them splits nothing twice. */
  shapes: WeakMap<Episode, PromptShape>;
}

/** A long prompt split for the statistics: its lines, their keys ('' for a line without letters). */
interface PromptShape {
  lines: string[];
  keys: string[];
  /** Line indices of the argument fence's opening and closing lines, when the prompt has one. */
  fence: { open: number; close: number } | null;
  /** With a fence: the keys of every other line, joined (which template ran, whatever was typed). */
  frame: string;
}

export function corpusTemplates(sessions: ReadonlyArray<readonly Episode[]>): TemplateIndex {
  const lines = new Map<string, LineStats>();
  const frames = new Map<string, FrameStats>();
  const keyOf = new Map<string, string>();
  const shapes = new WeakMap<Episode, PromptShape>();
  let promptNo = 0;
  sessions.forEach((episodes, session) => {
    for (const episode of episodes) {
      const shape = longPromptShape(episode.prompt, keyOf);
      if (shape === null) continue;
      shapes.set(episode, shape);
      promptNo += 1;
      for (const key of shape.keys) {
        if (key === '') continue;
        let stats = lines.get(key);
        if (stats === undefined) {
          stats = { prompts: 0, sessions: 0, lastPrompt: -1, lastSession: -1 };
          lines.set(key, stats);
        }
        if (stats.lastPrompt === promptNo) continue;
        stats.lastPrompt = promptNo;
        stats.prompts += 1;
        if (stats.lastSession !== session) {
          stats.sessions += 1;
          stats.lastSession = session;
        }
      }
      if (shape.fence === null) continue;
      const body = fenceBody(shape);
      const stats = frames.get(shape.frame);
      if (stats === undefined) frames.set(shape.frame, { body, prompts: 1, differs: false });
      else {
        stats.prompts += 1;
        stats.differs ||= stats.body !== body;
      }
    }
  });
  return { lines, frames, keyOf, shapes };
}

/** One prompt reduced to what the user typed. */
export function typedPrompt(prompt: string, index: TemplateIndex): TypedPrompt {
  const shape = longPromptShape(prompt, index.keyOf);
  return shape === null ? { text: prompt, template: null } : typedShape(prompt, shape, index);
}

function typedShape(prompt: string, shape: PromptShape, index: TemplateIndex): TypedPrompt {
  const fenced = fencedArgument(shape, index);
  if (fenced !== null) return fenced;
  let counted = 0;
  let template = 0;
  for (const key of shape.keys) {
    if (key === '') continue;
    counted += 1;
    if (shared(index, key)) template += 1;
  }
  if (template < counted * TEMPLATE_SHARE) return { text: prompt, template: null };
  const isTemplate = (i: number): boolean => shared(index, shape.keys[i] ?? '');
  return { text: ownText(shape, index), template: { name: templateName(shape, isTemplate, index) } };
}

/** The fence's body when it is the argument of a template (see the module comment), else null. */
function fencedArgument(shape: PromptShape, index: TemplateIndex): TypedPrompt | null {
  if (shape.fence === null) return null;
  const { open, close } = shape.fence;
  const inFrame = (i: number): boolean => shape.keys[i] !== '' && (i < open || i > close);
  let frame = 0;
  let template = 0;
  shape.keys.forEach((key, i) => {
    if (!inFrame(i)) return;
    frame += 1;
    if (shared(index, key)) template += 1;
  });
  const stats = index.frames.get(shape.frame);
  // Differing in this block is the evidence; a frame seen once has only its lines' statistics.
  const isArgument =
    stats !== undefined && (stats.differs || (stats.prompts === 1 && template >= frame * TEMPLATE_SHARE));
  if (frame < MIN_TEMPLATE_LINES || !isArgument) return null;
  // The heading right over the argument names the slot ("Input"), not the job; a line that repeats
  // the argument is in few prompts too, but it is the user's, not the template's.
  const text = fenceBody(shape);
  const echo = text.split('\n', 1)[0]?.trim() ?? '';
  const heading = previousLine(shape.keys, open);
  const name = templateName(
    shape,
    (i) => inFrame(i) && i !== heading && (echo === '' || !(shape.lines[i] ?? '').includes(echo)),
    index,
  );
  return { text, template: { name } };
}

/** The episodes with their prompts reduced to what the user typed (a template's name kept beside). */
export function typedEpisodes(episodes: readonly Episode[], index: TemplateIndex): Episode[] {
  return episodes.map((episode) => {
    const shape = index.shapes.get(episode) ?? longPromptShape(episode.prompt, index.keyOf);
    if (shape === null) return episode;
    const typed = typedShape(episode.prompt, shape, index);
    return typed.template === null ? episode : { ...episode, prompt: typed.text, template: typed.template };
  });
}

/**
 * The request as a task states it: the user's words, under the name of the template they ran (a bare
 * argument such as an item number says nothing without it), or the name alone for a template run bare.
 */
export function statedRequest(episode: Pick<Episode, 'prompt' | 'template'>): string {
  const name = episode.template?.name ?? '';
  if (name === '') return episode.prompt;
  return episode.prompt === '' ? name : `${name}\n${episode.prompt}`;
}

/** Whether `prompt` (as harvested) is the prompt a stated request or sentence was read from. */
export function statesPrompt(prompt: string, stated: string): boolean {
  if (prompt === stated) return true;
  // Only a template's expansion was reduced; a shorter prompt is stated as written or not at all.
  if (countLineBreaks(prompt, MIN_TEMPLATE_LINES - 1) < MIN_TEMPLATE_LINES - 1) return false;
  // A stated request is the template's name line and the user's lines, each as written in the prompt
  // (the last one perhaps cut short).
  const lines = stated
    .replace(/ …$/, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return lines.length > 0 && lines.every((line) => prompt.includes(line));
}

function shared(index: TemplateIndex, key: string): boolean {
  const stats = key === '' ? undefined : index.lines.get(key);
  return stats !== undefined && stats.prompts >= SHARED_MIN_PROMPTS && stats.sessions >= SHARED_MIN_SESSIONS;
}

/** null for a prompt too short to be a template (checked on its line breaks before any split). */
function longPromptShape(prompt: string, keyOf: Map<string, string>): PromptShape | null {
  if (countLineBreaks(prompt, MIN_TEMPLATE_LINES - 1) < MIN_TEMPLATE_LINES - 1) return null;
  const lines = prompt.split('\n');
  const keys = lines.map((line) => {
    let key = keyOf.get(line);
    if (key === undefined) {
      key = lineKey(line);
      keyOf.set(line, key);
    }
    return key;
  });
  if (keys.filter((key) => key !== '').length < MIN_TEMPLATE_LINES) return null;
  const fence = topFence(lines);
  const frame =
    fence === null
      ? ''
      : keys.filter((key, i) => key !== '' && (i < fence.open || i > fence.close)).join('\n');
  return { lines, keys, fence, frame };
}

function countLineBreaks(text: string, enough: number): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0 && count < enough; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

function lineKey(line: string): string {
  let key = line.trim().toLowerCase();
  // The replacements are the costly part; most lines need neither.
  if (/\s\s|[^\S ]/.test(key)) key = key.replace(/\s+/g, ' ');
  if (/\d/.test(key)) key = key.replace(/\d+/g, '0');
  return /[a-z]/.test(key) || HAS_LETTER.test(key) ? key : '';
}

/** A heading among the first lines with a fenced block right under it (closed further down). */
function topFence(lines: readonly string[]): PromptShape['fence'] {
  let seen = 0;
  for (let i = 0; i < lines.length && seen < TOP_LINES; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    seen += 1;
    if (!HEADING.test(line)) continue;
    const open = nextNonBlank(lines, i + 1);
    const marker = FENCE.exec(lines[open] ?? '')?.[1];
    if (marker === undefined) continue;
    for (let close = open + 1; close < lines.length; close++) {
      if ((lines[close] ?? '').trim().startsWith(marker)) return { open, close };
    }
    return null;
  }
  return null;
}

function nextNonBlank(lines: readonly string[], from: number): number {
  let i = from;
  while (i < lines.length && (lines[i] ?? '').trim() === '') i += 1;
  return i;
}

function previousLine(keys: readonly string[], before: number): number {
  let i = before - 1;
  while (i >= 0 && keys[i] === '') i -= 1;
  return i;
}

function fenceBody(shape: PromptShape): string {
  const { open, close } = shape.fence ?? { open: 0, close: 0 };
  return shape.lines
    .slice(open + 1, close)
    .join('\n')
    .trim();
}

/** The user's lines (those not the template's), from the first to the last, as written. */
function ownText(shape: PromptShape, index: TemplateIndex): string {
  const own = (i: number): boolean => shape.keys[i] !== '' && !shared(index, shape.keys[i] ?? '');
  const first = shape.keys.findIndex((_, i) => own(i));
  if (first < 0) return '';
  let last = shape.keys.length - 1;
  while (!own(last)) last -= 1;
  const kept: string[] = [];
  for (let i = first; i <= last; i++) if (own(i) || shape.keys[i] === '') kept.push(shape.lines[i] ?? '');
  return kept.join('\n').trim();
}

/** The first of the template's lines that the fewest prompts have: what sets it apart from the others. */
function templateName(shape: PromptShape, isTemplate: (i: number) => boolean, index: TemplateIndex): string {
  let best = -1;
  let fewest = Number.POSITIVE_INFINITY;
  shape.keys.forEach((key, i) => {
    const prompts = key === '' ? undefined : index.lines.get(key)?.prompts;
    if (prompts !== undefined && prompts < fewest && isTemplate(i)) {
      fewest = prompts;
      best = i;
    }
  });
  const line = (shape.lines[best] ?? '').trim().replace(/^#+\s*/, '');
  if (line.length <= MAX_NAME_CHARS) return line;
  const cut = line.lastIndexOf(' ', MAX_NAME_CHARS);
  return line.slice(0, cut > 0 ? cut : MAX_NAME_CHARS);
}
