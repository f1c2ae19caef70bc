/**
 * Checks a correction names: the user's sentence says a word ("pnpm", "`uv add`", "--run",
 * "StyleSheet.create", "dist/"), and the two answers say which way it goes. A term the corrected
 * answer built with and the rejected one lacked must be there; a term the rejected answer had and the
 * corrected one dropped must not be. Where the answers hold it says how it is judged: in a command run
 * (`runs` / `not_runs`), a path written (`not_edits`), the text written into a file (`writes` /
 * `not_writes`), else as text (`contains`, the word-bounded negative check). A term both or neither
 * have says nothing. No word is known in advance: the candidates are the sentence's own
 * spans, words and word pairs, minus the words this user writes in many prompts ("use", "the",
 * "please": see `commonPromptWords`).
 */
import { NOT_EDITS, NOT_RUNS, NOT_WRITES, RUNS, WRITES } from '../../core/action-checks.js';
import { mentionsWord, negativeWordCheck } from '../../core/negative-check.js';
import { pathMatches } from '../../replay/judges/answer-actions.js';
import type { Check } from '../../core/task.js';
import { simpleCommands } from '../shell-words.js';
import { stopWords } from '../stop-words.js';
import { argumentNames, fileName, workText, type AnswerEvidence } from './evidence.js';
import { fails, passes } from './verdict.js';

export interface LiteralCheck {
  check: Check;
  /** The sentence's words the check is about. */
  term: string;
  sign: 'use' | 'avoid';
  /** The user quoted or backticked the term: an explicit literal. */
  quoted: boolean;
}

/** A word in at least this share of this user's prompts (and in a few of them) is common. */
const COMMON_SHARE = 0.15;
const COMMON_MIN_PROMPTS = 4;
const MAX_GRAM = 3;
const QUOTED_SPAN = /`([^`\n]+)`|"([^"\n]+)"|“([^”\n]+)”|'([^'\n]{2,})'/g;

/**
 * Words this user writes in many prompts, whatever the task ("use", "please"), and function words of
 * any language (see `stop-words.ts`): they never make a check on their own. A word they write about
 * one thing ("pnpm", "dist") can. Prompts are counted once per wording: the same correction repeated
 * in every session is one sentence, not many.
 */
export function commonPromptWords(
  allPrompts: readonly string[],
  commandWords: ReadonlySet<string> = new Set(),
): Set<string> {
  const prompts = [...new Set(allPrompts.map((p) => p.trim().toLowerCase().replace(/\s+/g, ' ')))];
  const df = new Map<string, number>();
  for (const prompt of prompts) {
    for (const word of new Set(wordsOf(prompt))) df.set(word, (df.get(word) ?? 0) + 1);
  }
  const min = Math.max(COMMON_MIN_PROMPTS, COMMON_SHARE * prompts.length);
  const common = new Set(stopWords(commandWords));
  for (const [word, n] of df) if (n >= min) common.add(word);
  return common;
}

function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export interface SentenceTerm {
  text: string;
  /** The user quoted or backticked it: an explicit literal. */
  quoted: boolean;
}

/** The sentence's candidate terms, longest first: quoted spans, then word n-grams (3, 2, 1). */
export function sentenceTerms(sentence: string, common: ReadonlySet<string>): SentenceTerm[] {
  const quotedTerms = new Set<string>();
  const terms: string[] = [];
  for (const match of sentence.matchAll(QUOTED_SPAN)) {
    const span = cleanSpan(match[1] ?? match[2] ?? match[3] ?? match[4] ?? '');
    if (span !== '') {
      terms.push(span, ...spanPrefixes(span));
      quotedTerms.add(span.toLowerCase());
    }
  }
  const tokens = sentence
    .replace(QUOTED_SPAN, ' ')
    .split(/\s+/)
    .map(cleanToken)
    .filter((token) => token !== '');
  const tokenIsCommon = tokens.map((token) => isCommon(token, common));
  for (let n = MAX_GRAM; n >= 1; n--) {
    for (let i = 0; i + n <= tokens.length; i++) {
      if (tokenIsCommon.slice(i, i + n).every(Boolean)) continue;
      terms.push(tokens.slice(i, i + n).join(' '));
    }
  }
  const variants = terms.flatMap((term) => [term, term.replace(/\(\)?:?$/, '')]);
  const seen = new Set<string>();
  return variants
    .filter((term) => term.length >= 2 && !/^\d+$/.test(term) && /[\p{L}]/u.test(term))
    .filter((term) => {
      const key = term.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => b.length - a.length)
    .map((text) => ({ text, quoted: quotedTerms.has(text.toLowerCase()) }));
}

/** `.then`, `--run`, `dist/`, `__init__`, `#fff`: written as code, never a function word. */
const CODE_TOKEN = /^[-.#@]|[._/()#@]/;

function isCommon(token: string, common: ReadonlySet<string>): boolean {
  if (CODE_TOKEN.test(token)) return false;
  const words = wordsOf(token);
  return words.length === 0 || words.every((word) => common.has(word));
}

/** `vitest --run <file>` → `vitest --run`; `feat(billing): ...` → `feat(billing):`. */
function cleanSpan(span: string): string {
  return span
    .replace(/<[^>]*>/g, ' ')
    .replace(/\.\.\.|…/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[,;:!?]+|[,;:!?.]+$/g, '')
    .trim();
}

function spanPrefixes(span: string): string[] {
  const words = span.split(' ');
  return words.length > 2 ? [words.slice(0, 2).join(' ')] : [];
}

/** Outer punctuation goes, except what belongs to a code term: `--run`, `//nolint`, `dist/`, `.env`. */
function cleanToken(token: string): string {
  return token
    .replace(/^[^\p{L}\p{N}\-/.@#_]+/u, '')
    .replace(/[^\p{L}\p{N}/_)]+$/u, '')
    .replace(/\($/, '');
}

/**
 * The checks the sentence's terms give between `rejected` (the answer the user reacted to) and
 * `accepted` (the answer that followed; `acceptedNet` without the commands that only undid the
 * rejected one). `firstAttempt` is the answer a replay starts from: a check it passes teaches nothing.
 *
 * A term counts where the corrected answer redid the work, not where it did something new: in a
 * command it ran, in a file the rejected answer had touched, in a rewritten fenced block. "Also note it in the README" names the README the answer then edits for the first time:
 * that is a new request, not a rule.
 */
export function literalChecks(
  sentence: string,
  common: ReadonlySet<string>,
  answers: {
    firstAttempt: AnswerEvidence;
    rejected: AnswerEvidence;
    accepted: AnswerEvidence;
    acceptedNet: AnswerEvidence;
  },
): LiteralCheck[] {
  const { firstAttempt, rejected, accepted, acceptedNet } = answers;
  const touched = new Set([...rejected.files.keys(), ...firstAttempt.files.keys()]);
  const stepWords = commandWords([...rejected.commands, ...firstAttempt.commands]);
  const firstWork = workText(firstAttempt);
  // A term whose words none of the answers contains cannot give a check: skip it before any regex runs.
  const said = `${firstWork}\n${workText(rejected)}\n${workText(accepted)}`.toLowerCase();
  // The n-grams share their words: each is looked up once.
  const looked = new Map<string, boolean>();
  const inAnswers = (word: string): boolean => {
    let hit = looked.get(word);
    if (hit === undefined) looked.set(word, (hit = said.includes(word)));
    return hit;
  };
  const netWork = workText(acceptedNet);
  const found: LiteralCheck[] = [];
  // Every term needs all its words in the answers: a sentence none of whose words they hold (thanks,
  // a question about something else) gives nothing, without building its n-grams.
  if (!(sentence.toLowerCase().match(WORD) ?? []).some(inAnswers)) return [];
  const terms = sentenceTerms(sentence, common);
  for (const { text: term, quoted } of terms) {
    const words = term.toLowerCase().match(WORD) ?? [];
    if (words.length === 0 || !words.every(inAnswers)) continue;
    if (found.some((f) => mentionsWord(f.term, term))) continue;
    const carriers = carriersOf(term, rejected);
    if (carriers.length === 0 && !mentionsWord(firstWork, term)) {
      const place = redonePlace(term, quoted, accepted, rejected, touched, stepWords);
      if (place === null) continue;
      // What the corrected answer did with the term is judged on its actions; a fenced block is text.
      const op = place === 'command' ? RUNS : place === 'file' ? WRITES : null;
      const check = [...(op === null ? [] : [{ op, arg: term }]), { op: 'contains', arg: term }].find(
        (c) => fails(c, firstAttempt.full) && passes(c, accepted.full),
      );
      if (check !== undefined) found.push({ check, term, sign: 'use', quoted });
    } else if (carriers.length > 0 && mentionsWord(firstWork, term) && !mentionsWord(netWork, term)) {
      if (!carriers.some((carrier) => reworked(carrier, accepted))) continue;
      // What the rejected answer did with the term, judged on its actions; else the text check.
      const candidates: Array<{ check: Check; accepted: string }> = [
        ...avoidedActions(term, carriers).map((op) => ({
          check: { op, arg: term },
          accepted: acceptedNet.full,
        })),
        { check: negativeWordCheck(term), accepted: netWork },
      ];
      const kept = candidates.find((c) => fails(c.check, firstAttempt.full) && passes(c.check, c.accepted));
      if (kept !== undefined) found.push({ check: kept.check, term, sign: 'avoid', quoted });
    }
  }
  // "ok now run the tests" after `vitest run <file>` and then `pnpm test`: the sentence asks for the
  // word it would forbid. A plain word is forbidden only when it is quoted or written as code, or the
  // sentence also names what the corrected answer used instead.
  const bare = (f: LiteralCheck): boolean => f.sign === 'avoid' && !f.quoted && isPlainWord(f.term);
  if (!found.some(bare)) return found;
  // "run tests via make test, not go test" after `go test -run X`: the bare "run" says nothing the
  // longer term does not, and forbids the user's own verb. A bare word only says what no other term
  // of the sentence already holds in the rejected answer.
  const held = new Set(
    found
      .filter((f) => f.sign === 'avoid' && !bare(f))
      .flatMap((f) => carriersOf(f.term, rejected).map(carrierKey)),
  );
  // "Run `make test` instead" after `go test -run X`: the prose word is in the command only as part
  // of a flag. A bare word must be a word of the command (its program or an argument).
  const redundant = (f: LiteralCheck): boolean =>
    bare(f) &&
    carriersOf(f.term, rejected).every(
      (c) => held.has(carrierKey(c)) || (c.kind === 'command' && !shellWordOf(c.line, f.term)),
    );
  const kept = found.filter((f) => !redundant(f));
  if (!kept.some(bare) || kept.some((f) => f.sign === 'use')) return kept;
  const acceptedWork = workText(accepted);
  const replaced = terms.some(
    ({ text }) => !kept.some((f) => mentionsWord(text, f.term)) && mentionsWord(acceptedWork, text),
  );
  return replaced ? kept : kept.filter((f) => !bare(f));
}

/** The command line has `word` as its program or one of its arguments (not inside a flag). */
function shellWordOf(line: string, word: string): boolean {
  const lower = word.toLowerCase();
  return simpleCommands(line).some(
    ({ program, args }) => program.toLowerCase() === lower || args.some((a) => a.toLowerCase() === lower),
  );
}

function carrierKey(carrier: Carrier): string {
  return carrier.kind === 'command'
    ? `c:${carrier.line}`
    : carrier.kind === 'file'
      ? `f:${carrier.path}`
      : 'b';
}

/** One word written as prose (not `--run`, `dist/`, `.then`). */
function isPlainWord(term: string): boolean {
  return !CODE_TOKEN.test(term) && (term.match(WORD) ?? []).length === 1;
}

const WORD = /[\p{L}\p{N}_]+/gu;

type Carrier =
  | { kind: 'command'; line: string }
  | { kind: 'file'; name: string; path: string; text: string }
  | { kind: 'block' };

/** Where the rejected answer says the term. */
function carriersOf(term: string, e: AnswerEvidence): Carrier[] {
  const found: Carrier[] = [];
  for (const line of e.commands) if (mentionsWord(line, term)) found.push({ kind: 'command', line });
  for (const [name, file] of e.files) {
    if (mentionsWord(`${file.path}\n${file.text}`, term))
      found.push({ kind: 'file', name, path: file.path, text: file.text });
  }
  if (e.blocks.some((block) => mentionsWord(block, term))) found.push({ kind: 'block' });
  return found;
}

/** The subcommand words and arguments of commands (not programs, not flags). */
function commandWords(lines: readonly string[]): Set<string> {
  const words = new Set<string>();
  for (const line of lines) {
    for (const { args } of simpleCommands(line))
      for (const arg of args) if (!arg.startsWith('-')) words.add(arg);
  }
  return words;
}

/**
 * Where the corrected answer says the term, redoing the rejected one's work: in a command that
 * repeats a step of the rejected answer (`go test` → `make test`, `npm install x` → `pnpm add x`: a
 * subcommand word or an argument in common; a new step such as `git push` is a new request), in a
 * file the rejected answer had touched, or in a rewritten fenced block. There, a quoted term may be on
 * any new line ("always include `Refs: #`" adds a footer); a bare word must be on a revised line, not
 * in a freshly worded body. Null when it says it nowhere of these.
 */
function redonePlace(
  term: string,
  quoted: boolean,
  accepted: AnswerEvidence,
  rejected: AnswerEvidence,
  touched: ReadonlySet<string>,
  stepWords: ReadonlySet<string>,
): 'command' | 'file' | 'block' | null {
  const redoes = (i: number): boolean =>
    [...commandWords([accepted.commands[i] ?? ''])].some((w) => stepWords.has(w));
  if (accepted.built.some((line, i) => mentionsWord(line, term) && redoes(i))) return 'command';
  for (const [name, file] of accepted.files) {
    if (touched.has(name) && mentionsWord(file.text, term)) return 'file';
  }
  if (rejected.blocks.length === 0) return null;
  const inBlock = quoted
    ? accepted.blocks.some((block) => mentionsWord(block, term))
    : revisedBlockLines(rejected.blocks, accepted.blocks).some((line) => mentionsWord(line, term));
  return inBlock ? 'block' : null;
}

/**
 * The negative action ops for a term the rejected answer acted with, most specific first: a path it
 * wrote (`not_edits`: `sed -n 1,40p dist/x` beside the edit of `dist/x` only read it), a command it
 * ran (`not_runs`), the text it wrote into a file (`not_writes`). None when a fenced block says it: the
 * answer's text is then what the user corrected, and the text check stays.
 */
function avoidedActions(term: string, carriers: readonly Carrier[]): string[] {
  if (carriers.some((c) => c.kind === 'block')) return [];
  const files = carriers.flatMap((c) => (c.kind === 'file' ? [c] : []));
  return [
    ...(files.some((c) => pathMatches(c.path, term)) ? [NOT_EDITS] : []),
    ...(carriers.some((c) => c.kind === 'command') ? [NOT_RUNS] : []),
    ...(files.some((c) => mentionsWord(c.text, term)) ? [NOT_WRITES] : []),
  ];
}

/**
 * Lines of the new fenced blocks that revise a line of the old ones (shared start or end): the
 * subject of a rewritten commit message, not its freshly worded body.
 */
function revisedBlockLines(oldBlocks: readonly string[], newBlocks: readonly string[]): string[] {
  const oldLines = new Set(
    oldBlocks
      .flatMap((b) => b.split('\n'))
      .map((l) => l.trim())
      .filter((l) => l !== ''),
  );
  const revised: string[] = [];
  for (const line of newBlocks.flatMap((b) => b.split('\n')).map((l) => l.trim())) {
    if (line === '' || oldLines.has(line)) continue;
    const lower = line.toLowerCase();
    const partner = [...oldLines].some((old) => {
      const o = old.toLowerCase();
      let head = 0;
      while (head < o.length && head < lower.length && o[head] === lower[head]) head += 1;
      let tail = 0;
      while (
        tail < o.length - head &&
        tail < lower.length - head &&
        o[o.length - 1 - tail] === lower[lower.length - 1 - tail]
      )
        tail += 1;
      return head + tail >= Math.min(o.length, lower.length) / 2;
    });
    if (partner) revised.push(line);
  }
  return revised;
}

function stepWords(lines: readonly string[]): Set<string> {
  const words = new Set<string>();
  for (const line of lines) {
    for (const { args } of simpleCommands(line))
      for (const arg of args) if (!arg.startsWith('-')) words.add(fileName(arg));
  }
  return words;
}

/**
 * The corrected answer went back over the rejected one's command (ran its program again, or on one
 * of its arguments), file (edited it again, or named it in a command: `git checkout -- it`) or text.
 */
function reworked(carrier: Carrier, accepted: AnswerEvidence): boolean {
  switch (carrier.kind) {
    case 'command': {
      // Any word but a flag: `npm run test` → `pnpm test` and `npx tsc` → `pnpm exec tsc` are the
      // same step run another way.
      const before = stepWords([carrier.line]);
      const now = stepWords(accepted.commands);
      const programs = new Set(
        accepted.commands.flatMap((line) => simpleCommands(line).map((c) => c.program)),
      );
      return (
        [...before].some((arg) => now.has(arg)) ||
        simpleCommands(carrier.line).some((c) => programs.has(c.program))
      );
    }
    case 'file':
      return (
        accepted.files.has(carrier.name) ||
        accepted.commands.some((line) =>
          simpleCommands(line).some(({ args }) => args.some((arg) => argumentNames(arg, carrier.path))),
        )
      );
    case 'block':
      return accepted.blocks.length > 0;
    default:
      return false;
  }
}
