// Test-only preload (`node --import module-log.mjs …`, test/e2e/startup-modules.test.ts): logs every
// module the process loads to the file $MODULE_LOG, one a line: ESM URLs as they resolve, then at exit
// the CommonJS files (which a package's own `require`s load without passing the ESM hooks).
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

const log = process.env.MODULE_LOG;
if (log) {
  register('./module-log-hooks.mjs', import.meta.url, { data: { log } });
  const cjs = createRequire(import.meta.url).cache;
  process.on('exit', () => {
    const files = Object.keys(cjs).map((f) => pathToFileURL(f).href);
    if (files.length > 0) appendFileSync(log, `${files.join('\n')}\n`);
  });
}
