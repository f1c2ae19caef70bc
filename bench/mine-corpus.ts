/**
 * An in-memory corpus for the mining benchmark: sessions of one project whose first prompts are
 * paraphrases of 60 known recurring task types (Zipf-like frequencies) or one-off requests (8%), and
 * whose replies carry the agent's tool actions (bench/mine-work.ts: the commands it ran and the files
 * it read, wrote and edited, with their text). About 30% of the sessions whose kind of work has a
 * project convention to get wrong carry a user correction of one (10% of those two): the replies
 * before it make the mistake, the reply to it redoes the affected steps the right way. The truth
 * comes along.
 *
 * Noise on the first prompt: instance details (package, file, function, table, column, version;
 * names backticked or not, and the same names in the actions), a greeting or lead-in (30%), a
 * sign-off or hedge (25%), a context sentence shared with every other kind of request (10%,
 * punctuated or not), a typo (8%), upper or capitalised case. Some sessions open with a preamble
 * ("read AGENTS.md first", 4%) or a bare greeting (2%) before the request. Follow-ups without a
 * correction include ones that look like corrections ("don't worry about the docs", "no, I meant
 * {file}", "that's not right, try again" with a redone edit) and must give no check; a few
 * corrections are phrased in ways a plain reader is not expected to understand, so recall stays
 * honest. Without a correction the agent still gets a convention wrong now and then (20% per
 * convention its work touches).
 */
import type { HarvestedTurn, ToolAction } from '../src/core/session.js';
import type { MinerSession } from '../src/miner/types.js';
import { evaluateCheck } from '../src/replay/judges/rule-checks.js';
import { Rng } from './corpus/rng.js';
import { CORRECTIONS, correctionsFor, type CheckMatcher, type CorrectionKind } from './mine-corrections.js';
import { FOLLOW_UPS, THANKS } from './mine-follow-ups.js';
import { TYPE_WORK } from './mine-type-work.js';
import { PROJECT, Reply, WORDS, newState, oneOffWork, type WorkState } from './mine-work.js';
import { TASK_TYPES } from './mine-task-types.js';

export { PROJECT };
const T_END = Date.UTC(2026, 9, 1);
const SPAN_MS = 90 * 86_400_000;
/** Without a correction, the chance that the agent gets one convention its work touches wrong anyway. */
const UNCORRECTED_MISTAKE = 0.2;

// prettier-ignore
const PREFIXES = ['hey, ', 'please ', 'can you ', 'could you please ', 'ok, ', 'quick one: ', 'next: ', 'hi! ', 'alright, ', 'one more thing: ', 'so, '];
// prettier-ignore
const SUFFIXES = [' please', ' thanks', ', thx', ' when you get a chance', ' asap', ', should be quick', ', thanks!', ' real quick', ' (low priority)', ' for me'];
// prettier-ignore
const CONTEXT_SENTENCES = [
  ' CI is red since yesterday.', ' I think it is in the api folder.', ' Keep it minimal.', ' The release is tomorrow.',
  ' Same as we did last week.', ' Ping me when done.', ' The demo is on Friday.', ' Sarah asked for it.',
  ' Do not touch the billing code.', ' We discussed it in standup.', ' It blocks the mobile team.', ' See the ticket for details.',
  ' Be careful with the old clients.', ' No need to update the docs.', ' The customer is waiting on this.', ' Try to keep the diff small.',
];

// prettier-ignore
const CORRECTION_WRAPS = ['{c}', 'no, {c}', 'hmm, {c}', '{c} please', 'Looks mostly fine. {c}. Then rerun the checks.', 'wait: {c}'];

// prettier-ignore
const ONE_OFF = {
  verb: ['prototype', 'benchmark', 'sketch', 'audit', 'evaluate', 'visualize', 'archive', 'anonymize', 'dedupe', 'reconcile', 'throttle', 'shard', 'backfill', 'mirror', 'federate', 'chart', 'forecast', 'sandbox', 'summarize', 'compare', 'estimate', 'trace', 'diagram', 'outline'],
  adjective: ['weekly', 'nightly', 'legacy', 'experimental', 'internal', 'regional', 'quarterly', 'archived', 'partner', 'mobile', 'offline', 'historical', 'seasonal', 'draft', 'shared', 'pending', 'expired', 'premium', 'trial', 'bulk', 'signed', 'cached', 'orphaned', 'stale'],
  noun: ['heatmap', 'ledger', 'webhook', 'leaderboard', 'sitemap', 'tracer', 'inventory', 'coupon', 'playlist', 'calendar', 'geocoder', 'watermark', 'captcha', 'avatar', 'receipt', 'voucher', 'glossary', 'changeset', 'refund', 'shipment', 'warehouse', 'survey', 'badge', 'quota', 'snapshot', 'timeline', 'digest', 'referral', 'license', 'kiosk'],
  link: ['for', 'in', 'from', 'behind', 'next to', 'across'],
} as const;

// prettier-ignore
const PREAMBLES = ['read AGENTS.md first', 'load the project context', 'please read the README before we start'];
// prettier-ignore
const GREETINGS = ['hi', 'hello!', 'morning'];

export interface PlantedCorrection {
  kind: string;
  text: string;
  /** What the miner should make of it in this session (see `CheckMatcher`). */
  expected: readonly CheckMatcher[];
  /** Checks that state the same rule in other words: neither required nor wrong. */
  allowed: readonly CheckMatcher[];
}

export interface Corpus {
  sessions: MinerSession[];
  /** Session key → task type id, or `one-off:<key>`. */
  truth: Map<string, string>;
  /** Session key → the corrections planted in it (absent: none). */
  planted: Map<string, PlantedCorrection[]>;
}

export interface CorpusOptions {
  sessions: number;
  seed: number;
  /** Share of sessions that are one-off requests. */
  oneOffShare?: number;
  /** Share of the sessions whose kind has a convention to get wrong that carry a correction. */
  correctionShare?: number;
}

export function generateCorpus(opts: CorpusOptions): Corpus {
  const rng = new Rng(opts.seed);
  const typeWeights = TASK_TYPES.map((type, rank) => [type, 1 / Math.pow(rank + 1, 0.7)] as const);
  for (const type of TASK_TYPES)
    if (TYPE_WORK[type.id] === undefined) throw new Error(`no work for ${type.id}`);
  const sessions: MinerSession[] = [];
  const truth = new Map<string, string>();
  const planted = new Map<string, PlantedCorrection[]>();
  for (let i = 0; i < opts.sessions; i++) {
    const key = `bench:${opts.seed}:${i}`;
    const oneOff = rng.chance(opts.oneOffShare ?? 0.08);
    const type = rng.weighted(typeWeights);
    const slots: Record<string, string> = {};
    const words: string[] = [];
    const intent = oneOff ? oneOffIntent(rng, words) : noisy(rng, fill(rng, rng.pick(type.templates), slots));
    truth.set(key, oneOff ? `one-off:${key}` : type.id);
    const candidates = oneOff ? [] : correctionsFor(type.id);
    const kinds =
      candidates.length > 0 && rng.chance(opts.correctionShare ?? 0.3)
        ? pickCorrections(rng, candidates)
        : [];
    const texts = kinds.map((kind) => correctionText(rng, kind));
    const st = newState(rng, slots);
    st.mistakes = mistakesOf(rng, oneOff ? [] : (TYPE_WORK[type.id]?.mistakes ?? []), kinds);
    const made = makeSession(rng, key, st, intent, kinds, texts, (r) =>
      oneOff ? oneOffWork(r, words) : TYPE_WORK[type.id]?.work(r),
    );
    if (made.planted.length > 0) planted.set(key, made.planted);
    sessions.push(made.session);
  }
  return { sessions, truth, planted };
}

/** Picks one alternative of every `(a|b|)` group, then fills the `{slot}`s (recorded in `slots`). */
function fill(rng: Rng, template: string, slots: Record<string, string> = {}): string {
  return template
    .replace(/\(([^()]*)\)/g, (_, options: string) => rng.pick(options.split('|')))
    .replace(/\{(\w+)\}/g, (_, slot: string) => {
      const value = slotValue(rng, slot);
      slots[slot] ??= value.replace(/^`|`$/g, '');
      return value;
    })
    .replace(/ {2,}/g, ' ')
    .trim();
}

function slotValue(rng: Rng, slot: string): string {
  const quote = (value: string, p: number): string => (rng.chance(p) ? `\`${value}\`` : value);
  switch (slot) {
    case 'pkg':
      return quote(rng.pick(WORDS.pkg), 0.7);
    case 'file':
      return quote(
        `${rng.pick(WORDS.dir)}/${rng.pick(WORDS.noun)}.${rng.pick(['ts', 'ts', 'tsx', 'js'])}`,
        0.5,
      );
    case 'test':
      return quote(`${rng.pick(WORDS.dir)}/${rng.pick(WORDS.noun)}.test.ts`, 0.5);
    case 'fn':
    case 'fn2':
      return quote(`${rng.pick(WORDS.verb)}${capitalize(rng.pick(WORDS.noun))}`, 0.6);
    case 'route':
      return `/${rng.pick(WORDS.table)}${rng.chance(0.4) ? '/:id' : ''}`;
    case 'ver':
      return `${rng.int(1, 9)}.${rng.int(0, 20)}.${rng.int(0, 9)}`;
    case 'num':
      return String(rng.int(2, 200));
    case 'sha':
      return rng.hex(rng.int(7, 12));
    case 'dir':
      return quote(`${rng.pick(['coverage', 'dist', 'tmp', '.cache', 'build', 'logs'])}/`, 0.5);
    case 'comp':
    case 'flag':
    case 'error':
      return quote(rng.pick(WORDS[slot]), slot === 'error' ? 0.3 : 0.7);
    case 'env':
    case 'col':
    case 'table':
    case 'method':
    case 'branch':
      return quote(rng.pick(WORDS[slot]), 0.4);
    default:
      throw new Error(`unknown slot ${slot}`);
  }
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** Politeness, extra words, case, end punctuation, context and the odd typo. */
function noisy(rng: Rng, text: string): string {
  let out = text;
  if (rng.chance(0.3)) out = rng.pick(PREFIXES) + out;
  if (rng.chance(0.25)) out += rng.pick(SUFFIXES);
  out += rng.pick(['', '', '.', '!', '?']);
  if (rng.chance(0.1)) out += rng.pick(CONTEXT_SENTENCES);
  if (rng.chance(0.08)) out = typo(rng, out);
  const caseStyle = rng.next();
  if (caseStyle < 0.35) out = capitalize(out);
  else if (caseStyle < 0.4) out = out.toUpperCase();
  return out;
}

/** Swaps two letters of, or drops one from, a word of five or more letters outside code spans. */
function typo(rng: Rng, text: string): string {
  const words = text.split(' ');
  const candidates = words.map((w, i) => [w, i] as const).filter(([w]) => /^[a-z]{5,}$/.test(w));
  if (candidates.length === 0) return text;
  const [word, index] = rng.pick(candidates);
  const at = rng.int(1, word.length - 2);
  words[index] = rng.chance(0.5)
    ? word.slice(0, at) + (word[at + 1] ?? '') + (word[at] ?? '') + word.slice(at + 2)
    : word.slice(0, at) + word.slice(at + 1);
  return words.join(' ');
}

/** A one-off request; `words` gets its nouns (the reply names its new file after them). */
function oneOffIntent(rng: Rng, words: string[]): string {
  const { verb, adjective, noun, link } = ONE_OFF;
  const [n1, n2, n3] = [rng.pick(noun), rng.pick(noun), rng.pick(noun)];
  words.push(n1, n3);
  const phrase = `${rng.pick(verb)} the ${rng.pick(adjective)} ${n1} ${rng.pick(link)} the ${rng.pick(adjective)} ${n2} ${n3}`;
  return noisy(rng, phrase);
}

/** One correction, or (10%) two that can hold together (a lockfile rule needs pnpm to be right). */
function pickCorrections(rng: Rng, candidates: readonly CorrectionKind[]): CorrectionKind[] {
  const first = rng.pick(candidates);
  const kinds = [first];
  if (rng.chance(0.1)) {
    const second = rng.pick(candidates);
    const clash = (a: CorrectionKind, b: CorrectionKind): boolean => (a.requires ?? []).includes(b.id);
    if (second !== first && !clash(first, second) && !clash(second, first)) kinds.push(second);
  }
  return kinds;
}

function correctionText(rng: Rng, kind: CorrectionKind): string {
  const phrasing =
    kind.hard !== undefined && rng.chance(0.08) ? rng.pick(kind.hard) : rng.pick(kind.phrasings);
  return rng.pick(CORRECTION_WRAPS).replace('{c}', phrasing);
}

/**
 * What a correction means for this session: the matchers its first answer shows (an exact check it
 * fails, or the mistake's pattern); null when it shows none (the reply never got to that step, so
 * the correction is not planted).
 */
function plantCorrection(kind: CorrectionKind, text: string, firstAnswer: string): PlantedCorrection | null {
  const expected = kind.expected.filter((m) =>
    m.check !== undefined
      ? !evaluateCheck(m.check, firstAnswer, []).pass
      : (m.shows?.test(firstAnswer) ?? false),
  );
  return expected.length === 0 ? null : { kind: kind.id, text, expected, allowed: kind.allowed ?? [] };
}

/** A reply as a replay answer: the prose, `$ command` per command, the path and text per file written. */
function answerText(reply: Reply): string {
  const parts = [...reply.text];
  for (const a of reply.actions) {
    if (a.kind === 'run') parts.push(`$ ${a.target}`);
    else if (a.kind === 'write' || a.kind === 'edit') parts.push(`--- ${a.target}\n${a.added}`);
  }
  return parts.join('\n');
}

/** The planted corrections' mistakes, and now and then another one the user lets pass. */
function mistakesOf(rng: Rng, possible: readonly string[], planted: readonly CorrectionKind[]): Set<string> {
  const mistakes = new Set(planted.map((k) => k.id));
  for (const id of possible) if (!mistakes.has(id) && rng.chance(UNCORRECTED_MISTAKE)) mistakes.add(id);
  // A mistake that needs another convention right (the pnpm lockfile) is not made when that one is wrong.
  const byId = new Map(CORRECTIONS.map((c) => [c.id, c]));
  const required = new Set(planted.flatMap((k) => k.requires ?? []));
  for (const id of required) mistakes.delete(id);
  for (const id of [...mistakes]) {
    if ((byId.get(id)?.requires ?? []).some((r) => mistakes.has(r))) mistakes.delete(id);
  }
  return mistakes;
}

type Prompt =
  | { kind: 'request' | 'opener' | 'thanks'; text: string }
  | { kind: 'follow-up'; text: string; slots: Record<string, string>; index: number }
  | { kind: 'correction'; text: string; correction: CorrectionKind };

/**
 * The session: an opener now and then, the request, follow-ups with the corrections among them, and
 * thanks; each prompt answered by the agent. A correction is planted only when the request's reply
 * shows its mistake.
 */
function makeSession(
  rng: Rng,
  key: string,
  st: WorkState,
  intent: string,
  kinds: readonly CorrectionKind[],
  texts: readonly string[],
  work: (r: Reply) => void,
): { session: MinerSession; planted: PlantedCorrection[] } {
  const start = T_END - Math.floor(rng.next() * SPAN_MS);
  const turns: HarvestedTurn[] = [];
  const tools = new Set<string>();
  const files = new Set<string>();
  let ts = start;
  const answer = (prompt: Prompt): Reply => {
    turns.push(turn(turns.length, 'user', prompt.text, ts, []));
    const reply = new Reply(st);
    switch (prompt.kind) {
      case 'request':
        work(reply);
        break;
      case 'opener':
        if (prompt.text.includes('AGENTS') || prompt.text.includes('README'))
          reply.read(prompt.text.includes('README') ? 'README.md' : 'AGENTS.md');
        reply.say(rng.pick(['Got it.', 'Ready. What should I work on?', 'Hi! What can I do for you?']));
        break;
      case 'follow-up':
        FOLLOW_UPS[prompt.index]?.work(reply, prompt.slots);
        break;
      case 'correction':
        st.mistakes.delete(prompt.correction.id);
        prompt.correction.redo(reply);
        break;
      case 'thanks':
        if (rng.chance(0.5)) reply.say(rng.pick(['Glad it works.', 'You are welcome!']));
        break;
    }
    // A reply is one to three assistant turns (tool rounds); the prose comes with the last one.
    const rounds = splitRounds(rng, reply.actions);
    rounds.forEach((actions, i) => {
      ts += 5_000 + Math.floor(rng.next() * 20_000);
      const text = i === rounds.length - 1 ? reply.text.join('\n') : '';
      turns.push(turn(turns.length, 'assistant', text, ts, actions));
      for (const action of actions) {
        tools.add(action.tool);
        if (action.kind === 'write' || action.kind === 'edit') files.add(action.target);
      }
    });
    st.done.push(...reply.actions);
    st.prose.push(reply.text.join('\n'));
    ts += 30_000 + Math.floor(rng.next() * 120_000);
    return reply;
  };

  const opener = rng.next();
  if (opener < 0.04) answer({ kind: 'opener', text: rng.pick(PREAMBLES) });
  else if (opener < 0.06) answer({ kind: 'opener', text: rng.pick(GREETINGS) });
  const first = answerText(answer({ kind: 'request', text: intent }));
  const planted: PlantedCorrection[] = [];
  const later: Prompt[] = [];
  const followUps = rng.skewed(0, 3, 2);
  for (let i = 0; i < followUps; i++) {
    const index = rng.int(0, FOLLOW_UPS.length - 1);
    const slots: Record<string, string> = {};
    later.push({ kind: 'follow-up', text: fill(rng, FOLLOW_UPS[index]?.text ?? '', slots), slots, index });
  }
  kinds.forEach((kind, i) => {
    const text = texts[i] ?? '';
    const correction = plantCorrection(kind, text, first);
    if (correction === null) return;
    planted.push(correction);
    later.splice(rng.int(0, later.length), 0, { kind: 'correction', text, correction: kind });
  });
  if (rng.chance(0.5)) later.push({ kind: 'thanks', text: rng.pick(THANKS) });
  for (const prompt of later) answer(prompt);
  const session: MinerSession = {
    source: 'claude',
    sessionId: key,
    cwd: PROJECT,
    branch: 'main',
    model: 'claude-sonnet-4-5',
    startedAt: start,
    endedAt: ts,
    turns,
    toolsUsed: [...tools],
    skillsUsed: [],
    filesTouched: [...files],
    sourcePath: `/bench/${key}.jsonl`,
    sourceVersion: '2.1.0',
    key,
    projectRoot: PROJECT,
  };
  return { session, planted };
}

function splitRounds(rng: Rng, actions: readonly ToolAction[]): ToolAction[][] {
  if (actions.length <= 1) return [[...actions]];
  const rounds = Math.min(actions.length, rng.int(1, 3));
  const out: ToolAction[][] = [];
  const size = Math.ceil(actions.length / rounds);
  for (let i = 0; i < actions.length; i += size) out.push(actions.slice(i, i + size));
  return out;
}

function turn(
  seq: number,
  role: 'user' | 'assistant',
  text: string,
  ts: number,
  actions: readonly ToolAction[],
): HarvestedTurn {
  return {
    seq,
    role,
    text,
    ts,
    toolNames: actions.map((a) => a.tool),
    actions: [...actions],
    toolErrors: 0,
    interrupted: false,
    offset: 0,
  };
}
