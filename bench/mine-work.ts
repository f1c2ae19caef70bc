/**
 * What the agent does in the mining benchmark's sessions (bench/mine-corpus.ts): the tool actions of
 * each reply, per task type, the project conventions it sometimes gets wrong, and how it redoes its
 * work when the user corrects one.
 *
 * The project is a TypeScript service that uses pnpm, vitest, a `logger`, named exports, timestamped
 * knex migrations with a real `down`, and commit messages in the imperative with a `Refs: #` and a
 * `Signed-off-by:` trailer. Each convention is a *mistake* the agent can make (`MISTAKES`): while a
 * session holds it, every reply that touches that part of the work makes it (`npm install zod`, an
 * `export default`, `migrations/0042_…`). A correction names the convention; the reply to it redoes the
 * affected steps of the earlier replies the right way (`pnpm add zod`, an edit of the same file, a
 * `git mv` to a timestamped name, an amended message), sometimes undoing the old step first (`git
 * checkout -- dist/`, `npm uninstall zod`), and later replies keep to it. Without a correction the
 * agent still makes a mistake now and then (the user let it pass).
 *
 * Replies also do what real ones do around the work: read the manifest or the file first, grep for
 * the symbol, check `git status`, run the tests or the type checker at the end, keep a todo list. Those
 * steps are shared by every kind of task, so actions alone do not separate the kinds; neighbouring
 * kinds (add / remove / upgrade a dependency, enable / disable a flag, add / drop a column) differ in
 * one subcommand or one line.
 */
import type { ToolAction } from '../src/core/session.js';
import type { Rng } from './corpus/rng.js';

export const PROJECT = '/work/bench-project';

// prettier-ignore
export const WORDS = {
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

/** Files every kind of task reads now and then. */
// prettier-ignore
export const COMMON_READS = ['package.json', 'tsconfig.json', 'README.md', 'src/index.ts', 'src/config.ts', 'AGENTS.md', 'src/api/routes.ts', 'src/db/client.ts'];
// prettier-ignore
export const COMMIT_SUBJECTS: ReadonlyArray<readonly [string, string, string]> = [
  ['Add', 'Added', 'retry to the {noun} client'], ['Fix', 'Fixed', 'rounding in {noun} totals'],
  ['Extract', 'Extracted', 'the {noun} mapper into its own module'], ['Guard', 'Guarded', 'against a missing {noun} id'],
  ['Convert', 'Converted', 'the {noun} service to async/await'], ['Prevent', 'Prevented', 'duplicate {noun} events'],
  ['Adjust', 'Adjusted', 'the {noun} cache expiry'], ['Correct', 'Corrected', 'the {noun} status mapping'],
];
// prettier-ignore
export const ONE_OFF_COMMANDS = ['pnpm dev', 'node scripts/seed.mjs', 'curl -s localhost:3000/health', 'ls -la src', 'du -sh node_modules', 'docker ps', 'psql "$DATABASE_URL" -c "select count(*) from users"', 'git log --oneline -n 20', 'wc -l src/**/*.ts', 'cat .env.example'];

export const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
export const abs = (rel: string): string => `${PROJECT}/${rel}`;
export const rel = (target: string): string =>
  target.startsWith(`${PROJECT}/`) ? target.slice(PROJECT.length + 1) : target;
export const unquote = (s: string): string => s.replace(/^`|`$/g, '');

/** The session as the agent's replies change it. */
export interface WorkState {
  rng: Rng;
  /** Instance details of the request (unquoted): pkg, file, fn, route, … */
  slots: Readonly<Record<string, string>>;
  /** Conventions the agent gets wrong now (ids of `MISTAKES`). */
  mistakes: Set<string>;
  /** Every action of the replies so far, and each reply's prose. */
  done: ToolAction[];
  prose: string[];
  /** The commit message drafted in this session, if any (rendered with the conventions of the moment). */
  commit?: CommitDraft;
}

export interface CommitDraft {
  imperative: string;
  past: string;
  object: string;
  body: string;
  refs: number;
}

export function newState(rng: Rng, slots: Record<string, string>): WorkState {
  return { rng, slots, mistakes: new Set(), done: [], prose: [] };
}

/** One reply of the agent: its tool calls in order and its prose. */
export class Reply {
  readonly actions: ToolAction[] = [];
  readonly text: string[] = [];
  readonly st: WorkState;

  constructor(st: WorkState) {
    this.st = st;
  }

  get rng(): Rng {
    return this.st.rng;
  }

  wrong(mistake: string): boolean {
    return this.st.mistakes.has(mistake);
  }

  slot(name: string, fallback: () => string): string {
    const value = this.st.slots[name];
    return value !== undefined && value !== '' ? unquote(value) : fallback();
  }

  private act(kind: ToolAction['kind'], tool: string, target: string, added = '', removed = ''): this {
    this.actions.push({ kind, tool, target, added, removed });
    return this;
  }

  run(command: string): this {
    return this.act('run', 'Bash', command);
  }
  read(file: string): this {
    return this.act('read', 'Read', abs(file));
  }
  write(file: string, text: string): this {
    return this.act('write', 'Write', abs(file), text);
  }
  edit(file: string, added: string, removed = ''): this {
    return this.act('edit', 'Edit', abs(file), added, removed);
  }
  grep(pattern: string): this {
    return this.act('search', 'Grep', pattern);
  }
  glob(pattern: string): this {
    return this.act('search', 'Glob', pattern);
  }
  todo(): this {
    return this.act('other', 'TodoWrite', '');
  }
  say(text: string): this {
    this.text.push(text);
    return this;
  }

  // --- the project's conventions, as the agent gets them right or wrong now ---

  /** `pnpm add x` / `npm install x`. */
  add(pkgs: string, dev = false): this {
    const d = dev ? '-D ' : '';
    return this.run(this.wrong('pnpm') ? `npm install ${d}${pkgs}` : `pnpm add ${d}${pkgs}`);
  }
  remove(pkg: string): this {
    return this.run(this.wrong('pnpm') ? `npm uninstall ${pkg}` : `pnpm remove ${pkg}`);
  }
  update(spec: string): this {
    return this.run(this.wrong('pnpm') ? `npm install ${spec}` : `pnpm update ${spec}`);
  }
  install(): this {
    return this.run(this.wrong('pnpm') ? 'npm install' : 'pnpm install');
  }
  /** A package.json script: `pnpm lint` / `npm run lint`. */
  script(name: string, extra = ''): this {
    const tail = extra === '' ? '' : ` ${extra}`;
    return this.run(this.wrong('pnpm') ? `npm run ${name}${tail}` : `pnpm ${name}${tail}`);
  }
  /** A package binary: `pnpm exec tsc --noEmit` / `npx tsc --noEmit`. */
  exec(command: string): this {
    return this.run(this.wrong('pnpm') ? `npx ${command}` : `pnpm exec ${command}`);
  }
  /** The test runner on one file or the whole suite. */
  test(file = ''): this {
    const target = file === '' ? '' : ` ${file}`;
    if (this.wrong('vitest'))
      return this.run(this.wrong('pnpm') ? `npx jest${target}` : `pnpm jest${target}`);
    if (file === '' && this.rng.chance(0.5)) return this.script('test');
    return this.run(this.wrong('pnpm') ? `npx vitest run${target}` : `pnpm vitest run${target}`);
  }
  typecheck(): this {
    return this.rng.chance(0.5) ? this.exec('tsc --noEmit') : this.script('typecheck');
  }
  /** Runs the tests or the type checker at the end, as careful replies do. */
  verify(p = 0.5): this {
    if (!this.rng.chance(p)) return this;
    return this.rng.chance(0.6) ? this.test() : this.typecheck();
  }
  /** Looks around before working: a common file, the file at hand, a grep, `git status`. */
  explore(files: readonly string[] = [], grep = ''): this {
    if (this.rng.chance(0.2)) this.todo();
    if (this.rng.chance(0.15)) this.run('git status');
    if (this.rng.chance(0.35)) this.read(this.rng.pick(COMMON_READS));
    for (const file of files) if (this.rng.chance(0.75)) this.read(file);
    if (grep !== '' && this.rng.chance(0.5)) this.grep(grep);
    return this;
  }
  lockfile(): string {
    return this.wrong('pnpm') ? 'package-lock.json' : 'pnpm-lock.yaml';
  }
  /** After an install, a hand edit of the lockfile (the `lockfile` mistake). */
  lockEdit(pkg: string, version: string): this {
    if (!this.wrong('lockfile')) return this;
    return this.edit(
      'pnpm-lock.yaml',
      `  ${pkg}:\n    specifier: ^${version}\n    version: ${version}`,
      `  ${pkg}:\n    specifier: ^1.0.0`,
    );
  }
  testImports(): string {
    return this.wrong('vitest')
      ? "import { describe, it, expect } from '@jest/globals';"
      : "import { describe, it, expect } from 'vitest';";
  }
  logCall(message: string): string {
    return this.wrong('console')
      ? `console.log('${message}', { id });`
      : `logger.info({ id }, '${message}');`;
  }
  exported(decl: string): string {
    return this.wrong('default-export') ? `export default ${decl}` : `export ${decl}`;
  }
  /** A parameter's type: `any` when the agent takes the short way. */
  paramType(real: string): string {
    return this.wrong('any') ? 'any' : real;
  }
  /** A call whose result is used: a `.then` chain or an `await`. */
  awaited(call: string, use: string): string {
    return this.wrong('then')
      ? `  return ${call}.then((res) => ${use});`
      : `  const res = await ${call};\n  return ${use};`;
  }
  /** A type error the agent silences instead of fixing (the `ts-ignore` mistake). */
  typeFix(line: string, fixed: string): string {
    return this.wrong('ts-ignore') ? `  // @ts-ignore\n${line}` : fixed;
  }
  /** A lint error the agent silences instead of fixing (the `eslint-disable` mistake). */
  lintFix(line: string, fixed: string): string {
    return this.wrong('eslint-disable')
      ? `  // eslint-disable-next-line @typescript-eslint/no-unused-vars\n${line}`
      : fixed;
  }
  ciInstall(indent: string, prefix: string): string {
    return this.wrong('frozen')
      ? `${indent}${prefix}pnpm install`
      : `${indent}${prefix}pnpm install --frozen-lockfile`;
  }
  push(branch: string): this {
    return this.run(
      this.wrong('force')
        ? `git push --force origin ${branch}`
        : `git push --force-with-lease origin ${branch}`,
    );
  }
  /**
   * A fix in `src/`; with the `dist` mistake, in the built output too, or only there ("patched the
   * bundle").
   */
  fixIn(file: string, added: string, removed: string): this {
    const onlyDist = this.wrong('dist') && this.rng.chance(0.4);
    if (!onlyDist) this.edit(file, added, removed);
    if (this.wrong('dist')) this.edit(distOf(file), added, removed);
    return this;
  }
  migrationName(slug: string): string {
    const seq = String(this.rng.int(12, 140)).padStart(4, '0');
    return `migrations/${this.wrong('migration-timestamp') ? seq : timestamp(this.rng)}_${slug}.ts`;
  }
  migration(slug: string, up: string, down: string): this {
    const body = this.wrong('migration-down') ? '  // nothing to undo' : down;
    return this.write(
      this.migrationName(slug),
      `import type { Knex } from 'knex';\n\nexport async function up(knex: Knex): Promise<void> {\n${up}\n}\n\n` +
        `export async function down(knex: Knex): Promise<void> {\n${body}\n}\n`,
    );
  }
  /** A commit message in a fenced block (and committed, sometimes). */
  commitMessage(commit: boolean): this {
    const [imperative, past, object] = this.rng.pick(COMMIT_SUBJECTS);
    const noun = this.rng.pick(WORDS.noun);
    const body = `${cap(this.rng.pick(['keeps', 'makes', 'stops']))} the ${noun} flow ${this.rng.pick(['predictable', 'safe on retries', 'consistent with the API', 'cheaper'])}.`;
    this.st.commit = {
      imperative,
      past,
      object: object.replace('{noun}', noun),
      body,
      refs: this.rng.int(100, 999),
    };
    this.say(`Here is the commit message:\n\n\`\`\`\n${this.commitText()}\n\`\`\``);
    if (commit) this.run(`git commit -m "${this.commitSubject()}" -m "${body}"`);
    return this;
  }
  commitSubject(): string {
    const c = this.st.commit;
    if (c === undefined) return `Update ${this.rng.pick(WORDS.noun)} handling`;
    return `${this.wrong('imperative') ? c.past : c.imperative} ${c.object}`;
  }
  commitText(): string {
    const c = this.st.commit;
    const trailers = [
      ...(this.wrong('refs') ? [] : [`Refs: #${c?.refs ?? 100}`]),
      ...(this.wrong('signoff') ? [] : ['Signed-off-by: Dana Kim <dana.kim@example.com>']),
    ];
    return [this.commitSubject(), '', c?.body ?? '', ...(trailers.length > 0 ? ['', ...trailers] : [])].join(
      '\n',
    );
  }
}

/** `20260314093012`: a migration's date and time prefix. */
export function timestamp(rng: Rng): string {
  const two = (lo: number, hi: number): string => String(rng.int(lo, hi)).padStart(2, '0');
  return `2026${two(1, 9)}${two(1, 28)}${two(0, 23)}${two(0, 59)}${two(0, 59)}`;
}

export function distOf(file: string): string {
  return `dist/${file.replace(/^src\//, '').replace(/\.tsx?$/, '.js')}`;
}

export function testOf(file: string): string {
  return file.replace(/(\.test)?\.(tsx?|js)$/, '.test.ts');
}

export function fnName(r: Reply): string {
  return r.slot('fn', () => `${r.rng.pick(WORDS.verb)}${cap(r.rng.pick(WORDS.noun))}`);
}

/** The file a function lives in: `loadUser` → `src/services/user.ts` (the same every time). */
export function fileOfFn(fn: string): string {
  const noun = (/^[a-z]+([A-Z][A-Za-z]*)$/.exec(fn)?.[1] ?? 'User').toLowerCase();
  return `src/services/${noun}.ts`;
}

export function fileOf(r: Reply): string {
  const file = r.st.slots.file ?? r.st.slots.test;
  if (file !== undefined) return unquote(file).replace('.test.ts', '.ts');
  const fn = r.st.slots.fn;
  if (fn !== undefined) return fileOfFn(unquote(fn));
  return `${r.rng.pick(WORDS.dir)}/${r.rng.pick(WORDS.noun)}.ts`;
}

export function routeOf(r: Reply): string {
  return r.slot('route', () => `/${r.rng.pick(WORDS.table)}`);
}

export function handlerOf(route: string): string {
  return `src/api/handlers/${route.split('/')[1] ?? 'index'}.ts`;
}

export const ver = (r: Reply): string =>
  r.slot('ver', () => `${r.rng.int(1, 9)}.${r.rng.int(0, 20)}.${r.rng.int(0, 9)}`);
export const tableOf = (r: Reply): string => r.slot('table', () => r.rng.pick(WORDS.table));
export const colOf = (r: Reply): string => r.slot('col', () => r.rng.pick(WORDS.col));
export const flagOf = (r: Reply): string => r.slot('flag', () => r.rng.pick(WORDS.flag));
export const envOf = (r: Reply): string => r.slot('env', () => r.rng.pick(WORDS.env));
export const branchOf = (r: Reply): string => r.slot('branch', () => r.rng.pick(WORDS.branch));
export const compOf = (r: Reply): string => r.slot('comp', () => r.rng.pick(WORDS.comp));

export function fnCode(r: Reply, fn: string, inner: string): string {
  return `${r.exported(`async function ${fn}(input: ${r.paramType('Input')}) {`)}\n${inner}\n}`;
}

export function component(r: Reply, name: string, body: string): string {
  return `import styles from './${name}.module.css';\n\n${r.exported(`function ${name}(props: ${name}Props) {`)}\n  return (\n${body}\n  );\n}\n`;
}

/** A one-off request's reply: some reading around, now and then a new file or a command. */
export function oneOffWork(r: Reply, words: readonly string[]): void {
  if (r.rng.chance(0.15)) {
    r.say('Here is how I would approach it.');
    return;
  }
  r.explore([`src/${r.rng.pick(WORDS.noun)}.ts`], words[0] ?? '');
  if (r.rng.chance(0.6)) {
    const name = words.slice(0, 2).join('-') || 'scratch';
    r.write(
      `src/${r.rng.pick(['features', 'scripts', 'lib'])}/${name}.ts`,
      `export function ${words[0] ?? 'run'}() {\n  return [];\n}\n`,
    );
  }
  if (r.rng.chance(0.3)) r.run(r.rng.pick(ONE_OFF_COMMANDS));
  r.say('Done, see the new file.');
}

/** One task type's first reply: what the agent does when asked. `mistakes`: conventions it can get wrong there. */
export interface TypeWork {
  mistakes: readonly string[];
  work: (r: Reply) => void;
}
