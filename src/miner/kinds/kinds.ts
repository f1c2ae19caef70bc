/**
 * Task kinds: sessions that ask for the same kind of work, whatever the file, package or feature.
 * Each session becomes two weighted vectors over this project's own statistics (see `vectors.ts`):
 * its request's words with the instance details masked (`request-tokens.ts`), and what the agent did
 * for it (`action-features.ts`: the request's reply in full, later replies at half weight). Average
 * linkage over both views groups them (`agglomerate.ts`); a group of one is a one-off. Each partition
 * (project) is read on its own: its idf, topic and function words and routine commands are its own.
 */
import type { ToolAction } from '../../core/session.js';
import { addActionFeatures, newSink } from './action-features.js';
import { agglomerate, type AgglomerateOptions } from './agglomerate.js';
import { kindLabels } from './label.js';
import { plainWords, requestTerms, requestWordKeys, type TermRole } from './request-tokens.js';
import { topicWords } from './topic-words.js';
import { commandMarks } from './command-marks.js';
import { weightedVectors, type Vector } from './vectors.js';
import { stopWords } from '../stop-words.js';
import { simpleCommands } from '../shell-words.js';

const LATER_WEIGHT = 0.5;
/**
 * A word the agent also used as a command argument or file name is the request's object; that the
 * request named one says little about which kind of work it is.
 */
const ROLE_WEIGHTS: Record<TermRole, number> = {
  word: 1,
  part: 1,
  placeholder: 1,
  detail: 0.3,
  // Function words link paraphrases ("we need it for …", "use it for …") but never make a kind.
  stop: 1,
  topic: 1,
};

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
  // Each project is read with its own statistics: how often a word or a command occurs in another
  // project says nothing about what is rare, routine or a topic in this one.
  const byPartition = new Map<string, number[]>();
  inputs.forEach((input, i) => {
    const indices = byPartition.get(input.partition);
    if (indices === undefined) byPartition.set(input.partition, [i]);
    else indices.push(i);
  });
  if (byPartition.size <= 1) return groupPartition(inputs, options);
  const out: Array<{ group: number[]; label: string }> = [];
  for (const indices of byPartition.values()) {
    const local = groupPartition(
      indices.map((i) => inputs[i] as KindInput),
      options,
    );
    local.groups.forEach((group, g) =>
      out.push({ group: group.map((l) => indices[l] as number), label: local.labels[g] ?? 'task' }),
    );
  }
  out.sort((a, b) => (a.group[0] ?? 0) - (b.group[0] ?? 0));
  return { groups: out.map((o) => o.group), labels: out.map((o) => o.label) };
}

/** The kinds of one partition's sessions. */
function groupPartition(
  inputs: readonly KindInput[],
  options: Partial<AgglomerateOptions> & { laterWeight?: number },
): KindGroups {
  const { text, action, details, stop, marks, topics } = kindVectors(
    inputs,
    options.laterWeight ?? LATER_WEIGHT,
  );
  const groups = agglomerate(
    text,
    action,
    inputs.map((input) => input.partition),
    options,
    marks,
  );
  const labels = kindLabels(groups, {
    requests: inputs.map((input) => input.request),
    details,
    topics: inputs.map((input) => topics.get(input.partition) ?? new Set<string>()),
    stop,
    commands: inputs.map((input) => mainCommand(input.requestActions)),
  });
  return { groups, labels };
}

export interface KindVectors {
  text: Vector[];
  action: Vector[];
  /** Feature names by id, per view. */
  names: { text: string[]; action: string[] };
  details: Array<Set<string>>;
  stop: ReadonlySet<string>;
  /** Per partition, the words that name the project's things (`topic-words.ts`). */
  topics: Map<string, Set<string>>;
  /** Per session, what may name its kind (`coherence.ts`), as ids into `markNames`. */
  marks: number[][];
  markNames: string[];
}

/** Each session's two views (exported for diagnostics and tests). */
export function kindVectors(inputs: readonly KindInput[], laterWeight = LATER_WEIGHT): KindVectors {
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
  const topics = topicWords(
    inputs.map((input, i) => ({
      words: requestWordKeys(input.request),
      names: sinks[i]?.names ?? new Set<string>(),
      partition: input.partition,
    })),
  );
  const markIds = new Map<string, number>();
  const markId = (key: string): number => {
    let id = markIds.get(key);
    if (id === undefined) {
      id = markIds.size;
      markIds.set(key, id);
    }
    return id;
  };
  const marks: number[][] = [];
  const commands = commandMarks(
    inputs,
    sinks.map((sink) => sink.features),
  );
  inputs.forEach((input, i) => {
    const sink = sinks[i] ?? newSink();
    const text = new Map<string, number>();
    const own: number[] = [];
    const terms = requestTerms(input.request, {
      details: sink.details,
      stop,
      topics: topics.get(input.partition) ?? new Set(),
    });
    for (const [position, { token, role }] of terms.entries()) {
      const weight = ROLE_WEIGHTS[role] * positionWeight(position);
      if ((text.get(token) ?? 0) < weight) text.set(token, weight);
      if (role === 'word' || role === 'part') own.push(markId(`t:${token}`));
    }
    for (const command of commands[i] ?? []) own.push(markId(command));
    marks.push(own);
    textLists.push(text);
    actionLists.push(sink.features);
    details.push(sink.details);
  });
  const text = weightedVectors(textLists);
  const action = weightedVectors(actionLists, { floorAtMedianNorm: true });
  return {
    text: text.vectors,
    action: action.vectors,
    names: { text: text.vocabulary.names, action: action.vocabulary.names },
    details,
    stop,
    topics,
    marks,
    markNames: [...markIds.keys()],
  };
}

/** A request says what it asks in its first words; a long pasted prompt's later words are its material. */
const HEAD = 16;
function positionWeight(position: number): number {
  return position < HEAD ? 1 : HEAD / (position + 1);
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
