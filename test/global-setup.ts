// End-to-end tests spawn the built CLI, so build it once before the run (tsc only; a few seconds).
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  execFileSync('node', ['scripts/postbuild.mjs'], { stdio: 'inherit' });
  // The corpus generator in bench/ feeds the redaction end-to-end test.
  execFileSync('npx', ['tsc', '-p', 'bench/tsconfig.bench.json'], { stdio: 'inherit' });
}
