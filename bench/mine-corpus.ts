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
import type { HarvestedTurn, ToolAction } from '../harvesters/types.js';
import type { MinerSession } from '../src/miner/types.js';
import { evaluateCheck } from '../src/replay/judges/rule-checks.js';
import { Rng } from './corpus/rng.js';
import { CORRECTIONS, correctionsFor, type CheckMatcher, type CorrectionKind } from './mine-corrections.js';
import { FOLLOW_UPS, THANKS } from './mine-follow-ups.js';
import { TYPE_WORK } from './mine-type-work.js';
import { PROJECT, Reply, WORDS, newState, oneOffWork, type WorkState } from './mine-work.js';

export { PROJECT };
const T_END = Date.UTC(2026, 9, 1);
const SPAN_MS = 90 * 86_400_000;
/** Without a correction, the chance that the agent gets one convention its work touches wrong anyway. */
const UNCORRECTED_MISTAKE = 0.2;

/** A recurring task type: every template is a way of asking for the same thing. */
interface TaskType {
  id: string;
  templates: readonly string[];
}

/**
 * A type's templates are small grammars: `(a|b|)` picks one alternative (possibly none), `{slot}`
 * is an instance detail. Templates of a type share the object of the request in most variants, as
 * people's own rewordings do; a few say it another way. Some types are near neighbours on purpose
 * and must stay apart: add / remove / upgrade a dependency, enable / disable a flag, lint / type /
 * build errors, add / drop a column, add / remove an endpoint, add / remove logging.
 */
// prettier-ignore
const TASK_TYPES: readonly TaskType[] = [
  { id: 'add-dep', templates: ['(add|install) {pkg} (to the app|in the project|as a dependency|)', '(can you |)(install|add) {pkg} and wire it up', 'we need {pkg} as a dependency, (add|install) it', '(add|install) the {pkg} (package|dependency)(| to the app)'] },
  { id: 'remove-dep', templates: ['(remove|uninstall|drop) {pkg} (from the app|from the project|)', '(uninstall|remove) the {pkg} (package|dependency), we no longer use it', 'get rid of the {pkg} (package|dependency)', '(delete|remove) the {pkg} dependency from package.json'] },
  { id: 'upgrade-dep', templates: ['(upgrade|update) (the |){pkg}( package| dependency|) to the latest version', '(bump|upgrade|update) {pkg} to {ver}', '(update|upgrade|bump) the {pkg} (dependency|package) to {ver}', 'the {pkg} (package|dependency) is outdated, (upgrade|update) it(| to {ver})'] },
  { id: 'commit-msg', templates: ['(write|draft|compose) (the|a) commit message(| for these changes| for the staged changes)', '(write|draft) a conventional commit message for the staged (diff|changes)', 'can you write the commit (msg|message) for what we just did'] },
  { id: 'pr-description', templates: ['(write|draft) the PR description(| for {branch}| for this branch)', '(write|draft) a pull request description(| for this branch)', 'write the description for the (pull request|PR)'] },
  { id: 'fix-tests', templates: ['the tests are failing, fix them', 'fix the failing (test in {test}|tests|unit tests)', '(tests|the tests) broke after the last merge, (please |)fix them', 'some tests fail on CI, fix them'] },
  { id: 'add-tests', templates: ['(write|add) unit tests for {fn}', '(add|write) tests for {file}', 'can you cover {fn} with (unit |)tests(|, including the error case)', 'we have no tests for {fn}, (add|write) some'] },
  { id: 'run-tests', templates: ['run the (tests|test suite)(| and tell me what fails| and report the results)', 'execute the test suite and report the results', 'run the whole test suite'] },
  { id: 'lint', templates: ['fix the (lint|eslint) (errors|warnings)', 'run the linter and fix the lint (errors|warnings)(| it reports)', 'eslint is complaining, fix the lint (errors|warnings)', 'make the lint (pass|green)'] },
  { id: 'type-errors', templates: ['fix the (type|typescript) errors(| in {file})', 'tsc fails, fix the type errors', 'there are type errors after the upgrade, (can you |)fix them'] },
  { id: 'fix-build', templates: ['the build (is broken|fails|is red), (can you |)fix (it|the build)', 'fix the (broken |)build(| errors)', 'the build fails, fix the build errors'] },
  { id: 'add-endpoint', templates: ['add (a|an) (|new )({method} |){route} endpoint', 'we need (a|an) (|new )endpoint {method} {route} that returns the list', '(create|add) a new endpoint {method} {route}(| with validation)'] },
  { id: 'remove-endpoint', templates: ['(remove|delete|drop) the ({method} |){route} endpoint', '(delete|remove) the {route} endpoint, nobody calls it', '(drop|remove) the deprecated {route} endpoint'] },
  { id: 'rename', templates: ['rename {fn} to {fn2}(| everywhere)', 'rename the {fn} function to {fn2}(| everywhere)', '{fn} is a bad name, rename it to {fn2}(| and update the callers)'] },
  { id: 'readme', templates: ['update the README(| with the new usage| for the new flags)', '(document|describe) {fn} in the README', 'add a README section (about|on) configuring {env}', 'the README is out of date, update it'] },
  { id: 'changelog', templates: ['(update|write) the changelog(| for {ver}| for the release)', 'add (an|the) (changelog entry|entry to the changelog)(| for this change| for {ver})'] },
  { id: 'release', templates: ['(cut|prepare|tag|make) a (new |patch |minor |)release(| {ver})', 'bump the version to {ver} and (tag|cut) a release', 'release a new (patch|minor) version'] },
  { id: 'split-module', templates: ['split {file} into (smaller|several) modules', '{file} is too big, split it into (smaller |)modules', 'refactor {file} into (several|smaller) modules'] },
  { id: 'refactor-fn', templates: ['refactor {fn}(, it is too long| to make it readable|)', '(clean up|refactor) {fn} and extract (the helpers|helper functions)', 'simplify {fn}, it is (too long|hard to read)'] },
  { id: 'env-config', templates: ['read {env} from the environment instead of hardcoding it', 'stop hardcoding {env}, read it from the environment', 'make {env} configurable (through|via) the environment', '(move|put) the hardcoded {env} into an environment variable'] },
  { id: 'explain-code', templates: ['explain (what {fn} does|{file}|how {fn} works)(| to me)', 'how does {fn} work?', 'walk me through (|how )({file}|{fn})'] },
  { id: 'add-logging', templates: ['add (debug |)logging (to|around|in) {fn}', 'log the errors in {fn} properly', 'we need more (debug |)logging in {file}'] },
  { id: 'remove-logging', templates: ['(remove|delete) the debug (logging|logs) (from|in) {file}', 'remove the leftover console.log calls(| in {file})', 'strip the debug (logs|logging) (from|out of) {file}'] },
  { id: 'perf', templates: ['{fn} is slow, (make it faster|speed it up|optimize it)', '(profile|optimize) {fn} and speed it up', 'speed up {fn}', 'improve the performance of {fn}(|, it is slow)'] },
  { id: 'caching', templates: ['cache the (result|results) of {fn}(| in redis)', 'add caching (to|for) {fn}', 'memoize {fn} so we do not recompute it'] },
  { id: 'migration-add-column', templates: ['(add|write|create) a migration that adds (the |a |){col} column to {table}', 'we need a {col} column on {table}, (write|add) the migration', 'add (the |a |){col} column to {table} with a migration'] },
  { id: 'migration-drop-column', templates: ['(write|add|create) a migration that (drops|removes) the {col} column from {table}', '(remove|drop) the {col} column from {table} with a migration', 'we no longer need the {col} column on {table}, drop it(| in a migration)'] },
  { id: 'db-index', templates: ['add (an|a database) index on {table} for {col}', 'the query on {table} is slow, add an index (for|on) {col}', 'create a (database |db |)index on {table}.{col}'] },
  { id: 'docker', templates: ['(write|add|create) a Dockerfile for the service', 'containerize the service with (docker|a Dockerfile)', 'add a Dockerfile and a docker compose file(| for the service)', 'dockerize the service'] },
  { id: 'ci-workflow', templates: ['(set up|add|create) a (CI|GitHub Actions) workflow that runs the tests(| on every push)', 'create a CI workflow for the tests', 'add CI that runs the tests on every (push|pull request)'] },
  { id: 'fix-crash', templates: ['{fn} crashes with {error}', 'the app crashes when I open {route}, fix the crash', 'fix the crash in {fn}(| when {route} is opened)'] },
  { id: 'validation', templates: ['add (input|request) validation to (the |){route}(| handler)', 'validate the request body of {method} {route}', 'add (zod |)validation for the request body of {route}'] },
  { id: 'error-handling', templates: ['add (proper |)error handling to {fn}', 'handle (the |)errors in {fn} properly', '{fn} swallows errors, add (proper |)error handling'] },
  { id: 'ts-migrate', templates: ['(convert|port|migrate) {file} to TypeScript', 'migrate {file} from JavaScript to TypeScript', 'rewrite {file} in TypeScript'] },
  { id: 'component', templates: ['(create|add|build) a {comp} component', 'add a new React component called {comp}', '(build|create) a (new |)React component {comp}(| that shows the list)'] },
  { id: 'dark-mode', templates: ['add dark mode (support|to the app)', '(implement|add) a dark mode toggle(| in the settings page)', 'support dark mode in the settings page'] },
  { id: 'i18n', templates: ['translate the UI (strings |)to German', 'add (a |)German (translations|translation) (for|of) the UI', 'add German translations for the interface'] },
  { id: 'login', templates: ['add a login (page|form)', '(implement|add) login with email and password', '(create|build) the login (form|page)(| with email and password)'] },
  { id: 'pagination', templates: ['add pagination to {route}', 'paginate the results of ({method} |){route}', 'the {route} endpoint returns too many rows, add pagination'] },
  { id: 'rate-limit', templates: ['add rate limiting to (the API|{route})', 'rate limit {route} to {num} requests per minute', 'protect {route} with a rate limit(|er)'] },
  { id: 'flaky-test', templates: ['{test} is flaky, find out why', 'this test is flaky: {test}', 'investigate the flaky test in {test}'] },
  { id: 'gitignore', templates: ['add {dir} to the gitignore', '(put|add) {dir} in (the |)gitignore', 'ignore the {dir} folder in git(| via the gitignore)'] },
  { id: 'rebase', templates: ['rebase (my|this) branch (on|onto) main', 'rebase {branch} onto main and fix the conflicts', 'rebase onto main, there are conflicts'] },
  { id: 'squash', templates: ['squash the last {num} commits', 'squash my commits into one', 'squash all commits on {branch} into (one|a single commit)'] },
  { id: 'revert-commit', templates: ['revert the last commit', '(undo|revert) the last commit but keep the changes', 'revert commit {sha}'] },
  { id: 'audit', templates: ['run npm audit and fix the vulnerabilities', 'fix the (security |)vulnerabilities (npm audit reports|in our dependencies)', 'check our dependencies for known (security |)vulnerabilities'] },
  { id: 'dead-code', templates: ['remove (the |)dead code (in|from) {file}', '(delete|remove) the unused (functions|code) in {file}', 'find and remove unused exports(| in {file})'] },
  { id: 'env-example', templates: ['add {env} to .env.example', 'document the new (variable|env var) {env} in .env.example', 'update .env.example with {env}'] },
  { id: 'sql-query', templates: ['write a SQL query (that returns|for) the top {num} customers by revenue', 'write SQL for the top customers by revenue(| this month)', 'give me a SQL query for the top customers by revenue'] },
  { id: 'cron-job', templates: ['add a cron job that runs {fn} every (night|hour)', 'schedule {fn} to run every (hour|night)(| with a cron job)', 'create a (scheduled |)cron job for {fn}'] },
  { id: 'websocket', templates: ['add websocket support for live updates', 'push live updates to the client over (websockets|a websocket)', 'implement a websocket channel for (live updates|notifications)'] },
  { id: 'welcome-email', templates: ['send a welcome email after (signup|sign up)', 'email new users a welcome (message|email) when they sign up', 'add a welcome email to the signup flow'] },
  { id: 's3-upload', templates: ['implement file uploads to S3', 'add S3 uploads for (user files|the user files)', 'upload the user files to S3 instead of the local disk'] },
  { id: 'feature-flag', templates: ['put {flag} behind a feature flag', 'add a feature flag for {flag}', 'gate {flag} (with|behind) a feature flag'] },
  { id: 'enable-flag', templates: ['enable the {flag} flag (in production|for all users)', 'enable {flag} (for all users|in production)', 'turn on (the |){flag} (flag |)in production'] },
  { id: 'disable-flag', templates: ['disable the {flag} flag (in production|for all users)', 'disable {flag} (for all users|in production)', 'turn off (the |){flag} (flag |)in production'] },
  { id: 'api-docs', templates: ['generate API docs from the JSDoc comments', 'write the API (docs|documentation) for {route}', 'document the REST API(| endpoints)'] },
  { id: 'bundle-size', templates: ['the bundle is too big, reduce (its size|the bundle size)', 'reduce the bundle size', 'analyze the bundle and (shrink it|reduce its size)'] },
  { id: 'memory-leak', templates: ['there is a memory leak in {fn}, find it', 'memory keeps growing in the worker, find the (memory |)leak', 'fix the memory leak in ({file}|{fn})'] },
  { id: 'timezone', templates: ['dates are off by one day, fix the timezone bug', 'fix the timezone (handling|bug) in {fn}', '{fn} returns the wrong date because of the timezone'] },
];

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
