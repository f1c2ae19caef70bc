/** Shared steps of the install e2e tests: a home holding the user's own config, and byte checks. */
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { runCli, type Sandbox } from './cli-helpers.js';

/** Writes `files` (relative to `base`) and returns their bytes, to compare later. */
export function seed(base: string, files: Record<string, string>, mode = 0o640): Record<string, string> {
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(base, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text, { mode });
  }
  return files;
}

/** Every file under `dir` with its bytes and mode: the whole tree, to see that nothing else moved. */
export function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) {
        out[`${path.relative(dir, p)}/`] = (st.mode & 0o777).toString(8);
        walk(p);
      } else out[path.relative(dir, p)] = `${(st.mode & 0o777).toString(8)} ${readFileSync(p, 'utf8')}`;
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** The text of `after` outside the one contiguous region that differs from `before` is `before`'s. */
export function onlyInserted(before: string, after: string): string {
  let head = 0;
  while (head < before.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail])
    tail++;
  expect(head + tail, 'every byte of the original survives around one inserted block').toBe(before.length);
  return after.slice(head, after.length - tail);
}

export async function cli(box: Sandbox, args: string[]): Promise<Record<string, unknown>> {
  const r = await runCli(box, [...args, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return r.json();
}

export const actions = (out: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(
    (out.files as { path: string; action: string }[]).map((f) => [path.basename(f.path), f.action]),
  );
