/** Vocabulary: identifiers, packages, recurring task families, follow-ups and corrections. */

export const NOUNS = [
  'user',
  'session',
  'config',
  'cache',
  'order',
  'invoice',
  'payment',
  'report',
  'message',
  'queue',
  'worker',
  'job',
  'schedule',
  'account',
  'profile',
  'project',
  'task',
  'comment',
  'event',
  'metric',
  'route',
  'handler',
  'request',
  'response',
  'client',
  'server',
  'store',
  'record',
  'entry',
  'item',
  'cart',
  'product',
  'price',
  'discount',
  'tenant',
  'team',
  'member',
  'role',
  'permission',
  'audit',
  'export',
  'import',
  'upload',
  'file',
  'image',
  'thumbnail',
  'search',
  'index',
  'filter',
  'page',
] as const;

export const VERBS = [
  'get',
  'set',
  'load',
  'save',
  'parse',
  'render',
  'build',
  'create',
  'update',
  'delete',
  'fetch',
  'sync',
  'validate',
  'normalize',
  'format',
  'resolve',
  'compute',
  'merge',
  'split',
  'collect',
  'apply',
  'handle',
  'emit',
  'dispatch',
  'schedule',
  'retry',
  'flush',
  'encode',
  'decode',
  'map',
] as const;

export const TS_PACKAGES = [
  'zod',
  'dayjs',
  'lodash-es',
  'pino',
  'fastify',
  'express',
  'commander',
  'chalk',
  'undici',
  'ky',
  'drizzle-orm',
  'kysely',
  'better-sqlite3',
  'ioredis',
  'bullmq',
  'nanoid',
  'uuid',
  'yaml',
  'ajv',
  'react-query',
  'zustand',
  'date-fns',
  'p-limit',
  'execa',
  'globby',
  'msw',
  'supertest',
  'vitest',
  '@tanstack/react-table',
  'tailwindcss',
  'prettier-plugin-tailwindcss',
  'dotenv',
  'helmet',
  'cors',
] as const;

export const PY_PACKAGES = [
  'requests',
  'httpx',
  'pydantic',
  'fastapi',
  'sqlalchemy',
  'alembic',
  'rich',
  'typer',
  'pytest-cov',
  'ruff',
  'mypy',
  'polars',
  'pandas',
  'numpy',
  'structlog',
  'tenacity',
  'orjson',
  'celery',
  'redis',
] as const;

export const ENV_NAMES = [
  'DATABASE_URL',
  'REDIS_URL',
  'PORT',
  'LOG_LEVEL',
  'S3_BUCKET',
  'SMTP_HOST',
  'BASE_URL',
];
export const DIRS = ['src', 'src/lib', 'src/api', 'src/db', 'src/utils', 'src/services', 'src/components'];
export const PY_DIRS = ['app', 'app/api', 'app/db', 'app/services', 'app/utils'];
export const BRANCHES = ['main', 'main', 'main', 'master', 'develop', 'feat/billing', 'fix/flaky-tests'];
export const CLAUDE_MODELS = [
  'claude-sonnet-4-5-20250929',
  'claude-opus-4-1-20250805',
  'claude-sonnet-4-20250514',
];
export const CODEX_MODELS = ['gpt-5.1-codex-max', 'gpt-5-codex', 'gpt-5.1-codex'];
export const COPILOT_MODELS = [
  'copilot/claude-sonnet-4',
  'copilot/gpt-4.1',
  'copilot/gpt-5-mini',
  'copilot/gpt-4o',
];
export const CLI_MODELS = ['claude-sonnet-4.5', 'gpt-5-mini', 'gpt-4.1'];

/** A recurring request. `{slot}`s are filled per instance (see plan.ts). */
export interface TaskFamily {
  id: string;
  variants: readonly string[];
  /** What the agent mostly does for it. */
  work: 'install' | 'git' | 'tests' | 'edit' | 'explain' | 'lint';
}

export const TASKS: readonly TaskFamily[] = [
  {
    id: 'add-dep',
    work: 'install',
    variants: [
      'add {pkg} to the app',
      'can you install {pkg} and wire it up?',
      'we need {pkg} as a dependency, add it please',
      'please add the {pkg} package and use it in {file}',
      'add {pkg}',
      'install {pkg} and replace our hand-rolled version in {file}',
    ],
  },
  {
    id: 'commit-msg',
    work: 'git',
    variants: [
      'write the commit message',
      'write a commit message for these changes',
      'commit this with a good message',
      'draft a conventional commit message for the staged diff',
      'can you write the commit msg for what we just did',
    ],
  },
  {
    id: 'fix-tests',
    work: 'tests',
    variants: [
      'the tests are failing, fix them',
      'fix the failing test in {test}',
      '{pm} test is red, can you look?',
      'why is {test} failing?',
      'tests broke after the last merge, please fix',
    ],
  },
  {
    id: 'add-endpoint',
    work: 'edit',
    variants: [
      'add a {method} /{route} endpoint',
      'we need an endpoint {method} /{route} that returns the {noun} list',
      'create a new route {method} /{route} with validation',
      'expose {fn} over HTTP as {method} /{route}',
    ],
  },
  {
    id: 'rename',
    work: 'edit',
    variants: [
      'rename {fn} to {fn2} everywhere',
      'rename the {fn} function to {fn2}',
      '{fn} is a bad name, call it {fn2} and update the callers',
    ],
  },
  {
    id: 'lint',
    work: 'lint',
    variants: [
      'fix the lint errors',
      'run the linter and fix what it reports',
      'eslint is complaining, clean it up',
      'make {pm} run lint pass',
    ],
  },
  {
    id: 'readme',
    work: 'edit',
    variants: [
      'update the README with the new {noun} usage',
      'document the {fn} function in the README',
      'add a section to the README about configuring {env}',
    ],
  },
  {
    id: 'type-errors',
    work: 'tests',
    variants: [
      'fix the type errors in {file}',
      'tsc fails, fix the types',
      'there are type errors after the upgrade, can you fix them',
      'fix the typecheck',
    ],
  },
  {
    id: 'add-test',
    work: 'tests',
    variants: [
      'write unit tests for {fn}',
      'add tests for {file}',
      'can you cover {fn} with tests, including the error case',
      'we have no tests for {fn}, add some',
    ],
  },
  {
    id: 'refactor',
    work: 'edit',
    variants: [
      'split {file} into smaller modules',
      'refactor {fn}, it is too long',
      'clean up {file}, extract the helpers',
    ],
  },
  {
    id: 'bump-version',
    work: 'git',
    variants: [
      'bump the version and update the changelog',
      'prepare a patch release',
      'release a new minor version',
    ],
  },
  {
    id: 'env-config',
    work: 'edit',
    variants: [
      'read {env} from the environment instead of hardcoding it',
      'make {env} configurable',
      'move the {env} setting into the config file',
    ],
  },
  {
    id: 'explain',
    work: 'explain',
    variants: [
      'explain what {fn} does',
      'how does {fn} work?',
      'walk me through {file}',
      'what is the difference between {fn} and {fn2}?',
    ],
  },
  {
    id: 'logging',
    work: 'edit',
    variants: ['add logging to {fn}', 'log the errors in {fn} properly', 'add debug logs around {fn}'],
  },
  {
    id: 'perf',
    work: 'edit',
    variants: ['{fn} is slow, make it faster', 'profile {fn} and speed it up', 'cache the result of {fn}'],
  },
  {
    id: 'migration',
    work: 'edit',
    variants: [
      'add a migration that adds the {col} column to {table}',
      'we need a {col} column on {table}, write the migration',
      'create a db migration for {table}.{col}',
    ],
  },
];

export const CORRECTIONS = [
  'use {pm2} instead of {pm}',
  'no, use vitest not jest',
  "don't use default exports",
  'keep it in one file please',
  "please don't touch the lockfile",
  'use async/await instead of .then chains',
  "that's wrong, {fn} should return null when nothing is found",
  'revert that last change',
  'no, I meant {file2}, not {file}',
  'stop, do not run the migration against the real database',
  'use the existing logger instead of console.log',
  "don't add a new dependency for that",
] as const;

export const FOLLOW_UPS = [
  'now do the same for {file2}',
  'also add a test for it',
  'commit it',
  'ok now run the tests',
  'can you also update the types?',
  'looks good, what about the error handling?',
  'still failing: {error}',
  'it compiles but {fn} returns undefined now',
  'great, now update the docs',
  'and the CHANGELOG too',
] as const;

export const THANKS = [
  'thanks, works now',
  'great, that fixed it',
  'perfect, thanks',
  'lgtm',
  'works, thank you!',
  'nice, ship it',
] as const;

export const ERRORS = [
  "TypeError: Cannot read properties of undefined (reading 'id')",
  'Error: connect ECONNREFUSED 127.0.0.1:5432',
  "error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
  'AssertionError: expected 2 to equal 3',
  "SyntaxError: Unexpected token '}'",
  'Error: Cannot find module ./config.js',
] as const;

export const OPENERS = [
  "I'll start by looking at {file}.",
  'Let me check the current state of the code first.',
  'Let me look at how {fn} is used.',
  "I'll take a look at the project structure.",
  'First, let me read the relevant files.',
  'Let me run the tests to see what fails.',
] as const;

export const MIDDLES = [
  'Now let me run the tests.',
  'That looks right. Let me check the callers of {fn}.',
  'The failure comes from {file}. Let me fix it.',
  'Let me verify the change compiles.',
  'I see the issue: {fn} does not handle the empty case.',
  'Let me update {file2} as well.',
] as const;

const IRREGULAR_PAST: Record<string, string> = { set: 'set', split: 'split', map: 'mapped', emit: 'emitted' };

export function past(verb: string): string {
  const irregular = IRREGULAR_PAST[verb];
  if (irregular !== undefined) return irregular;
  if (verb.endsWith('e')) return `${verb}d`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ied`;
  return `${verb}ed`;
}

export function third(verb: string): string {
  if (/(s|sh|ch|x|z)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

export function plural(noun: string): string {
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  if (/(s|sh|ch|x)$/.test(noun)) return `${noun}es`;
  return `${noun}s`;
}
