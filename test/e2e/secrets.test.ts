import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox } from './cli-helpers.js';

const GENERATOR = path.resolve(import.meta.dirname, '../../bench/out/js/bench/gen-corpus.js');

describe('privacy at ingest', () => {
  it('no planted secret from any of the four sources reaches the store', () => {
    const box = sandbox();
    const corpus = path.join(box.root, 'corpus');
    execFileSync(
      process.execPath,
      [GENERATOR, '--out', corpus, '--mb', '3', '--seed', '7', '--secret-rate', '0.3'],
      {
        stdio: 'ignore',
      },
    );
    const r = runCli(box, ['harvest', '--json', '--scope', 'all', '--lookback-hours', '0'], {
      HOME: path.join(corpus, 'home'),
    });
    expect(r.code, r.stderr).toBe(0);
    const sources = r.json().sources as Record<string, { new: number }>;
    for (const id of ['claude', 'codex', 'copilot', 'copilot-cli'])
      expect(sources[id]?.new).toBeGreaterThan(0);

    const planted = readFileSync(path.join(corpus, 'planted-secrets.txt'), 'utf8')
      .split('\n')
      .filter((s) => s.length >= 8);
    expect(planted.length).toBeGreaterThan(20);
    const store = path.join(box.stateHome, 'store.sqlite');
    const bytes = [store, `${store}-wal`]
      .map((f) => {
        try {
          return readFileSync(f).toString('latin1');
        } catch {
          return '';
        }
      })
      .join('');
    expect(bytes).toContain('REDACTED');
    const leaked = planted.filter((secret) => bytes.includes(secret));
    expect(leaked).toEqual([]);
  });
});
