// End-to-end tests spawn the built CLI, so dist must match the sources. `npm run build` (and `npm ci`'s
// `prepare`) stamps dist; the setup builds only when a source file is newer than that stamp.
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

const BENCH_STAMP = path.join(ROOT, 'bench', 'out', '.build-stamp');

/** Runs `build` when an input is newer than its stamp; the build writes the stamp itself. */
function whenStale(stamp: string, newest: number, build: () => void): void {
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= newest) return;
  build();
}

export default function setup(): void {
  const newest = newestInput();
  // The CLI, as `npm run build` (and `npm ci`'s prepare) builds and stamps it: CI builds it once.
  whenStale(STAMP, newest, () =>
    execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit', cwd: ROOT }),
  );
  // The corpus generator in bench/ feeds the redaction end-to-end test (incremental, its own stamp).
  whenStale(BENCH_STAMP, newest, () => {
    const started = new Date();
    execFileSync('npx', ['tsc', '-p', 'bench/tsconfig.bench.json'], { stdio: 'inherit', cwd: ROOT });
    writeFileSync(BENCH_STAMP, '');
    utimesSync(BENCH_STAMP, started, started);
  });
}
