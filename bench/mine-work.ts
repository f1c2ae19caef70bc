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
import type { ToolAction } from '../harvesters/types.js';
import { negativeWordCheck } from '../src/core/negative-check.js';
import type { Check } from '../src/core/task.js';
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
const COMMON_READS = ['package.json', 'tsconfig.json', 'README.md', 'src/index.ts', 'src/config.ts', 'AGENTS.md', 'src/api/routes.ts', 'src/db/client.ts'];
// prettier-ignore
const COMMIT_SUBJECTS: ReadonlyArray<readonly [string, string, string]> = [
  ['Add', 'Added', 'retry to the {noun} client'], ['Fix', 'Fixed', 'rounding in {noun} totals'],
  ['Extract', 'Extracted', 'the {noun} mapper into its own module'], ['Guard', 'Guarded', 'against a missing {noun} id'],
  ['Convert', 'Converted', 'the {noun} service to async/await'], ['Prevent', 'Prevented', 'duplicate {noun} events'],
  ['Adjust', 'Adjusted', 'the {noun} cache expiry'], ['Correct', 'Corrected', 'the {noun} status mapping'],
];
// prettier-ignore
const ONE_OFF_COMMANDS = ['pnpm dev', 'node scripts/seed.mjs', 'curl -s localhost:3000/health', 'ls -la src', 'du -sh node_modules', 'docker ps', 'psql "$DATABASE_URL" -c "select count(*) from users"', 'git log --oneline -n 20', 'wc -l src/**/*.ts', 'cat .env.example'];

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const abs = (rel: string): string => `${PROJECT}/${rel}`;
const rel = (target: string): string =>
  target.startsWith(`${PROJECT}/`) ? target.slice(PROJECT.length + 1) : target;
const unquote = (s: string): string => s.replace(/^`|`$/g, '');

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
function timestamp(rng: Rng): string {
  const two = (lo: number, hi: number): string => String(rng.int(lo, hi)).padStart(2, '0');
  return `2026${two(1, 9)}${two(1, 28)}${two(0, 23)}${two(0, 59)}${two(0, 59)}`;
}

function distOf(file: string): string {
  return `dist/${file.replace(/^src\//, '').replace(/\.tsx?$/, '.js')}`;
}

function testOf(file: string): string {
  return file.replace(/(\.test)?\.(tsx?|js)$/, '.test.ts');
}

function fnName(r: Reply): string {
  return r.slot('fn', () => `${r.rng.pick(WORDS.verb)}${cap(r.rng.pick(WORDS.noun))}`);
}

/** The file a function lives in: `loadUser` → `src/services/user.ts` (the same every time). */
function fileOfFn(fn: string): string {
  const noun = (/^[a-z]+([A-Z][A-Za-z]*)$/.exec(fn)?.[1] ?? 'User').toLowerCase();
  return `src/services/${noun}.ts`;
}

function fileOf(r: Reply): string {
  const file = r.st.slots.file ?? r.st.slots.test;
  if (file !== undefined) return unquote(file).replace('.test.ts', '.ts');
  const fn = r.st.slots.fn;
  if (fn !== undefined) return fileOfFn(unquote(fn));
  return `${r.rng.pick(WORDS.dir)}/${r.rng.pick(WORDS.noun)}.ts`;
}

function routeOf(r: Reply): string {
  return r.slot('route', () => `/${r.rng.pick(WORDS.table)}`);
}

function handlerOf(route: string): string {
  return `src/api/handlers/${route.split('/')[1] ?? 'index'}.ts`;
}

const ver = (r: Reply): string =>
  r.slot('ver', () => `${r.rng.int(1, 9)}.${r.rng.int(0, 20)}.${r.rng.int(0, 9)}`);
const tableOf = (r: Reply): string => r.slot('table', () => r.rng.pick(WORDS.table));
const colOf = (r: Reply): string => r.slot('col', () => r.rng.pick(WORDS.col));
const flagOf = (r: Reply): string => r.slot('flag', () => r.rng.pick(WORDS.flag));
const envOf = (r: Reply): string => r.slot('env', () => r.rng.pick(WORDS.env));
const branchOf = (r: Reply): string => r.slot('branch', () => r.rng.pick(WORDS.branch));
const compOf = (r: Reply): string => r.slot('comp', () => r.rng.pick(WORDS.comp));

function fnCode(r: Reply, fn: string, inner: string): string {
  return `${r.exported(`async function ${fn}(input: ${r.paramType('Input')}) {`)}\n${inner}\n}`;
}

function component(r: Reply, name: string, body: string): string {
  return `import styles from './${name}.module.css';\n\n${r.exported(`function ${name}(props: ${name}Props) {`)}\n  return (\n${body}\n  );\n}\n`;
}

/** One task type's first reply: what the agent does when asked. `mistakes`: conventions it can get wrong there. */
export interface TypeWork {
  mistakes: readonly string[];
  work: (r: Reply) => void;
}

// The first reply per task type id (the ids of bench/mine-corpus.ts).
export const TYPE_WORK: Readonly<Record<string, TypeWork>> = {
  'add-dep': {
    mistakes: ['pnpm', 'lockfile'],
    work: (r) => {
      const pkg = r.slot('pkg', () => r.rng.pick(WORDS.pkg));
      const file = fileOf(r);
      r.explore(['package.json'], pkg).add(pkg, r.rng.chance(0.15)).lockEdit(pkg, ver(r));
      r.edit(file, `import { ${pkg.replace(/\W/g, '')} } from '${pkg}';`);
      r.verify(0.4).say(`Added ${pkg} and imported it in ${file}.`);
    },
  },
  'remove-dep': {
    mistakes: ['pnpm', 'lockfile'],
    work: (r) => {
      const pkg = r.slot('pkg', () => r.rng.pick(WORDS.pkg));
      r.explore(['package.json']).grep(`from '${pkg}'`);
      const n = r.rng.int(1, 3);
      for (let i = 0; i < n; i++)
        r.edit(fileOf(r), '', `import { ${pkg.replace(/\W/g, '')} } from '${pkg}';`);
      r.remove(pkg).lockEdit(pkg, '0.0.0').verify(0.6).say(`Removed ${pkg} and its ${n} imports.`);
    },
  },
  'upgrade-dep': {
    mistakes: ['pnpm', 'lockfile'],
    work: (r) => {
      const pkg = r.slot('pkg', () => r.rng.pick(WORDS.pkg));
      const v = r.st.slots.ver !== undefined ? ver(r) : 'latest';
      r.explore(['package.json']).run(`${r.wrong('pnpm') ? 'npm' : 'pnpm'} outdated ${pkg}`);
      r.update(`${pkg}@${v}`).lockEdit(pkg, v === 'latest' ? '9.0.0' : v);
      if (r.rng.chance(0.3)) r.read(`node_modules/${pkg}/CHANGELOG.md`);
      r.verify(0.7).say(`Upgraded ${pkg} to ${v}.`);
    },
  },
  'commit-msg': {
    mistakes: ['imperative', 'refs', 'signoff'],
    work: (r) => {
      if (r.rng.chance(0.5)) r.run('git status');
      r.run(
        r.rng.pick([
          'git diff --staged',
          'git diff --cached',
          'git diff --staged --stat && git diff --staged',
        ]),
      );
      if (r.rng.chance(0.3)) r.run('git log --oneline -n 5');
      r.commitMessage(r.rng.chance(0.4));
    },
  },
  'pr-description': {
    mistakes: [],
    work: (r) => {
      const branch = branchOf(r);
      r.run(`git log --oneline main..${branch}`).run(`git diff main...${branch} --stat`);
      if (r.rng.chance(0.3)) r.read('.github/pull_request_template.md');
      r.say(
        `\`\`\`markdown\n## Summary\n\nReworks the ${r.rng.pick(WORDS.noun)} flow.\n\n## Testing\n\n- unit tests\n\`\`\``,
      );
      if (r.rng.chance(0.3)) r.run(`gh pr create --fill --head ${branch}`);
    },
  },
  'fix-tests': {
    mistakes: ['vitest', 'pnpm'],
    work: (r) => {
      const test = r.slot('test', () => testOf(fileOf(r)));
      r.test().read(test).read(test.replace('.test.ts', '.ts'));
      r.edit(test.replace('.test.ts', '.ts'), '  if (input.items.length === 0) return [];', '');
      r.test(test).say('The tests pass again: the empty case returned undefined.');
    },
  },
  'add-tests': {
    mistakes: ['vitest', 'pnpm'],
    work: (r) => {
      const fn = fnName(r);
      const file = r.st.slots.file !== undefined ? fileOf(r) : fileOfFn(fn);
      r.explore([file], fn);
      r.write(
        testOf(file),
        `${r.testImports()}\nimport { ${fn} } from './${
          file
            .split('/')
            .pop()
            ?.replace(/\.tsx?$/, '') ?? ''
        }';\n\ndescribe('${fn}', () => {\n  it('handles the empty case', async () => {\n    expect(await ${fn}({ items: [] })).toEqual([]);\n  });\n});\n`,
      );
      r.test(testOf(file)).say(`Added tests for ${fn}.`);
    },
  },
  'run-tests': {
    mistakes: ['vitest', 'pnpm'],
    work: (r) => {
      r.test();
      if (r.rng.chance(0.3)) r.test(testOf(fileOf(r)));
      r.say(`${r.rng.int(40, 300)} passed, ${r.rng.int(0, 3)} failed.`);
    },
  },
  lint: {
    mistakes: ['eslint-disable', 'pnpm'],
    work: (r) => {
      r.script('lint');
      const n = r.rng.int(1, 3);
      for (let i = 0; i < n; i++) {
        const file = fileOf(r);
        r.read(file).edit(
          file,
          r.lintFix('  const unused = input.id;', '  void input.id;'),
          '  const unused = input.id;',
        );
      }
      r.script('lint').say(`Fixed ${n} lint errors.`);
    },
  },
  'type-errors': {
    mistakes: ['any', 'ts-ignore', 'dist', 'pnpm'],
    work: (r) => {
      const file = fileOf(r);
      r.typecheck().read(file);
      r.fixIn(
        file,
        r.typeFix(
          '  const total = order.total;',
          `  const total: ${r.paramType('number')} = order.total ?? 0;`,
        ),
        '  const total = order.total;',
      );
      r.typecheck().say('tsc is clean now.');
    },
  },
  'fix-build': {
    mistakes: ['dist', 'ts-ignore', 'pnpm'],
    work: (r) => {
      const file = fileOf(r);
      r.script('build');
      if (r.rng.chance(0.4)) r.read(r.rng.pick(['tsconfig.json', 'vite.config.ts', 'tsconfig.build.json']));
      r.read(file).fixIn(
        file,
        r.typeFix("  import { config } from './config';", "  import { config } from './config.js';"),
        "  import { config } from './config';",
      );
      r.script('build').say('The build passes again.');
    },
  },
  'add-endpoint': {
    mistakes: ['any', 'vitest', 'pnpm'],
    work: (r) => {
      const route = routeOf(r);
      const method = r.slot('method', () => r.rng.pick(WORDS.method)).toLowerCase();
      const handler = handlerOf(route);
      r.explore(['src/api/routes.ts'], route);
      r.edit('src/api/routes.ts', `router.${method}('${route}', ${method}Handler);`);
      r.write(
        handler,
        fnCode(
          r,
          `${method}Handler`,
          `  const rows = await db.select().from('${route.split('/')[1] ?? ''}');\n  return rows;`,
        ),
      );
      if (r.rng.chance(0.5))
        r.write(
          testOf(handler),
          `${r.testImports()}\n\ndescribe('${method.toUpperCase()} ${route}', () => {});\n`,
        );
      r.verify(0.5).say(`Added ${method.toUpperCase()} ${route}.`);
    },
  },
  'remove-endpoint': {
    mistakes: ['pnpm'],
    work: (r) => {
      const route = routeOf(r);
      r.explore([], route).grep(route);
      r.edit('src/api/routes.ts', '', `router.get('${route}', getHandler);`);
      r.run(`git rm ${handlerOf(route)}`)
        .verify(0.6)
        .say(`Removed ${route}.`);
    },
  },
  rename: {
    mistakes: ['pnpm'],
    work: (r) => {
      const fn = fnName(r);
      const to = r.slot('fn2', () => `${r.rng.pick(WORDS.verb)}${cap(r.rng.pick(WORDS.noun))}`);
      r.grep(`\\b${fn}\\b`);
      const n = r.rng.int(2, 5);
      for (let i = 0; i < n; i++) r.edit(i === 0 ? fileOfFn(fn) : fileOf(r), `${to}(`, `${fn}(`);
      r.typecheck().say(`Renamed ${fn} to ${to} in ${n} files.`);
    },
  },
  readme: {
    mistakes: [],
    work: (r) => {
      r.read('README.md');
      if (r.rng.chance(0.4)) r.read(r.rng.pick(COMMON_READS));
      r.edit(
        'README.md',
        `## ${r.rng.pick(['Usage', 'Configuration', 'Development'])}\n\nRun \`pnpm start\` with ${envOf(r)} set.`,
      );
      r.say('Updated the README.');
    },
  },
  changelog: {
    mistakes: ['unreleased'],
    work: (r) => {
      r.run(`git log --oneline v${ver(r)}..HEAD`).read('CHANGELOG.md');
      const heading = r.wrong('unreleased') ? `## ${ver(r)}` : '## Unreleased';
      r.edit(
        'CHANGELOG.md',
        `${heading}\n\n- ${r.rng.pick(['Fix', 'Add', 'Speed up'])} ${r.rng.pick(WORDS.noun)} handling`,
      );
      r.say('Added the changelog entry.');
    },
  },
  release: {
    mistakes: ['pnpm', 'unreleased'],
    work: (r) => {
      const v = ver(r);
      r.read('package.json').run(
        r.wrong('pnpm') ? `npm version ${v} --no-git-tag-version` : `pnpm version ${v} --no-git-tag-version`,
      );
      r.edit('CHANGELOG.md', `${r.wrong('unreleased') ? `## ${v}` : '## Unreleased'}\n\n- release ${v}`);
      r.run(`git commit -am "Release ${v}"`)
        .run(`git tag v${v}`)
        .run('git push --follow-tags')
        .say(`Tagged v${v}.`);
    },
  },
  'split-module': {
    mistakes: ['default-export', 'pnpm'],
    work: (r) => {
      const file = fileOf(r);
      const base = file.replace(/\.(tsx?|js)$/, '');
      r.read(file);
      const parts = r.rng.pick([
        ['types', 'parse'],
        ['format', 'validate', 'io'],
        ['core', 'helpers'],
      ]);
      for (const part of parts)
        r.write(
          `${base}/${part}.ts`,
          `${r.exported(`function ${part}(input: Input) {`)}\n  return input;\n}\n`,
        );
      r.write(`${base}/index.ts`, parts.map((p) => `export * from './${p}.js';`).join('\n'));
      r.run(`git rm ${file}`).typecheck().say(`Split ${file} into ${parts.length} modules.`);
    },
  },
  'refactor-fn': {
    mistakes: ['then', 'any', 'pnpm', 'vitest'],
    work: (r) => {
      const fn = fnName(r);
      const file = fileOfFn(fn);
      r.explore([file], fn);
      r.edit(
        file,
        fnCode(r, fn, r.awaited(`fetchRows(input.id)`, 'res.rows.map(toModel)')),
        `export async function ${fn}(input) {`,
      );
      r.verify(0.6).say(`Refactored ${fn} into smaller steps.`);
    },
  },
  'env-config': {
    mistakes: [],
    work: (r) => {
      const env = envOf(r);
      r.grep(env).read('src/config.ts');
      r.edit(
        'src/config.ts',
        `  ${env.toLowerCase()}: requireEnv('${env}'),`,
        `  ${env.toLowerCase()}: 'localhost',`,
      );
      if (r.rng.chance(0.5)) r.edit('.env.example', `${env}=`);
      r.say(`${env} now comes from the environment.`);
    },
  },
  'explain-code': {
    mistakes: [],
    work: (r) => {
      const file = fileOf(r);
      r.read(file);
      if (r.rng.chance(0.5)) r.grep(fnName(r));
      if (r.rng.chance(0.4)) r.read(r.rng.pick(COMMON_READS));
      r.say(`${file} loads the input, validates it and writes the result; the retry is in the caller.`);
    },
  },
  'add-logging': {
    mistakes: ['console'],
    work: (r) => {
      const fn = fnName(r);
      const file = r.st.slots.file !== undefined ? fileOf(r) : fileOfFn(fn);
      r.read(file).edit(
        file,
        `  ${r.logCall(`${fn} started`)}\n  const result = await run(input);\n  ${r.logCall(`${fn} done`)}`,
        '  const result = await run(input);',
      );
      r.say(`Added logging to ${fn}.`);
    },
  },
  'remove-logging': {
    mistakes: [],
    work: (r) => {
      const file = fileOf(r);
      r.grep('console.log').read(file);
      r.edit(file, '', "  console.log('debug', input);");
      if (r.rng.chance(0.4)) r.edit(file, '', "  console.log('result', result);");
      r.say(`Removed the debug logging from ${file}.`);
    },
  },
  perf: {
    mistakes: ['then'],
    work: (r) => {
      const fn = fnName(r);
      const file = fileOfFn(fn);
      r.read(file);
      if (r.rng.chance(0.5)) r.run(`node --cpu-prof dist/bench/${fn}.js`);
      r.edit(
        file,
        `  const byId = new Map(rows.map((row) => [row.id, row]));`,
        '  const found = rows.find((row) => row.id === id);',
      );
      r.verify(0.5).say(`${fn} is about 5x faster now.`);
    },
  },
  caching: {
    mistakes: ['then', 'pnpm'],
    work: (r) => {
      const fn = fnName(r);
      const file = fileOfFn(fn);
      r.read(file);
      if (r.rng.chance(0.4)) r.add('lru-cache');
      r.write('src/lib/cache.ts', 'export const cache = new LRUCache<string, unknown>({ max: 500 });\n');
      r.edit(
        file,
        `  const hit = cache.get(input.id);\n  if (hit) return hit;\n${r.awaited(`load(input.id)`, 'cache.set(input.id, res)')}`,
      );
      r.verify(0.4).say(`Cached ${fn}.`);
    },
  },
  'migration-add-column': {
    mistakes: ['migration-timestamp', 'migration-down', 'pnpm'],
    work: (r) => {
      const table = tableOf(r);
      const col = colOf(r);
      r.run('ls migrations');
      if (r.rng.chance(0.4)) r.read('src/db/schema.ts');
      r.migration(
        `add_${col}_to_${table}`,
        `  await knex.schema.alterTable('${table}', (t) => {\n    t.string('${col}');\n  });`,
        `  await knex.schema.alterTable('${table}', (t) => {\n    t.dropColumn('${col}');\n  });`,
      );
      if (r.rng.chance(0.5)) r.exec('knex migrate:latest');
      r.say(`Added the migration for ${table}.${col}.`);
    },
  },
  'migration-drop-column': {
    mistakes: ['migration-timestamp', 'migration-down', 'pnpm'],
    work: (r) => {
      const table = tableOf(r);
      const col = colOf(r);
      r.run('ls migrations').grep(col);
      r.migration(
        `drop_${col}_from_${table}`,
        `  await knex.schema.alterTable('${table}', (t) => {\n    t.dropColumn('${col}');\n  });`,
        `  await knex.schema.alterTable('${table}', (t) => {\n    t.string('${col}');\n  });`,
      );
      if (r.rng.chance(0.5)) r.exec('knex migrate:latest');
      r.say(`Dropped ${table}.${col} in a migration.`);
    },
  },
  'db-index': {
    mistakes: ['migration-timestamp', 'migration-down', 'pnpm'],
    work: (r) => {
      const table = tableOf(r);
      const col = colOf(r);
      if (r.rng.chance(0.5))
        r.run(`psql "$DATABASE_URL" -c "explain analyze select * from ${table} where ${col} = 1"`);
      r.migration(
        `index_${table}_${col}`,
        `  await knex.schema.alterTable('${table}', (t) => {\n    t.index(['${col}']);\n  });`,
        `  await knex.schema.alterTable('${table}', (t) => {\n    t.dropIndex(['${col}']);\n  });`,
      );
      r.say(`Indexed ${table}.${col}.`);
    },
  },
  docker: {
    mistakes: ['frozen'],
    work: (r) => {
      r.explore(['package.json']);
      r.write(
        'Dockerfile',
        `FROM node:20-alpine\nWORKDIR /app\nCOPY package.json pnpm-lock.yaml ./\n${r.ciInstall('', 'RUN ')}\nCOPY . .\nCMD ["node", "dist/index.js"]\n`,
      );
      r.write('.dockerignore', 'node_modules\ndist\n.git\n');
      if (r.rng.chance(0.4))
        r.write('compose.yaml', 'services:\n  app:\n    build: .\n    ports: ["3000:3000"]\n');
      if (r.rng.chance(0.5)) r.run('docker build -t bench-app .');
      r.say('Added a Dockerfile.');
    },
  },
  'ci-workflow': {
    mistakes: ['frozen'],
    work: (r) => {
      if (r.rng.chance(0.4)) r.glob('.github/workflows/*');
      r.write(
        '.github/workflows/ci.yml',
        `name: ci\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: pnpm/action-setup@v4\n${r.ciInstall('      ', '- run: ')}\n      - run: pnpm test\n`,
      );
      r.say('The workflow runs the tests on every push.');
    },
  },
  'fix-crash': {
    mistakes: ['console', 'dist', 'vitest', 'pnpm'],
    work: (r) => {
      const fn = fnName(r);
      const file = r.st.slots.route !== undefined ? handlerOf(routeOf(r)) : fileOfFn(fn);
      r.grep(r.rng.pick(["reading 'id'", 'ECONNREFUSED', fn])).read(file);
      r.fixIn(file, `  if (!input?.id) {\n    ${r.logCall('missing id')}\n    return null;\n  }`, '');
      r.verify(0.5).say(`${fn} no longer crashes on a missing id.`);
    },
  },
  validation: {
    mistakes: ['any', 'pnpm'],
    work: (r) => {
      const route = routeOf(r);
      const handler = handlerOf(route);
      r.read(handler);
      if (r.rng.chance(0.3)) r.add('zod');
      r.edit(
        handler,
        `const Body = z.object({ name: z.string().min(1) });\n\nexport function parseBody(body: ${r.paramType('unknown')}) {\n  return Body.parse(body);\n}`,
      );
      r.verify(0.5).say(`${route} validates its body.`);
    },
  },
  'error-handling': {
    mistakes: ['console', 'then'],
    work: (r) => {
      const fn = fnName(r);
      const file = fileOfFn(fn);
      r.read(file).edit(
        file,
        `  try {\n${r.awaited('client.send(input)', 'res.body')}\n  } catch (err) {\n    ${r.logCall(`${fn} failed`)}\n    throw new AppError('${fn} failed', { cause: err });\n  }`,
        '  return client.send(input).body;',
      );
      r.verify(0.4).say(`${fn} reports its errors now.`);
    },
  },
  'ts-migrate': {
    mistakes: ['any', 'ts-ignore', 'default-export', 'pnpm'],
    work: (r) => {
      const file = fileOf(r).replace(/\.tsx?$/, '.js');
      const to = file.replace(/\.js$/, '.ts');
      r.read(file).run(`git mv ${file} ${to}`);
      r.edit(
        to,
        `${r.exported(`function main(options: ${r.paramType('Options')}) {`)}`,
        'module.exports = function main(options) {',
      );
      r.typecheck().say(`${to} is TypeScript now.`);
    },
  },
  component: {
    mistakes: ['default-export', 'vitest', 'pnpm'],
    work: (r) => {
      const comp = compOf(r);
      r.explore([`src/components/${r.rng.pick(WORDS.comp)}.tsx`]);
      r.write(
        `src/components/${comp}.tsx`,
        component(r, comp, `    <div className={styles.root}>{props.children}</div>`),
      );
      r.write(`src/components/${comp}.module.css`, '.root {\n  display: flex;\n}\n');
      if (r.rng.chance(0.4))
        r.write(`src/components/${comp}.test.tsx`, `${r.testImports()}\n\ndescribe('${comp}', () => {});\n`);
      r.say(`Added ${comp}.`);
    },
  },
  'dark-mode': {
    mistakes: ['default-export'],
    work: (r) => {
      r.read('src/styles/theme.ts').edit(
        'src/styles/theme.ts',
        "export const dark = { background: '#111', text: '#eee' };",
      );
      r.write(
        'src/components/ThemeToggle.tsx',
        component(r, 'ThemeToggle', '    <button onClick={props.onToggle}>Dark mode</button>'),
      );
      r.edit('src/pages/Settings.tsx', '      <ThemeToggle onToggle={toggleTheme} />');
      r.say('Dark mode can be toggled in the settings.');
    },
  },
  i18n: {
    mistakes: [],
    work: (r) => {
      r.read('src/i18n/en.json').write(
        'src/i18n/de.json',
        '{\n  "save": "Speichern",\n  "cancel": "Abbrechen"\n}\n',
      );
      r.edit('src/i18n/index.ts', "import de from './de.json';\n\nexport const messages = { en, de };");
      r.say('Added German strings.');
    },
  },
  login: {
    mistakes: ['default-export', 'pnpm'],
    work: (r) => {
      r.explore(['src/api/auth.ts']);
      r.write(
        'src/pages/Login.tsx',
        component(
          r,
          'Login',
          '    <form onSubmit={props.onSubmit}>\n      <input type="email" />\n      <input type="password" />\n    </form>',
        ),
      );
      r.edit(
        'src/api/auth.ts',
        "export async function login(email: string, password: string) {\n  return post('/auth/login', { email, password });\n}",
      );
      r.verify(0.3).say('The login page posts to /auth/login.');
    },
  },
  pagination: {
    mistakes: ['cursor'],
    work: (r) => {
      const route = routeOf(r);
      const handler = handlerOf(route);
      r.read(handler);
      r.edit(
        handler,
        r.wrong('cursor')
          ? '  const { limit = 20, offset = 0 } = req.query;\n  const rows = await query.limit(limit).offset(offset);'
          : "  const { limit = 20, cursor } = req.query;\n  const rows = await query.where('id', '>', cursor ?? 0).limit(limit);",
        '  const rows = await query;',
      );
      r.verify(0.4).say(`${route} is paginated.`);
    },
  },
  'rate-limit': {
    mistakes: ['pnpm'],
    work: (r) => {
      const route = routeOf(r);
      const num = r.slot('num', () => '100');
      if (r.rng.chance(0.5)) r.add('@fastify/rate-limit');
      r.write(
        'src/api/middleware/rate-limit.ts',
        `export const limit = rateLimit({ max: ${num}, timeWindow: '1 minute' });\n`,
      );
      r.edit('src/api/routes.ts', `router.use('${route}', limit);`);
      r.say(`${route} is limited to ${num} requests per minute.`);
    },
  },
  'flaky-test': {
    mistakes: ['vitest', 'pnpm'],
    work: (r) => {
      const test = r.slot('test', () => testOf(fileOf(r)));
      r.run(
        `for i in $(seq 1 20); do ${r.wrong('vitest') ? 'npx jest' : 'pnpm vitest run'} ${test} || break; done`,
      );
      r.read(test).edit(
        test,
        '    vi.useFakeTimers();\n    await vi.runAllTimersAsync();',
        '    await sleep(50);',
      );
      r.test(test).say('The test waited on a real timer; it uses fake timers now.');
    },
  },
  gitignore: {
    mistakes: [],
    work: (r) => {
      const dir = r.slot('dir', () => 'coverage/');
      r.read('.gitignore').edit('.gitignore', dir);
      if (r.rng.chance(0.5)) r.run(`git rm -r --cached ${dir}`);
      r.run('git status --short').say(`${dir} is ignored now.`);
    },
  },
  rebase: {
    mistakes: ['force'],
    work: (r) => {
      const branch = branchOf(r);
      r.run('git fetch origin').run(`git rebase origin/main`);
      const file = fileOf(r);
      r.read(file).edit(
        file,
        '  return computeTotal(order, rates);',
        '<<<<<<< HEAD\n  return computeTotal(order);\n=======',
      );
      r.run(`git add ${file}`).run('git rebase --continue').push(branch).say(`Rebased ${branch} on main.`);
    },
  },
  squash: {
    mistakes: ['force'],
    work: (r) => {
      const n = r.slot('num', () => String(r.rng.int(2, 6)));
      const branch = branchOf(r);
      r.run(`git log --oneline -n ${n}`).run(`git reset --soft HEAD~${n}`);
      r.run(`git commit -m "${r.rng.pick(['Rework', 'Add', 'Fix'])} the ${r.rng.pick(WORDS.noun)} flow"`)
        .push(branch)
        .say(`Squashed ${n} commits.`);
    },
  },
  'revert-commit': {
    mistakes: ['force'],
    work: (r) => {
      const sha = r.slot('sha', () => r.rng.hex(8));
      r.run('git log --oneline -n 5');
      if (r.rng.chance(0.5)) r.run(`git revert --no-edit ${sha}`);
      else r.run('git reset --soft HEAD~1');
      if (r.rng.chance(0.4)) r.push(branchOf(r));
      r.say('Reverted it.');
    },
  },
  audit: {
    mistakes: ['pnpm', 'lockfile'],
    work: (r) => {
      r.run(r.wrong('pnpm') ? 'npm audit' : 'pnpm audit');
      const pkg = r.rng.pick(WORDS.pkg);
      r.run(r.wrong('pnpm') ? 'npm audit fix' : 'pnpm audit --fix')
        .update(`${pkg}@latest`)
        .lockEdit(pkg, '9.1.2');
      r.verify(0.6).say('No known vulnerabilities left.');
    },
  },
  'dead-code': {
    mistakes: ['eslint-disable', 'pnpm'],
    work: (r) => {
      r.exec(r.rng.pick(['knip', 'ts-prune']));
      const n = r.rng.int(1, 3);
      for (let i = 0; i < n; i++) {
        const file = fileOf(r);
        r.edit(
          file,
          r.lintFix('  const legacy = oldFormat(input);', ''),
          `export function old${cap(r.rng.pick(WORDS.noun))}() {}`,
        );
      }
      r.typecheck().say(`Removed ${n} unused exports.`);
    },
  },
  'env-example': {
    mistakes: [],
    work: (r) => {
      const env = envOf(r);
      r.read('.env.example').edit('.env.example', `${env}=`).say(`Documented ${env}.`);
    },
  },
  'sql-query': {
    mistakes: [],
    work: (r) => {
      if (r.rng.chance(0.5)) r.read('src/db/schema.ts');
      const n = r.slot('num', () => '10');
      r.say(
        `\`\`\`sql\nselect c.id, c.name, sum(o.amount_cents) as revenue\nfrom customers c join orders o on o.customer_id = c.id\ngroup by c.id, c.name\norder by revenue desc\nlimit ${n};\n\`\`\``,
      );
      if (r.rng.chance(0.3)) r.run('psql "$DATABASE_URL" -f /tmp/top_customers.sql');
    },
  },
  'cron-job': {
    mistakes: ['console', 'default-export'],
    work: (r) => {
      const fn = fnName(r);
      r.read('src/jobs/index.ts').edit('src/jobs/index.ts', `schedule('0 3 * * *', ${fn});`);
      r.write(
        `src/jobs/${fn}.ts`,
        `${r.exported(`async function ${fn}() {`)}\n  const id = 'cron';\n  ${r.logCall(`${fn} ran`)}\n}\n`,
      );
      r.say(`${fn} runs every night.`);
    },
  },
  websocket: {
    mistakes: ['pnpm'],
    work: (r) => {
      r.add('ws').write(
        'src/realtime/socket.ts',
        'export function attach(server: Server) {\n  const wss = new WebSocketServer({ server });\n  return wss;\n}\n',
      );
      r.edit('src/index.ts', 'attach(server);');
      r.say('Live updates go over a websocket.');
    },
  },
  'welcome-email': {
    mistakes: ['then'],
    work: (r) => {
      r.write(
        'src/emails/welcome.ts',
        `export async function sendWelcome(user: User) {\n${r.awaited("mailer.send({ to: user.email, template: 'welcome' })", 'res.id')}\n}\n`,
      );
      r.edit('src/api/signup.ts', '  await sendWelcome(user);');
      r.say('New users get a welcome email.');
    },
  },
  's3-upload': {
    mistakes: ['then', 'pnpm'],
    work: (r) => {
      r.add('@aws-sdk/client-s3');
      r.write(
        'src/storage/s3.ts',
        `export async function upload(key: string, body: Buffer) {\n${r.awaited('s3.send(new PutObjectCommand({ Bucket, Key: key, Body: body }))', 'res.ETag')}\n}\n`,
      );
      r.edit(
        'src/api/handlers/uploads.ts',
        '  const etag = await upload(file.name, file.data);',
        '  await fs.writeFile(path, file.data);',
      );
      r.say('Uploads go to S3.');
    },
  },
  'feature-flag': {
    mistakes: [],
    work: (r) => {
      const flag = flagOf(r);
      r.read('src/config/flags.ts').edit('src/config/flags.ts', `  '${flag}': false,`);
      r.edit(fileOf(r), `  if (flags.isEnabled('${flag}')) {\n    return next(input);\n  }`);
      r.say(`${flag} is behind a flag (off by default).`);
    },
  },
  'enable-flag': {
    mistakes: [],
    work: (r) => {
      const flag = flagOf(r);
      r.read('config/flags.production.json').edit(
        'config/flags.production.json',
        `  "${flag}": true,`,
        `  "${flag}": false,`,
      );
      r.say(`${flag} is on in production.`);
    },
  },
  'disable-flag': {
    mistakes: [],
    work: (r) => {
      const flag = flagOf(r);
      r.read('config/flags.production.json').edit(
        'config/flags.production.json',
        `  "${flag}": false,`,
        `  "${flag}": true,`,
      );
      r.say(`${flag} is off in production.`);
    },
  },
  'api-docs': {
    mistakes: ['pnpm'],
    work: (r) => {
      if (r.rng.chance(0.5)) r.exec('typedoc --out docs/api src/index.ts');
      else r.write('docs/api.md', `# API\n\n## ${routeOf(r)}\n\nReturns the list.\n`);
      r.say('The API docs are in docs/.');
    },
  },
  'bundle-size': {
    mistakes: ['dist', 'pnpm'],
    work: (r) => {
      r.script('build', '--mode analyze').read('vite.config.ts');
      r.edit('vite.config.ts', "      manualChunks: { vendor: ['react', 'react-dom'] },");
      r.fixIn(
        'src/pages/Reports.tsx',
        "const Chart = lazy(() => import('./Chart'));",
        "import Chart from './Chart';",
      );
      r.script('build').say('The main bundle is 40% smaller.');
    },
  },
  'memory-leak': {
    mistakes: ['console'],
    work: (r) => {
      const fn = fnName(r);
      const file = fileOfFn(fn);
      if (r.rng.chance(0.5)) r.run('node --inspect --heapsnapshot-near-heap-limit=2 dist/worker.js');
      r.read(file).edit(file, `  emitter.off('data', onData);\n  ${r.logCall('listener removed')}`, '');
      r.say(`${fn} left a listener behind on every call.`);
    },
  },
  timezone: {
    mistakes: ['vitest', 'pnpm'],
    work: (r) => {
      const fn = fnName(r);
      const file = fileOfFn(fn);
      r.read(file).edit(
        file,
        "  return dayjs.utc(date).format('YYYY-MM-DD');",
        "  return dayjs(date).format('YYYY-MM-DD');",
      );
      r.test(testOf(file)).say(`${fn} formats in UTC now.`);
    },
  },
};

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

/** A follow-up that is not a correction with a check (some look like one), and what the agent does. */
export interface FollowUp {
  text: string;
  /** `slots`: the follow-up's own details ({file}, {fn}, {error}). */
  work: (r: Reply, slots: Readonly<Record<string, string>>) => void;
}

/** The files the replies so far wrote or edited (relative), latest last. */
function touchedFiles(st: WorkState): string[] {
  return [
    ...new Set(st.done.filter((a) => a.kind === 'write' || a.kind === 'edit').map((a) => rel(a.target))),
  ];
}

/** The source file the replies worked on last (not a lockfile, manifest or doc). */
function lastTouched(r: Reply): string {
  return (
    touchedFiles(r.st)
      .filter((f) => /\.(tsx?|js)$/.test(f) && !f.startsWith('dist/'))
      .at(-1) ?? fileOf(r)
  );
}

// prettier-ignore
export const FOLLOW_UPS: readonly FollowUp[] = [
  { text: 'now do the same for {file}', work: (r, slots) => { const last = [...r.st.done].reverse().find((a) => a.kind === 'edit' || a.kind === 'write'); r.read(unquote(slots.file ?? fileOf(r))).edit(unquote(slots.file ?? fileOf(r)), last?.added ?? ''); } },
  { text: 'also add a test for it', work: (r) => { const f = testOf(lastTouched(r)); r.write(f, `${r.testImports()}\n\ndescribe('${r.rng.pick(WORDS.noun)}', () => {\n  it('works', () => {});\n});\n`).test(f); } },
  { text: 'commit it', work: (r) => { r.run('git add -A').run(`git commit -m "${r.rng.pick(['Update', 'Change', 'Tweak'])} ${r.rng.pick(WORDS.noun)} handling"`); } },
  { text: 'ok now run the tests', work: (r) => { r.test(); } },
  { text: 'can you also update the types?', work: (r) => { r.read('src/types.ts').edit('src/types.ts', `  ${r.rng.pick(WORDS.noun)}Id?: string;`); } },
  { text: 'looks good, what about the error handling?', work: (r) => { r.edit(lastTouched(r), "  if (!input) throw new Error('missing input');"); } },
  { text: 'still failing: {error}', work: (r) => { r.test().read(lastTouched(r)).edit(lastTouched(r), '  if (!row) return null;'); } },
  { text: 'it compiles but {fn} returns undefined now', work: (r) => { r.read(lastTouched(r)).edit(lastTouched(r), '  return result;', '  result;'); } },
  { text: 'great, now update the docs', work: (r) => { r.edit(r.rng.pick(['README.md', 'docs/usage.md']), `See \`${r.rng.pick(WORDS.noun)}\` for details.`); } },
  { text: 'and the CHANGELOG too', work: (r) => { r.edit('CHANGELOG.md', `- ${r.rng.pick(WORDS.noun)} handling`); } },
  { text: "don't worry about the docs for now", work: (r) => { r.say('Ok, leaving the docs.'); } },
  { text: 'I have never seen this error before', work: (r) => { r.read(lastTouched(r)).say('It comes from the retry wrapper.'); } },
  { text: "that's not right, try again", work: (r) => { r.edit(lastTouched(r), `  return ${r.rng.pick(['items.filter(Boolean)', 'rows[0] ?? null', 'values.slice(0, limit)'])};`, '  return items;'); } },
  { text: 'no, not like that', work: (r) => { r.edit(lastTouched(r), `  const value = ${r.rng.pick(['input.value', 'defaults.value', 'options.value ?? 0'])};`, '  const value = input;'); } },
  { text: "it's not working", work: (r) => { r.verify(1).read(lastTouched(r)); } },
  { text: 'use the same approach as before', work: (r) => { r.edit(lastTouched(r), '  return withRetry(() => send(input));'); } },
  { text: 'always the same error', work: (r) => { r.test().edit(lastTouched(r), '  await ready;'); } },
  { text: 'why do you always do that?', work: (r) => { r.say('Sorry, I read the old config first.'); } },
  { text: "don't forget the tests", work: (r) => { r.test(); } },
  { text: 'never mind, it works', work: (r) => { r.say('Great.'); } },
  { text: "don't bother with the changelog", work: (r) => { r.say('Ok.'); } },
  { text: 'no, I meant {file}, not the other one', work: (r, slots) => { const f = lastTouched(r); const last = [...r.st.done].reverse().find((a) => a.kind === 'edit' || a.kind === 'write'); r.run(`git checkout -- ${f}`).edit(unquote(slots.file ?? fileOf(r)), last?.added ?? '  return next(input);'); } },
  { text: 'keep it in one file please', work: (r) => { const files = touchedFiles(r.st); if (files.length > 1) r.run(`git rm -f ${files.at(-1) ?? ''}`); r.edit(files[0] ?? fileOf(r), '// merged\n'); } },
  { text: "don't change anything else", work: (r) => { const files = touchedFiles(r.st); if (files.length > 1) r.run(`git checkout -- ${files.at(-1) ?? ''}`); r.say('Only the one change remains.'); } },
  { text: 'always run the tests before you say it is done', work: (r) => { r.test(); } },
];

// prettier-ignore
export const THANKS = ['thanks, works now', 'great, that fixed it', 'perfect, thanks', 'lgtm', 'works, thank you!', 'nice, ship it'];

/**
 * What the miner should make of a correction: each matcher must be met by a check it gives. A matcher
 * only counts for a session whose first answer shows what it is about: an exact check that answer
 * fails (`check`), or the mistake's pattern in it (`shows`). "Use pnpm instead of npm" after an
 * answer that only ran `npx tsc` teaches "contains pnpm"; nothing in that answer says the word npm.
 */
export interface CheckMatcher {
  /** Shown in diagnostics. */
  name: string;
  test: (check: Check) => boolean;
  check?: Check;
  shows?: RegExp;
}

/** The check itself, or one of the same op with an alternative argument (`Signed-off-by` without its colon). */
const exact = (check: Check, ...alternatives: string[]): CheckMatcher => ({
  name: `${check.op} ${String(check.arg)}`,
  check,
  test: (c) => c.op === check.op && [String(check.arg ?? ''), ...alternatives].includes(String(c.arg ?? '')),
});

/** A user correction of one convention, and how the agent redoes its work after it. */
export interface CorrectionKind {
  /** Also the id of the mistake it corrects. */
  id: string;
  phrasings: readonly string[];
  /** Phrasings a plain reader is not expected to understand (kept, so recall stays honest). */
  hard?: readonly string[];
  expected: readonly CheckMatcher[];
  /** Other checks that state the same rule (the "use the logger" of a console.log correction): not wrong, not required. */
  allowed?: readonly CheckMatcher[];
  /** Conventions that must be right for this mistake to be made (the lockfile of pnpm). */
  requires?: readonly string[];
  /** The reply to the correction: redoes the earlier replies' affected steps the right way. */
  redo: (r: Reply) => void;
}

/** Earlier actions (deduplicated by kind and target, latest kept) that match. */
function earlier(st: WorkState, keep: (a: ToolAction) => boolean): ToolAction[] {
  const found = new Map<string, ToolAction>();
  for (const a of st.done) if (keep(a)) found.set(`${a.kind}\u0000${a.target}`, a);
  return [...found.values()].slice(-6);
}

/** Re-edits every earlier write or edit whose text has `bad`, with `fix` applied to the offending lines. */
function reedit(r: Reply, bad: RegExp, fix: (line: string) => string): void {
  for (const a of earlier(r.st, (x) => (x.kind === 'write' || x.kind === 'edit') && bad.test(x.added))) {
    const lines = a.added.split('\n');
    const at = lines.findIndex((l) => bad.test(l));
    const from = Math.max(0, at - 1);
    const to = Math.min(lines.length, at + 2);
    const old = lines.slice(from, to).join('\n');
    const fixed = lines
      .slice(from, to)
      .map((l) => (bad.test(l) ? fix(l) : l))
      .join('\n');
    r.edit(rel(a.target), fixed, old);
  }
}

/** `npm install -D x` → `pnpm add -D x`, `npx tsc` → `pnpm exec tsc`, … */
function toPnpm(command: string): string {
  return command
    .replace(/\bnpm install (?=\S)/g, 'pnpm add ')
    .replace(/\bnpm uninstall\b/g, 'pnpm remove')
    .replace(/\bnpm run\b/g, 'pnpm')
    .replace(/\bnpm audit fix\b/g, 'pnpm audit --fix')
    .replace(/\bnpx\b/g, 'pnpm exec')
    .replace(/\bnpm\b/g, 'pnpm');
}

const runs = (pattern: RegExp) => (a: ToolAction) => a.kind === 'run' && pattern.test(a.target);

// prettier-ignore
export const CORRECTIONS: readonly CorrectionKind[] = [
  {
    id: 'pnpm',
    phrasings: ['use pnpm instead of npm', 'no, use pnpm, not npm', 'prefer pnpm over npm', 'instead of npm, use pnpm please', 'this repo uses pnpm, not npm'],
    hard: ['stop using npm, we use pnpm here'],
    expected: [exact({ op: 'contains', arg: 'pnpm' }), exact(negativeWordCheck('npm'))],
    redo: (r) => {
      const old = earlier(r.st, runs(/\b(npm|npx)\b/));
      if (r.rng.chance(0.3)) {
        const installed = old.flatMap((a) => /\bnpm install (?:-D )?(\S+)/.exec(a.target)?.[1] ?? []);
        if (installed.length > 0) r.run(`npm uninstall ${installed.join(' ')}`);
        r.run('rm -f package-lock.json');
      }
      for (const a of old) r.run(toPnpm(a.target));
      r.say(r.rng.pick(['Switched to pnpm.', 'Redone with pnpm.', 'Done, using pnpm now.']));
    },
  },
  {
    id: 'vitest',
    phrasings: ['use vitest, not jest', 'no, use vitest not jest', 'we run the tests with vitest, not jest'],
    expected: [exact({ op: 'contains', arg: 'vitest' }), exact(negativeWordCheck('jest'))],
    allowed: [exact({ op: 'contains', arg: 'vitest run' })],
    redo: (r) => {
      reedit(r, /@jest\/globals/, (l) => l.replace('@jest/globals', 'vitest'));
      for (const a of earlier(r.st, runs(/\bjest\b/))) r.run(a.target.replace(/\b(npx|pnpm) jest\b/, (_, p: string) => `${p} vitest run`).replace(/\bjest\b/, 'vitest run'));
      r.say('Now with vitest.');
    },
  },
  {
    id: 'dist',
    phrasings: ['never edit `dist/`', "don't touch dist/, it is generated", 'please do not modify `dist/`', 'dist/ is build output, never edit it'],
    expected: [exact(negativeWordCheck('dist/'))],
    redo: (r) => {
      const edits = earlier(r.st, (a) => a.kind === 'edit' && rel(a.target).startsWith('dist/'));
      const inSrc = new Set(earlier(r.st, (a) => a.kind === 'edit').map((a) => rel(a.target)));
      r.run(r.rng.pick(['git checkout -- dist/', 'git restore dist/']));
      for (const a of edits) {
        const source = `src/${rel(a.target).slice('dist/'.length).replace(/\.js$/, '.ts')}`;
        if (!inSrc.has(source)) r.edit(source, a.added, a.removed);
      }
      if (r.rng.chance(0.5)) r.script('build');
      r.say('Reverted dist/ and made the change in src/.');
    },
  },
  {
    id: 'refs',
    phrasings: ['always include "Refs: #" in the message', 'always add `Refs: #` at the end', 'the message needs a `Refs: #` line'],
    expected: [exact({ op: 'contains', arg: 'Refs: #' })],
    redo: (r) => redoCommit(r, 'refs'),
  },
  {
    id: 'signoff',
    phrasings: ['always add `Signed-off-by:` to commits', 'commits need a `Signed-off-by:` trailer'],
    expected: [exact({ op: 'contains', arg: 'Signed-off-by:' }, 'Signed-off-by')],
    redo: (r) => redoCommit(r, 'signoff'),
  },
  {
    id: 'imperative',
    phrasings: ['use the imperative mood in the commit subject', 'commit subjects in the imperative please, not past tense', 'no past tense in the subject line'],
    hard: ["write it like you're giving an order"],
    expected: [{ name: 'no past-tense first word', shows: /```\n[A-Z][a-z]+ed /, test: (c) => c.op === 'regex' && String(c.arg).startsWith('(?i)^(?!') && String(c.arg).includes('ed\\b') }],
    redo: (r) => redoCommit(r, 'imperative'),
  },
  {
    id: 'any',
    phrasings: ["don't use `any`", 'never use `any` in types', 'no `any` please, type it properly'],
    expected: [exact(negativeWordCheck('any'))],
    allowed: [exact({ op: 'contains', arg: 'unknown' })],
    redo: (r) => {
      reedit(r, /\bany\b/, (l) => l.replace(/\bany\b/, r.rng.pick(['unknown', 'Input', 'Record<string, unknown>'])));
      r.verify(0.5).say('Typed it properly.');
    },
  },
  {
    id: 'ts-ignore',
    phrasings: ["don't use `@ts-ignore`, fix the type", 'never silence errors with `@ts-ignore`'],
    expected: [exact(negativeWordCheck('@ts-ignore'))],
    redo: (r) => {
      for (const a of earlier(r.st, (x) => (x.kind === 'edit' || x.kind === 'write') && x.added.includes('@ts-ignore'))) {
        const fixed = a.added.replace(/ *\/\/ @ts-ignore\n(.*)/, (_, line: string) =>
          line.includes("'./config'") ? line.replace("'./config'", "'./config.js'") : line.replace(/;$/, ' ?? 0;'),
        );
        r.edit(rel(a.target), fixed, a.added);
      }
      r.typecheck().say('Fixed the type instead.');
    },
  },
  {
    id: 'console',
    phrasings: ["don't leave `console.log` calls in", 'never use `console.log`, use the logger', 'no console.log in production code'],
    hard: ['use the existing `logger` instead of `console.log`'],
    expected: [exact(negativeWordCheck('console.log'))],
    allowed: [exact({ op: 'contains', arg: 'logger' }), exact({ op: 'contains', arg: 'logger.info' })],
    redo: (r) => {
      reedit(r, /console\.log/, (l) => l.replace(/console\.log\('([^']*)', \{ id \}\)/, "logger.info({ id }, '$1')"));
      r.say('Using the logger now.');
    },
  },
  {
    id: 'lockfile',
    phrasings: ["don't touch `pnpm-lock.yaml`", 'never edit `pnpm-lock.yaml` by hand'],
    hard: ['the lockfile is generated, leave it alone'],
    requires: ['pnpm'],
    expected: [exact(negativeWordCheck('pnpm-lock.yaml'))],
    redo: (r) => {
      r.run(r.rng.pick(['git checkout -- pnpm-lock.yaml', 'git restore pnpm-lock.yaml'])).install();
      r.say('Reverted the lockfile and let pnpm write it.');
    },
  },
  {
    id: 'default-export',
    phrasings: ["don't use `export default`", 'never use `export default` here', 'named exports only, no `export default`'],
    expected: [exact(negativeWordCheck('export default'))],
    redo: (r) => {
      reedit(r, /export default /, (l) => l.replace('export default ', 'export '));
      r.say('Switched to named exports.');
    },
  },
  {
    id: 'then',
    phrasings: ['use async/await instead of .then chains', 'no `.then()` chains, use await', 'please write it with await, not .then'],
    expected: [exact(negativeWordCheck('.then'))],
    allowed: [exact({ op: 'contains', arg: 'await' })],
    redo: (r) => {
      reedit(r, /\.then\(/, (l) => l.replace(/return (.*)\.then\(\(res\) => (.*)\);/, 'const res = await $1;\n  return $2;'));
      r.verify(0.4).say('Rewritten with await.');
    },
  },
  {
    id: 'frozen',
    phrasings: ['always pass `--frozen-lockfile`', 'install with `--frozen-lockfile` in CI'],
    requires: ['pnpm'],
    expected: [exact({ op: 'contains', arg: '--frozen-lockfile' })],
    redo: (r) => {
      reedit(r, /pnpm install$/m, (l) => `${l} --frozen-lockfile`);
      r.say('Added --frozen-lockfile.');
    },
  },
  {
    id: 'force',
    phrasings: ['use `--force-with-lease`, never a plain `--force`', 'push with `--force-with-lease` please'],
    expected: [exact({ op: 'contains', arg: '--force-with-lease' })],
    redo: (r) => {
      for (const a of earlier(r.st, runs(/git push --force /))) r.run(a.target.replace('--force ', '--force-with-lease '));
      r.say('Pushed with --force-with-lease.');
    },
  },
  {
    id: 'migration-timestamp',
    phrasings: ['name migrations with a timestamp prefix, not a sequence number', 'migration files need a timestamp prefix like the others'],
    hard: ['use the date-based naming for these'],
    expected: [{ name: 'regex migrations/\\d{14}_', shows: /migrations\/\d{4}_/, test: (c) => c.op === 'regex' && String(c.arg).includes('\\d{14}') }],
    redo: (r) => {
      for (const a of earlier(r.st, (x) => x.kind === 'write' && /^migrations\/\d{4}_/.test(rel(x.target)))) {
        const from = rel(a.target);
        const to = from.replace(/^migrations\/\d{4}_/, `migrations/${timestamp(r.rng)}_`);
        if (r.rng.chance(0.6)) r.run(`git mv ${from} ${to}`);
        else r.write(to, a.added).run(`rm ${from}`);
      }
      r.say('Renamed the migration.');
    },
  },
  {
    id: 'migration-down',
    phrasings: ['the down migration must revert the change, not be empty', 'write a real `down` that undoes it'],
    expected: [{ name: 'regex: no empty down', shows: /nothing to undo/, test: (c) => c.op === 'regex' && /down|nothing to undo/.test(String(c.arg)) }],
    redo: (r) => {
      for (const a of earlier(r.st, (x) => x.kind === 'write' && x.added.includes('// nothing to undo'))) {
        const up = /async function up[^\n]*\n([\s\S]*?)\n\}/.exec(a.added)?.[1] ?? '';
        const down = up.includes('dropColumn') ? up.replace(/t\.dropColumn\('(\w+)'\)/, "t.string('$1')") : up.replace(/t\.string\(/, 't.dropColumn(').replace(/t\.index\(/, 't.dropIndex(');
        const header = 'export async function down(knex: Knex): Promise<void> {';
        r.edit(rel(a.target), `${header}\n${down}\n}`, `${header}\n  // nothing to undo\n}`);
      }
      r.say('The down migration reverts it now.');
    },
  },
  {
    id: 'eslint-disable',
    phrasings: ["don't silence the linter with `eslint-disable`, fix the code", 'no `eslint-disable` comments please'],
    expected: [exact(negativeWordCheck('eslint-disable'))],
    redo: (r) => {
      for (const a of earlier(r.st, (x) => x.kind === 'edit' && x.added.includes('eslint-disable'))) r.edit(rel(a.target), '  void input.id;', a.added);
      r.script('lint').say('Fixed the code instead.');
    },
  },
  {
    id: 'unreleased',
    phrasings: ['changelog entries go under `## Unreleased`', 'put it under `## Unreleased`, not a version heading'],
    expected: [exact({ op: 'contains', arg: '## Unreleased' })],
    redo: (r) => {
      reedit(r, /^## \d/m, () => '## Unreleased');
      r.say('Moved it under Unreleased.');
    },
  },
  {
    id: 'cursor',
    phrasings: ['use cursor pagination, not `offset`', 'no `offset` paging, use a cursor'],
    expected: [exact({ op: 'contains', arg: 'cursor' }), exact(negativeWordCheck('offset'))],
    allowed: [exact({ op: 'contains', arg: 'cursor pagination' })],
    redo: (r) => {
      reedit(r, /offset/, (l) => l.replace('offset = 0', 'cursor').replace('.limit(limit).offset(offset)', ".where('id', '>', cursor ?? 0).limit(limit)"));
      r.say('Cursor pagination now.');
    },
  },
];

/** The commit message again, with the convention right; amended when it was committed. */
function redoCommit(r: Reply, fixed: string): void {
  const committed = r.st.done.some((a) => a.kind === 'run' && a.target.startsWith('git commit'));
  if (r.st.commit === undefined) {
    r.commitMessage(committed);
    return;
  }
  r.say(`${r.rng.pick(['Updated:', 'Here it is again:', 'Fixed:'])}\n\n\`\`\`\n${r.commitText()}\n\`\`\``);
  if (committed)
    r.run(
      fixed === 'signoff'
        ? 'git commit --amend -s --no-edit'
        : `git commit --amend -m "${r.commitSubject()}"`,
    );
}

/** Mistakes a type's work can show, and the corrections that can be planted there. */
export function correctionsFor(typeId: string): CorrectionKind[] {
  const mistakes = TYPE_WORK[typeId]?.mistakes ?? [];
  return CORRECTIONS.filter((c) => mistakes.includes(c.id));
}
