import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, sandbox, type Sandbox, storeBytes } from './cli-helpers.js';
import { CORPUS_PATTERNS, plantedCounts, writeRedactionCorpus } from './redaction-corpus.js';

function writeUserConfig(box: Sandbox, config: unknown): void {
  mkdirSync(box.stateHome, { recursive: true });
  writeFileSync(path.join(box.stateHome, 'config.json'), JSON.stringify(config));
}

type Sources = Record<string, { redactions: Record<string, number> }>;
const redactionsOf = (sources: Sources): Record<string, Record<string, number>> =>
  Object.fromEntries(
    Object.entries(sources)
      .filter(([, s]) => Object.keys(s.redactions).length > 0)
      .map(([id, s]) => [id, s.redactions]),
  );

describe('the redaction report', () => {
  it('counts the planted values per source and kind, stores none of them, and status sums every harvest', async () => {
    const box = sandbox();
    writeUserConfig(box, { redact_patterns: CORPUS_PATTERNS });
    const corpus = writeRedactionCorpus(box.home);
    const expected = plantedCounts(corpus.planted);
    expect(expected.claude).toEqual({
      'openai-key': 3,
      'github-token': 2,
      password: 1,
      'acme-id': 3,
      custom: 1,
    });
    expect(expected.codex).toEqual({ 'openai-key': 2, 'github-token': 1, password: 2, 'acme-id': 1 });

    const first = await runCli(box, ['harvest', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(redactionsOf(first.json().sources as Sources)).toEqual(expected);
    const text = await runCli(box, ['status']);
    expect(text.code, text.stderr).toBe(0);

    // An append reads the session's last turn (with three values) again: only the new value counts.
    const added = corpus.appendClaude();
    const second = await runCli(box, ['harvest', '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(redactionsOf(second.json().sources as Sources)).toEqual({ claude: { [added.kind]: 1 } });
    const plain = await runCli(box, ['harvest']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).not.toContain('redacted'); // nothing new: no redaction line

    const status = await runCli(box, ['status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    const totals = plantedCounts(corpus.planted);
    expect(status.json().redactions).toEqual(totals);
    const statusText = await runCli(box, ['status']);
    expect(statusText.stdout).toContain(
      '[sleep] redacted so far: claude 4 openai-key, 3 acme-id, 2 github-token, 1 custom, 1 password; codex 2 openai-key, 2 password, 1 acme-id, 1 github-token',
    );

    // Values never appear: not in the store's bytes, not in any output.
    const outputs = [first, text, second, plain, status, statusText]
      .map((r) => r.stdout + r.stderr)
      .join('\n');
    const bytes = storeBytes(box);
    expect(bytes).toContain('[REDACTED:acme-id]');
    expect(bytes).toContain('[REDACTED:custom]');
    for (const { value } of corpus.planted) {
      expect(bytes.includes(value), value).toBe(false);
      expect(outputs.includes(value), value).toBe(false);
    }
  });

  it('prints one line per source with its counts', async () => {
    const box = sandbox();
    writeUserConfig(box, { redact_patterns: CORPUS_PATTERNS });
    writeRedactionCorpus(box.home);
    const r = await runCli(box, ['harvest']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => l.includes(': redacted '));
    expect(lines).toEqual([
      '[sleep] claude: redacted 3 acme-id, 3 openai-key, 2 github-token, 1 custom, 1 password',
      '[sleep] codex: redacted 2 openai-key, 2 password, 1 acme-id, 1 github-token',
    ]);
  });

  it('without redact_patterns, the same corpus counts only built-in kinds and keeps the ids', async () => {
    const box = sandbox();
    const corpus = writeRedactionCorpus(box.home);
    const r = await runCli(box, ['harvest', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const builtIn = plantedCounts(corpus.planted.filter((p) => p.kind !== 'acme-id' && p.kind !== 'custom'));
    expect(redactionsOf(r.json().sources as Sources)).toEqual(builtIn);
    const acme = corpus.planted.find((p) => p.kind === 'acme-id');
    expect(acme && storeBytes(box).includes(acme.value)).toBe(true);
  });

  for (const [what, pattern] of [
    ['does not compile', '(unclosed'],
    ['matches the empty string', 'x*'],
  ] as const) {
    it(`a redact_patterns regex that ${what} exits 2 with one line naming the key`, async () => {
      const box = sandbox();
      writeUserConfig(box, { redact_patterns: [{ name: 'ok', regex: 'ACME-[0-9]{6}' }, pattern] });
      writeRedactionCorpus(box.home);
      for (const args of [['harvest'], ['run', '--backend', 'mock'], ['daemon', '--quiet']]) {
        const r = await runCli(box, args);
        expect(r.code, r.stderr).toBe(2);
        const lines = r.stderr.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(/^\[sleep\] error: .*config\.json: key "redact_patterns": /);
      }
      // Nothing was harvested with a bad pattern: no session reached the store.
      const bytes = storeBytes(box);
      expect(bytes).not.toContain('acme-app');
      expect(bytes).not.toContain('acme-svc');
    });
  }
});
