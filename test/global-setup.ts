// End-to-end tests spawn the built CLI, so dist must match the sources. CI (and `npm ci`'s `prepare`)
// has built it already: the build runs only when a source file is newer than the last build's stamp.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const STAMP = path.join(ROOT, 'dist', '.build-stamp');
const INPUTS = ['src', 'harvesters', 'proposals', 'bench', 'scripts', 'templates'];
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'bench/tsconfig.bench.json'];

/** The newest modification time of any build input (sources, configs). */
function newestInput(): number {
  let newest = 0;
  const visit = (p: string): void => {
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p))
        if (name !== 'out' && name !== 'node_modules') visit(path.join(p, name));
    } else newest = Math.max(newest, st.mtimeMs);
  };
  for (const p of [...INPUTS, ...CONFIGS]) if (existsSync(path.join(ROOT, p))) visit(path.join(ROOT, p));
  return newest;
}

export default function setup(): void {
  const newest = newestInput();
  if (existsSync(STAMP) && statSync(STAMP).mtimeMs >= newest) return;
  const started = Date.now();
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit', cwd: ROOT });
  execFileSync('node', ['scripts/postbuild.mjs'], { stdio: 'inherit', cwd: ROOT });
  // The corpus generator in bench/ feeds the redaction end-to-end test.
  execFileSync('npx', ['tsc', '-p', 'bench/tsconfig.bench.json'], { stdio: 'inherit', cwd: ROOT });
  // Stamped with the build's start: a file saved during the build makes the next run build again.
  writeFileSync(STAMP, '');
  utimesSync(STAMP, new Date(started), new Date(started));
}
