/** What the agent does first for dependency, commit, test, build, endpoint, refactor, logging and migration tasks. */
import {
  WORDS,
  COMMON_READS,
  cap,
  testOf,
  fnName,
  fileOfFn,
  fileOf,
  routeOf,
  handlerOf,
  ver,
  tableOf,
  colOf,
  envOf,
  branchOf,
  fnCode,
  type TypeWork,
} from './mine-work.js';
export const FIRST_TYPE_WORK: Readonly<Record<string, TypeWork>> = {
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
};
