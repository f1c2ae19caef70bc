/**
 * What the agent did, as features of a session's kind: language-independent, and often a better
 * sign of the kind of task than the request's wording (`git diff --staged` for a commit message, a
 * package manager's `add` and the manifest for a dependency, a write under `migrations/`).
 *
 * - A command gives its program and up to two subcommand words (`c:uv`, `c:uv run`, `c:uv run pytest`)
 *   and each subcommand word alone (`w:pytest`), so `yarn jest` and `npx jest` meet. A word the
 *   request also says is the request's object (`pnpm add msw` for "add msw"), so it ends the chain.
 *   Arguments are instance details.
 * - A file gives the operation, its extension, its folders, its name and the parts of its stem,
 *   relative to the session's folder (`f:write:d:migrations`, `f:read:n:package.json`).
 * - Any other tool gives its name.
 *
 * The names a session's actions use (arguments, file names and stems) are returned as `details`: the
 * same words in the request are masked there (see `request-tokens.ts`).
 */
import type { ToolAction } from '../../core/session.js';
import { boundedMemo } from '../../core/memo.js';
import { PLAIN_WORD, simpleCommands } from '../shell-words.js';
import { identifierParts } from './request-tokens.js';
import { wordForms } from './topic-words.js';

/** Command words after the program that can still be subcommands. */
const MAX_SUBCOMMANDS = 2;
/** Only the last few folders of a path outside the session's folder say anything. */
const OUTSIDE_SEGMENTS = 3;
const FILE_KINDS: ReadonlySet<string> = new Set(['read', 'edit', 'write', 'delete']);

export interface ActionFeatureSink {
  /** feature → weight (the largest weight seen wins). */
  features: Map<string, number>;
  /** Lower-cased names the actions used. */
  details: Set<string>;
  /**
   * The words of every name the actions used or searched for (file names, folders, arguments,
   * patterns), cut like request words: what this session's work was about.
   */
  names: Set<string>;
}

export function newSink(): ActionFeatureSink {
  return { features: new Map(), details: new Set(), names: new Set() };
}

/** A name has no spaces: an argument or pattern that is a sentence (often the request itself) is not one. */
function addNameWords(names: Set<string>, text: string): void {
  if (/\s/.test(text.trim())) return;
  for (const form of nameForms(text)) names.add(form);
}

/** A name's words and their forms (memoised: a project's sessions touch the same files again and again). */
const nameForms = boundedMemo((text: string) => identifierParts(text).flatMap(wordForms), 8192);

/**
 * Adds the features of `actions` with `weight`. `requestWords` are the plain words of the request;
 * `cwd` is the session's folder (paths below it are made relative).
 */
export function addActionFeatures(
  sink: ActionFeatureSink,
  actions: readonly ToolAction[],
  weight: number,
  cwd: string,
  requestWords: ReadonlySet<string>,
): void {
  const put = (feature: string): void => {
    if ((sink.features.get(feature) ?? 0) < weight) sink.features.set(feature, weight);
  };
  for (const action of actions) {
    if (action.kind === 'run') commandFeatures(action.target, requestWords, sink, put);
    else if (FILE_KINDS.has(action.kind) && action.target !== '')
      fileFeatures(action.kind, action.target, cwd, sink, put);
    else if (action.kind === 'search') {
      put('f:search');
      addNameWords(sink.names, action.target);
    } else if (action.tool !== '') put(`t:${action.tool.toLowerCase()}`);
  }
}

function commandFeatures(
  line: string,
  requestWords: ReadonlySet<string>,
  { details, names }: ActionFeatureSink,
  put: (feature: string) => void,
): void {
  for (const { program, args } of simpleCommands(line)) {
    const chain = [program];
    let next = 0;
    while (next < args.length && chain.length <= MAX_SUBCOMMANDS) {
      const word = args[next] ?? '';
      if (!PLAIN_WORD.test(word)) break;
      // The first subcommand always counts ("make test" for "fix the failing test"); later ones
      // that the request names are its object ("pnpm add msw" for "add msw").
      if (chain.length >= 2 && requestWords.has(word)) break;
      chain.push(word);
      next += 1;
    }
    for (let n = 1; n <= chain.length; n++) put(`c:${chain.slice(0, n).join(' ')}`);
    for (const word of chain.slice(1)) put(`w:${word}`);
    for (const arg of args.slice(next)) {
      if (arg.startsWith('-') || arg === '') continue;
      const name = argumentName(arg);
      if (name !== '') details.add(name);
      addNameWords(names, arg);
    }
  }
}

/** `zod@3.2.1` → `zod`; `./src/app.ts` → `app.ts`; quotes and trailing punctuation go. */
function argumentName(arg: string): string {
  const noVersion = arg.length > 1 ? arg.replace(/(.)@[^/@]*$/, '$1') : arg;
  const base = noVersion.slice(Math.max(noVersion.lastIndexOf('/'), noVersion.lastIndexOf('\\')) + 1);
  return (base || noVersion).toLowerCase();
}

/** The path below `cwd`, or the last folders of a path elsewhere; `/` separators, no `.`/`..`. */
export function relativePath(filePath: string, cwd: string): string {
  const normalized = filePath.replace(/\\/g, '/');
  const root = cwd.replace(/\\/g, '/').replace(/\/+$/, '');
  if (root !== '' && normalized.startsWith(`${root}/`)) return normalized.slice(root.length + 1);
  const parts = normalized.split('/').filter((part) => part !== '' && part !== '.' && part !== '..');
  return (
    normalized.startsWith('/') || /^[A-Za-z]:/.test(normalized) ? parts.slice(-OUTSIDE_SEGMENTS) : parts
  ).join('/');
}

/** `migrations/0007_add.up.sql` → stem `0007_add`, extension `.up.sql`. */
export function splitFileName(name: string): { stem: string; ext: string } {
  const dot = name.indexOf('.', 1);
  return dot > 0 ? { stem: name.slice(0, dot), ext: name.slice(dot).toLowerCase() } : { stem: name, ext: '' };
}

function fileFeatures(
  kind: string,
  filePath: string,
  cwd: string,
  { details, names }: ActionFeatureSink,
  put: (feature: string) => void,
): void {
  const parts = relativePath(filePath, cwd).split('/');
  const name = parts.pop() ?? '';
  if (name === '') return;
  const { stem, ext } = splitFileName(name);
  details.add(name.toLowerCase());
  details.add(stem.toLowerCase());
  addNameWords(names, stem);
  for (const folder of parts) addNameWords(names, folder);
  put(`f:${kind}`);
  put(`f:${kind}:x:${ext}`);
  put(`f:${kind}:n:${name.toLowerCase()}`);
  for (const folder of parts) put(`f:${kind}:d:${folder.toLowerCase()}`);
  for (const part of identifierParts(stem)) put(`f:${kind}:p:${part}`);
}
