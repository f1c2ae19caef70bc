/**
 * Prompt-level text helpers: the normal form that decides "same task" in this version, the filter
 * for prompts that are not really the user asking for something, and the replay-marker test.
 */
import type { HarvestedTurn } from '../core/session.js';
import { isReplayPrompt } from '../core/machine-sessions.js';

/** Small on purpose: words that carry no task meaning in a request to a coding agent. */
// prettier-ignore
const STOP_WORDS: ReadonlySet<string> = new Set([
  'the', 'a', 'an', 'please', 'can', 'could', 'you', 'me', 'my', 'for', 'to', 'of', 'in', 'on',
  'this', 'that', 'it', 'and', 'or', 'with', 'i', 'we', 'our', 'is', 'are', 'be', 'just', 'now',
  'again', 'some', 'hey', 'hi',
]);

const CODE = '<code>';
const PATH = '<path>';
const NUM = '<num>';
const ID = '<id>';
const PLACEHOLDERS: ReadonlySet<string> = new Set([CODE, PATH, NUM, ID]);

const FENCED_BLOCK = /```[\s\S]*?(?:```|$)/g;
const INLINE_CODE = /`[^`\n]+`/g;
/** Wrapping characters around a token that say nothing about what the token is. */
const OUTER_PUNCTUATION = /^[("'“‘[{]+|[)"'”’\]},.;:!?]+$/g;
const OUTER_ANGLES = /^<+|>+$/g;

const NUMBER = /^[#v]?\d[\d.,:_]*%?$/i;
const DATE_LIKE = /^\d+(?:-\d+)+$/;
const ABBREVIATION = /^(?:[a-z]\.)+[a-z]?$/i;
const FILE_WITH_EXTENSION = /^[\w.-]*\w\.[A-Za-z0-9]{1,8}$/;
const HEX = /^(?:0x)?[0-9a-f]{7,}$/i;
const CAMEL_CASE = /^[a-z]+[A-Z][A-Za-z0-9]*$/;
const SNAKE_CASE = /^\w*[A-Za-z0-9]_[A-Za-z0-9]\w*$/;
const KEBAB_CASE = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+$/;

/**
 * The normal form of an intent: lower-case words without punctuation or stop words, where code
 * spans, paths, numbers and identifiers become placeholders. "Add `zod` to the web app" and
 * "please add `dayjs` to the web app." both become "add <code> web app".
 */
export function normalizeIntent(text: string): string {
  const spaced = text.replace(FENCED_BLOCK, ` ${CODE} `).replace(INLINE_CODE, ` ${CODE} `);
  const words = spaced
    .split(/\s+/)
    .filter((raw) => raw !== '')
    .flatMap(normalizeToken);
  return words.filter((word) => !STOP_WORDS.has(word)).join(' ');
}

function normalizeToken(raw: string): string[] {
  const unwrapped = raw.replace(OUTER_PUNCTUATION, '');
  // Placeholders are checked before angle brackets go, or "<code>" would become the word "code".
  if (PLACEHOLDERS.has(unwrapped)) return [unwrapped];
  const token = unwrapped.replace(OUTER_ANGLES, '');
  if (token === '') return [];
  const kind = classifyToken(token);
  if (kind != null) return [kind];
  // Plain words: drop apostrophes so "don't" stays one word, split on the rest of the punctuation.
  return token
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((part) => part !== '')
    .map((part) => (NUMBER.test(part) ? NUM : part));
}

/** The placeholder a token stands for, or null for a plain word. Order matters: numbers first. */
function classifyToken(token: string): string | null {
  if (NUMBER.test(token) || DATE_LIKE.test(token)) return NUM;
  if (token.includes('/') && /[\p{L}\p{N}]/u.test(token)) return PATH;
  if (FILE_WITH_EXTENSION.test(token) && !ABBREVIATION.test(token)) return PATH;
  if (HEX.test(token) && /\d/.test(token) && /[a-f]/i.test(token)) return ID;
  if (CAMEL_CASE.test(token) || SNAKE_CASE.test(token)) return ID;
  if (KEBAB_CASE.test(token) && /\d/.test(token) && /[A-Za-z]/.test(token)) return ID;
  return null;
}

const INTERRUPT_MARKER = /^\s*\[Request interrupted by user[^\]]*\]\s*/;

/**
 * Claude writes "[Request interrupted by user]" as a user line, sometimes with the user's next
 * words glued after it. The marker is evidence, the rest is a prompt.
 */
export function stripInterruptMarker(text: string): { interrupted: boolean; rest: string } {
  const match = INTERRUPT_MARKER.exec(text);
  return match == null
    ? { interrupted: false, rest: text }
    : { interrupted: true, rest: text.slice(match[0].length) };
}

/**
 * True for user lines that are not the user asking for something: empty, a wrapped tag
 * (`<local-command-stdout>...`), a bare slash command, a paste stub, the local-command caveat, a
 * command record, a slash-command heading, or a bare interrupt marker.
 */
export function isMetaPrompt(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === '') return true;
  if (trimmed.startsWith('<') && trimmed.endsWith('>')) return true;
  if (isBareSlashCommand(trimmed)) return true;
  if (trimmed.startsWith('[Pasted text') || trimmed.startsWith('Caveat:')) return true;
  const head = trimmed.slice(0, 200);
  if (head.includes('<command-message>') || head.includes('<command-name>')) return true;
  if (trimmed.startsWith('# /')) return true;
  const { interrupted, rest } = stripInterruptMarker(trimmed);
  return interrupted && rest.trim() === '';
}

/**
 * `/clear`, `/model opus now`: a command name and at most two arguments. A prompt that opens with a
 * path (`/src/app/page.tsx 加载太慢`, `/app/settings is broken`) is a request about that path: a
 * command's name has no second slash.
 */
function isBareSlashCommand(trimmed: string): boolean {
  if (!trimmed.startsWith('/')) return false;
  const words = trimmed.split(/\s+/);
  return words.length <= 3 && !(words[0] ?? '').includes('/', 1);
}

export { isReplayPrompt };

/** A user turn that carries a real prompt (interrupt marker removed, trimmed). */
export interface UserPrompt {
  /** Index into `session.turns`. */
  index: number;
  text: string;
}

/** The user turns that are prompts, in session order. Tool-result-only turns have no text. */
export function userPrompts(turns: readonly HarvestedTurn[]): UserPrompt[] {
  const prompts: UserPrompt[] = [];
  turns.forEach((turn, index) => {
    if (turn.role !== 'user') return;
    const text = stripInterruptMarker(turn.text).rest.trim();
    if (!isMetaPrompt(text)) prompts.push({ index, text });
  });
  return prompts;
}
