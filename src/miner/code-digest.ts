/**
 * A digest of the code that mining runs: `mine` and every module it imports, followed through their
 * relative imports. What is stored from an earlier mining (per-session features, a project's mined
 * tasks) is only reused under the same digest, so a new version of any of that code derives it again,
 * with no version number to remember to bump.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** `from './x.js'`, `import './x.js'`, `import('./x.js')`: the relative specifiers of a module. */
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

let known: string | undefined;

/** The digest of the miner's code as installed (computed once per process). */
export function minerCodeDigest(): string {
  // The config's correction patterns reach the miner compiled: their compiler is part of its code;
  // and a stored result is read back through the module that splits its answer texts off.
  known ??= codeDigest(
    [
      './mine.js',
      './session-features.js',
      './correction-user-patterns.js',
      '../night/mined-answer-texts.js',
    ].map(entryFile),
  );
  return known;
}

function entryFile(specifier: string): string {
  return resolveModule(path.dirname(fileURLToPath(import.meta.url)), specifier);
}

/**
 * Hashes the files reachable from `entries` by relative imports, in a stable order (paths relative to
 * the first entry's folder, so the same code hashes the same wherever it is installed).
 */
export function codeDigest(entries: readonly string[]): string {
  const base = path.dirname(entries[0] ?? '.');
  const seen = new Set<string>();
  const queue = [...entries];
  const hash = createHash('sha256');
  const files: Array<[string, string]> = [];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    files.push([path.relative(base, file), text]);
    for (const m of text.matchAll(RELATIVE_IMPORT)) {
      const resolved = resolveModule(path.dirname(file), m[1] as string);
      if (!seen.has(resolved)) queue.push(resolved);
    }
  }
  files.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (const [name, text] of files) hash.update(`${name}\0${text.length}\0${text}\0`);
  return hash.digest('hex').slice(0, 16);
}

/** A `.js` specifier names the compiled file; run from the sources (tests), it is the `.ts` beside it. */
function resolveModule(dir: string, specifier: string): string {
  const file = path.resolve(dir, specifier);
  if (existsSync(file) || !file.endsWith('.js')) return file;
  return `${file.slice(0, -3)}.ts`;
}
