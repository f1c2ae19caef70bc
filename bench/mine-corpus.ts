/**
 * An in-memory corpus for the mining benchmark: sessions of one project whose first prompts are
 * paraphrases of 60 known recurring task types (Zipf-like frequencies) or one-off requests (8%),
 * and whose follow-ups carry a user correction with known checks in about 30% of the sessions. The
 * truth comes along.
 *
 * Noise on the first prompt: instance details (package, file, function, table, column, version;
 * names backticked or not), a greeting or lead-in (30%), a sign-off or hedge (25%), a context
 * sentence shared with every other kind of request (10%, punctuated or not), a typo (8%), upper or
 * capitalised case. Follow-ups without a correction include ones that look like corrections ("don't
 * worry about the docs", "I have never seen this error before") and must give no check; a few
 * corrections are phrased in ways the parser is not expected to read, so recall stays honest.
 */
import { forbiddenTerm, negativeWordCheck } from '../src/core/negative-check.js';
import type { Check } from '../src/core/task.js';
import type { HarvestedTurn } from '../harvesters/types.js';
import type { MinerSession } from '../src/miner/types.js';
import { Rng } from './corpus/rng.js';

export const PROJECT = '/work/bench-project';
const T_END = Date.UTC(2026, 9, 1);
const SPAN_MS = 90 * 86_400_000;

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
const WORDS = {
  pkg: ['zod', 'dayjs', 'lodash-es', 'pino', 'fastify', 'express', 'commander', 'chalk', 'undici', 'ky', 'drizzle-orm', 'kysely', 'ioredis', 'bullmq', 'nanoid', 'uuid', 'yaml', 'ajv', 'zustand', 'date-fns', 'p-limit', 'execa', 'globby', 'msw', 'supertest', 'dotenv', 'helmet', 'cors'],
  dir: ['src', 'src/lib', 'src/api', 'src/db', 'src/utils', 'src/services', 'src/components'],
  noun: ['user', 'session', 'order', 'invoice', 'payment', 'report', 'message', 'account', 'profile', 'comment', 'event', 'cart', 'product', 'tenant', 'team'],
  verb: ['get', 'load', 'save', 'parse', 'render', 'build', 'create', 'update', 'delete', 'fetch', 'sync', 'validate', 'format', 'resolve', 'compute'],
  env: ['DATABASE_URL', 'REDIS_URL', 'PORT', 'LOG_LEVEL', 'S3_BUCKET', 'SMTP_HOST', 'BASE_URL'],
  col: ['created_at', 'updated_at', 'deleted_at', 'email', 'status', 'tenant_id', 'amount_cents'],
  table: ['users', 'orders', 'invoices', 'payments', 'sessions', 'accounts'],
  method: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'],
  branch: ['feat/billing', 'fix/flaky-tests', 'feat/search', 'chore/deps'],
  comp: ['UserCard', 'OrderTable', 'InvoiceList', 'PaymentForm', 'SearchBar', 'TeamPicker'],
  flag: ['new-checkout', 'beta-search', 'dark-launch', 'fast-export'],
  error: ["TypeError: Cannot read properties of undefined (reading 'id')", 'Error: connect ECONNREFUSED 127.0.0.1:5432', 'RangeError: Maximum call stack size exceeded'],
} as const;

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

/** A user correction whose checks are known; a phrasing is one way users say it. */
interface CorrectionKind {
  id: string;
  phrasings: readonly string[];
  /** Phrasings a plain parser is not expected to read (kept, so recall is honest). */
  hard?: readonly string[];
  expected: readonly Check[];
}

const npm = negativeWordCheck('npm');
// prettier-ignore
const CORRECTIONS: readonly CorrectionKind[] = [
  { id: 'pnpm', phrasings: ['use pnpm instead of npm', 'no, use pnpm, not npm', 'prefer pnpm over npm', 'instead of npm, use pnpm please'], hard: ['stop using npm, we use pnpm here'], expected: [{ op: 'contains', arg: 'pnpm' }, npm] },
  { id: 'yarn', phrasings: ['use yarn instead of npm', 'no, use yarn not npm'], expected: [{ op: 'contains', arg: 'yarn' }, npm] },
  { id: 'dist', phrasings: ['never edit `dist/`', "don't touch dist/, it is generated", 'please do not modify `dist/`'], expected: [negativeWordCheck('dist/')] },
  { id: 'refs', phrasings: ['always include "Refs: #" in the message', 'always add `Refs: #` at the end'], expected: [{ op: 'contains', arg: 'Refs: #' }] },
  { id: 'any', phrasings: ["don't use `any`", 'never use `any` in types'], expected: [negativeWordCheck('any')] },
  { id: 'vitest', phrasings: ['use vitest, not jest', 'no, use vitest not jest'], expected: [{ op: 'contains', arg: 'vitest' }, negativeWordCheck('jest')] },
  { id: 'console', phrasings: ["don't leave `console.log` calls in", 'never use `console.log`, use the logger'], hard: ['use the existing `logger` instead of `console.log`'], expected: [negativeWordCheck('console.log')] },
  { id: 'lockfile', phrasings: ["don't touch `package-lock.json`", 'never edit `package-lock.json` by hand'], expected: [negativeWordCheck('package-lock.json')] },
  { id: 'default-export', phrasings: ["don't use `export default`", 'never use `export default` here'], expected: [negativeWordCheck('export default')] },
  { id: 'async', phrasings: ['use async/await instead of .then chains'], expected: [{ op: 'contains', arg: 'async/await' }, negativeWordCheck('.then')] },
  { id: 'signoff', phrasings: ['always add `Signed-off-by:` to commits'], expected: [{ op: 'contains', arg: 'Signed-off-by:' }] },
  { id: 'frozen', phrasings: ['always pass `--frozen-lockfile`'], expected: [{ op: 'contains', arg: '--frozen-lockfile' }] },
  { id: 'force', phrasings: ['never use `--force`', 'never run git push --force'], expected: [negativeWordCheck('--force')] },
];

/** Follow-ups that are not corrections with a check, including ones that look like them. */
// prettier-ignore
const FOLLOW_UPS = [
  'now do the same for {file}', 'also add a test for it', 'commit it', 'ok now run the tests', 'can you also update the types?',
  'looks good, what about the error handling?', 'still failing: {error}', 'it compiles but {fn} returns undefined now',
  'great, now update the docs', 'and the CHANGELOG too', "don't worry about the docs for now", 'I have never seen this error before',
  "that's not right, try again", 'no, not like that', "it's not working", 'use the same approach as before', 'always the same error',
  'why do you always do that?', "don't forget the tests", 'never mind, it works', "don't bother with the changelog",
  'no, I meant {file}, not the other one', 'keep it in one file please', "don't change anything else",
  'always run the tests before you say it is done',
];
// prettier-ignore
const THANKS = ['thanks, works now', 'great, that fixed it', 'perfect, thanks', 'lgtm', 'works, thank you!', 'nice, ship it'];
// prettier-ignore
const CORRECTION_WRAPS = ['{c}', 'no, {c}', 'hmm, {c}', '{c} please', 'Looks mostly fine. {c}. Then rerun the checks.', 'wait: {c}'];

// prettier-ignore
const ONE_OFF = {
  verb: ['prototype', 'benchmark', 'sketch', 'audit', 'evaluate', 'visualize', 'archive', 'anonymize', 'dedupe', 'reconcile', 'throttle', 'shard', 'backfill', 'mirror', 'federate', 'chart', 'forecast', 'sandbox', 'summarize', 'compare', 'estimate', 'trace', 'diagram', 'outline'],
  adjective: ['weekly', 'nightly', 'legacy', 'experimental', 'internal', 'regional', 'quarterly', 'archived', 'partner', 'mobile', 'offline', 'historical', 'seasonal', 'draft', 'shared', 'pending', 'expired', 'premium', 'trial', 'bulk', 'signed', 'cached', 'orphaned', 'stale'],
  noun: ['heatmap', 'ledger', 'webhook', 'leaderboard', 'sitemap', 'tracer', 'inventory', 'coupon', 'playlist', 'calendar', 'geocoder', 'watermark', 'captcha', 'avatar', 'receipt', 'voucher', 'glossary', 'changeset', 'refund', 'shipment', 'warehouse', 'survey', 'badge', 'quota', 'snapshot', 'timeline', 'digest', 'referral', 'license', 'kiosk'],
  link: ['for', 'in', 'from', 'behind', 'next to', 'across'],
} as const;

export interface PlantedCorrection {
  kind: string;
  text: string;
  expected: readonly Check[];
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
  /** Share of sessions with a planted correction. */
  correctionShare?: number;
}

export function generateCorpus(opts: CorpusOptions): Corpus {
  const rng = new Rng(opts.seed);
  const typeWeights = TASK_TYPES.map((type, rank) => [type, 1 / Math.pow(rank + 1, 0.7)] as const);
  const sessions: MinerSession[] = [];
  const truth = new Map<string, string>();
  const planted = new Map<string, PlantedCorrection[]>();
  for (let i = 0; i < opts.sessions; i++) {
    const key = `bench:${opts.seed}:${i}`;
    const oneOff = rng.chance(opts.oneOffShare ?? 0.08);
    const type = rng.weighted(typeWeights);
    const intent = oneOff ? oneOffIntent(rng) : noisy(rng, fill(rng, rng.pick(type.templates)));
    truth.set(key, oneOff ? `one-off:${key}` : type.id);
    const corrections = rng.chance(opts.correctionShare ?? 0.3) ? plantCorrections(rng) : [];
    if (corrections.length > 0) planted.set(key, corrections);
    sessions.push(makeSession(rng, key, intent, corrections));
  }
  return { sessions, truth, planted };
}

/** Picks one alternative of every `(a|b|)` group, then fills the `{slot}`s. */
function fill(rng: Rng, template: string): string {
  return template
    .replace(/\(([^()]*)\)/g, (_, options: string) => rng.pick(options.split('|')))
    .replace(/\{(\w+)\}/g, (_, slot: string) => slotValue(rng, slot))
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

function oneOffIntent(rng: Rng): string {
  const { verb, adjective, noun, link } = ONE_OFF;
  const phrase = `${rng.pick(verb)} the ${rng.pick(adjective)} ${rng.pick(noun)} ${rng.pick(link)} the ${rng.pick(adjective)} ${rng.pick(noun)} ${rng.pick(noun)}`;
  return noisy(rng, phrase);
}

function plantCorrections(rng: Rng): PlantedCorrection[] {
  const count = rng.chance(0.1) ? 2 : 1;
  const kinds: CorrectionKind[] = [];
  while (kinds.length < count) {
    const kind = rng.pick(CORRECTIONS);
    if (!kinds.includes(kind)) kinds.push(kind);
  }
  return kinds.map((kind) => {
    const phrasing =
      kind.hard !== undefined && rng.chance(0.08) ? rng.pick(kind.hard) : rng.pick(kind.phrasings);
    return {
      kind: kind.id,
      text: rng.pick(CORRECTION_WRAPS).replace('{c}', phrasing),
      expected: kind.expected,
    };
  });
}

/** An answer that fails every planted check: it uses what is forbidden and runs long. */
function mistakenAnswer(corrections: readonly PlantedCorrection[]): string {
  const parts = ['Done. I updated the code for step 1.'];
  for (const c of corrections) {
    for (const check of c.expected) {
      const term = forbiddenTerm(check);
      if (term !== null) parts.push(`I also ran ${term} and touched ${term} while at it.`);
      else if (check.op === 'max_chars' || check.op === 'regex') parts.push('word '.repeat(120).trim());
    }
  }
  return parts.join(' ');
}

function makeSession(rng: Rng, key: string, intent: string, corrections: PlantedCorrection[]): MinerSession {
  const start = T_END - Math.floor(rng.next() * SPAN_MS);
  const prompts: string[] = [intent];
  const followUps = rng.skewed(0, 3, 2);
  for (let i = 0; i < followUps; i++) prompts.push(fill(rng, rng.pick(FOLLOW_UPS)));
  for (const correction of corrections) {
    prompts.splice(rng.int(1, prompts.length), 0, correction.text);
  }
  if (rng.chance(0.5)) prompts.push(rng.pick(THANKS));
  const turns: HarvestedTurn[] = [];
  prompts.forEach((prompt, i) => {
    turns.push(turn(turns.length, 'user', prompt, start + i * 60_000));
    // The first answer makes the mistakes the corrections later point out, as real first answers do.
    const answer = i === 0 ? mistakenAnswer(corrections) : `Done. I updated the code for step ${i + 1}.`;
    turns.push(turn(turns.length, 'assistant', answer, start + i * 60_000 + 30_000));
  });
  return {
    source: 'claude',
    sessionId: key,
    cwd: PROJECT,
    branch: 'main',
    model: 'claude-sonnet-4-5',
    startedAt: start,
    endedAt: start + prompts.length * 60_000,
    turns,
    toolsUsed: ['Read', 'Edit', 'Bash'],
    skillsUsed: [],
    filesTouched: [],
    sourcePath: `/bench/${key}.jsonl`,
    sourceVersion: '2.1.0',
    key,
    projectRoot: PROJECT,
  };
}

function turn(seq: number, role: 'user' | 'assistant', text: string, ts: number): HarvestedTurn {
  return { seq, role, text, ts, toolNames: [], actions: [], toolErrors: 0, interrupted: false, offset: 0 };
}
