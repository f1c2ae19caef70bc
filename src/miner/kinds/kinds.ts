/**
 * Task kinds: sessions that ask for the same kind of work, whatever the file, package or feature.
 * Each session becomes two weighted vectors over this project's own statistics (see `vectors.ts`):
 * its request's words with the instance details masked (`request-tokens.ts`), and what the agent did
 * for it (`action-features.ts`: the request's reply in full, later replies at half weight). Average
 * linkage over both views groups them (`agglomerate.ts`); a group of one is a one-off.
 */
import type { ToolAction } from '../../core/session.js';
import { addActionFeatures, newSink } from './action-features.js';
import { agglomerate, type AgglomerateOptions } from './agglomerate.js';
import { kindLabels } from './label.js';
import { plainWords, requestTokens } from './request-tokens.js';
import { weightedVectors } from './vectors.js';
import { stopWords } from '../stop-words.js';
import { simpleCommands } from '../shell-words.js';

const LATER_WEIGHT = 0.5;
/**
 * A word the agent also used as a command argument or file name is the request's object; that the
 * request named one says little about which kind of work it is.
 */
const DETAIL = '<d>';
const DETAIL_WEIGHT = 0.3;

export interface KindInput {
  request: string;
  /** What the agent did in reply to the request. */
  requestActions: readonly ToolAction[];
  /** What it did in reply to the session's later prompts. */
  laterActions: readonly ToolAction[];
  cwd: string;
  /** Sessions only group with sessions of the same partition (their project). */
  partition: string;
}

export interface KindGroups {
  /** Groups of input indices: each ascending, ordered by their first index. */
  groups: number[][];
  /** A readable label per group (unique). */
  labels: string[];
}

export function groupKinds(
  inputs: readonly KindInput[],
  options: Partial<AgglomerateOptions> & { laterWeight?: number } = {},
): KindGroups {
  const laterWeight = options.laterWeight ?? LATER_WEIGHT;
  const textLists: Array<Map<string, number>> = [];
  const actionLists: Array<Map<string, number>> = [];
  const details: Array<Set<string>> = [];
  const sinks = inputs.map((input) => {
    const sink = newSink();
    const words = plainWords(input.request);
    addActionFeatures(sink, input.requestActions, 1, input.cwd, words);
    if (laterWeight > 0) addActionFeatures(sink, input.laterActions, laterWeight, input.cwd, words);
    return sink;
  });
  // Function words stay in the request view (their idf is low, and they do shape a way of asking);
  // they never name a kind.
  const stop = stopWords(featureCommandWords(sinks));
  inputs.forEach((input, i) => {
    const sink = sinks[i] ?? newSink();
    const text = new Map<string, number>();
    for (const token of requestTokens(input.request, sink.details))
      text.set(token, token === DETAIL ? DETAIL_WEIGHT : 1);
    textLists.push(text);
    actionLists.push(sink.features);
    details.push(sink.details);
  });
  const text = weightedVectors(textLists).vectors;
  const action = weightedVectors(actionLists, { floorAtMedianNorm: true }).vectors;
  const groups = agglomerate(
    text,
    action,
    inputs.map((input) => input.partition),
    options,
  );
  const labels = kindLabels(groups, {
    requests: inputs.map((input) => input.request),
    details,
    stop,
    commands: inputs.map((input) => mainCommand(input.requestActions)),
  });
  return { groups, labels };
}

/** The programs and subcommand words the project's commands use (from `c:` features). */
function featureCommandWords(sinks: ReadonlyArray<{ features: ReadonlyMap<string, number> }>): Set<string> {
  const words = new Set<string>();
  for (const sink of sinks) {
    for (const feature of sink.features.keys()) {
      if (feature.startsWith('c:')) for (const word of feature.slice(2).split(' ')) words.add(word);
    }
  }
  return words;
}

/** The first command's program and subcommand (`git diff`), or ''. */
function mainCommand(actions: readonly ToolAction[]): string {
  for (const action of actions) {
    if (action.kind !== 'run') continue;
    const [first] = simpleCommands(action.target);
    if (first === undefined) continue;
    const sub = first.args[0];
    return sub !== undefined && /^[a-z][a-z0-9_-]*$/.test(sub) ? `${first.program} ${sub}` : first.program;
  }
  return '';
}
