/** The README tells a newcomer what compiling the native store dependency needs, when npm must. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

it('names what building better-sqlite3 from source needs, in the quick start', () => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  expect(pkg.dependencies['better-sqlite3']).toBeDefined(); // the native dependency the line is about
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## Commands'));
  const line = quickStart.slice(quickStart.indexOf('Troubleshooting'));
  expect(line).toContain('better-sqlite3');
  for (const need of ['python3', 'make', 'C++ compiler']) expect(line).toContain(need);
});
