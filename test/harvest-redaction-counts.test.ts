/** The redaction report's semantics: each value counted once, by the harvest that first stores it. */
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../src/core/clock.js';
import { silentLogger } from '../src/core/logger.js';
import { withRedactPatterns } from '../src/core/redact-user.js';
import { harvest } from '../src/harvest/harvest.js';
import { openStore } from '../src/store/db.js';
import { redactionTotals } from '../src/store/harvest-runs-repo.js';

// Assembled from fragments so this file holds no literal a secret scanner flags.
const key = (n: number): string =>
  ['sk', 'proj', `a7Q${String(n).repeat(8)}Zx9Lm2Pq8Rt5Vw3Yb6Nc4Hd7Jf1Kg0`].join('-');
const id = (n: number): string => `ACME-${String(100000 + n)}`;

function line(n: number, type: 'user' | 'assistant', text: string): string {
  return `${JSON.stringify({
    type,
    uuid: `u${n}`,
    sessionId: 's1',
    cwd: '/work/acme',
    timestamp: new Date(Date.UTC(2026, 10, 1, 9, 0, n)).toISOString(),
    message:
      type === 'user'
        ? { role: 'user', content: text }
        : { id: `m${n}`, role: 'assistant', model: 'claude-x', content: [{ type: 'text', text }] },
  })}\n`;
}

function setup() {
  const home = mkdtempSync(path.join(os.tmpdir(), 'sos-redcount-'));
  const dir = path.join(home, '.claude', 'projects', '-work-acme');
  mkdirSync(dir, { recursive: true });
  const db = openStore(':memory:');
  let t = Date.UTC(2026, 10, 2);
  const run = () =>
    withRedactPatterns([{ name: 'acme-id', regex: 'ACME-[0-9]{6}' }], () =>
      harvest({ db, ctx: { home, env: {} }, clock: fixedClock((t += 1000)), logger: silentLogger }),
    );
  const runs = () => (db.prepare('SELECT COUNT(*) AS n FROM harvest_runs').get() as { n: number }).n;
  return { file: path.join(dir, 's1.jsonl'), db, run, runs };
}

describe('redaction counts', () => {
  it('an appended file: the re-read last turn is not counted again', async () => {
    const { file, db, run, runs } = setup();
    writeFileSync(
      file,
      line(0, 'user', `use ${key(1)} for ${id(1)}`) + line(1, 'assistant', `done with ${key(2)}`),
    );
    expect((await run()).redactions.claude).toEqual({ 'openai-key': 2, 'acme-id': 1 });
    expect(runs()).toBe(1);
    expect((await run()).redactions.claude).toEqual({}); // unchanged: nothing read
    expect(runs()).toBe(1); // a harvest that read nothing leaves no row
    appendFileSync(file, line(2, 'user', `and ${id(2)}?`));
    expect((await run()).redactions.claude).toEqual({ 'acme-id': 1 });
    expect(redactionTotals(db)).toEqual({ claude: { 'openai-key': 2, 'acme-id': 2 } });
  });

  it('a file replaced (read whole again): only values not stored before count', async () => {
    const { file, db, run } = setup();
    const first = line(0, 'user', `use ${key(1)}`) + line(1, 'assistant', `ok ${id(1)}`);
    writeFileSync(file, first);
    await run();
    const next = `${file}.tmp`;
    writeFileSync(next, first + line(2, 'user', `now ${key(3)} and ${key(4)}`));
    renameSync(next, file); // a new inode: the harvest reads it from the start
    expect((await run()).redactions.claude).toEqual({ 'openai-key': 2 });
    expect(redactionTotals(db)).toEqual({ claude: { 'openai-key': 3, 'acme-id': 1 } });
  });
});
