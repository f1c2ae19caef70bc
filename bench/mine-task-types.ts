/** The mining benchmark's recurring task types (see mine-corpus.ts). */

/** A recurring task type: every template is a way of asking for the same thing. */
export interface TaskType {
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
export const TASK_TYPES: readonly TaskType[] = [
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
