/** What the agent does first for the other task types (CI, crashes, features, docs, ops). */
import {
  WORDS,
  cap,
  testOf,
  fnName,
  fileOfFn,
  fileOf,
  routeOf,
  handlerOf,
  flagOf,
  envOf,
  branchOf,
  compOf,
  component,
  type TypeWork,
} from './mine-work.js';
export const REST_TYPE_WORK: Readonly<Record<string, TypeWork>> = {
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
