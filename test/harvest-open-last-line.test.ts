/**
 * A last line without "\n" is read once the file has been quiet for SETTLE_MS, and read again (not
 * twice) when the file grows later.
 */
import { appendFileSync, rmSync, utimesSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SETTLE_MS } from '../src/harvest/harvest.js';
import {
  CLAUDE_TRANSCRIPT,
  CODEX_ROLLOUT,
  claudeRecord,
  codexMessage,
  codexMeta,
  harvestHome,
} from './harvest-home.js';

let home = '';
afterEach(() => {
  if (home !== '') rmSync(home, { recursive: true, force: true });
});

const T0 = Date.UTC(2026, 0, 1);

function setMtime(file: string, ms: number): void {
  utimesSync(file, ms / 1000, ms / 1000);
}

const texts = (h: ReturnType<typeof harvestHome>) =>
  h.sessions().flatMap((s) => s.turns.map((t) => `${t.role}: ${t.text}`));

describe('a last line without a newline', () => {
  it('is harvested from a quiet one-line file, and again whole when the file grows', async () => {
    const h = harvestHome('sos-open-line-');
    home = h.home;
    const file = h.write(CLAUDE_TRANSCRIPT, claudeRecord(0, 'user', 'Fix the login bug'), T0);
    h.clock.now = T0 + SETTLE_MS + 1000;
    const first = await h.run(['claude']);
    expect(first.badLines).toBe(0);
    expect(texts(h)).toEqual(['user: Fix the login bug']);

    // Unchanged: not read again.
    expect((await h.run(['claude'])).filesParsed).toBe(0);

    appendFileSync(
      file,
      `\n${claudeRecord(1, 'assistant', 'Fixed it.')}\n${claudeRecord(2, 'user', 'Thanks')}\n`,
    );
    setMtime(file, T0 + 10_000);
    await h.run(['claude']);
    expect(texts(h)).toEqual(['user: Fix the login bug', 'assistant: Fixed it.', 'user: Thanks']);
  });

  it('is left alone while the file may still be written, and read once it is quiet', async () => {
    const h = harvestHome('sos-open-line-');
    home = h.home;
    const file = h.write(
      CODEX_ROLLOUT,
      `${codexMeta()}\n${codexMessage('user', 'Add a retry')}\n${codexMessage('assistant', 'Done: retries 3 times.')}`,
      T0,
    );
    h.clock.now = T0 + 1000; // written a second ago
    expect((await h.run(['codex'])).openLastLines).toBe(1);
    expect(texts(h)).toEqual(['user: Add a retry']);

    h.clock.now = T0 + SETTLE_MS; // the same file, now quiet
    const settled = await h.run(['codex']);
    expect(settled.filesParsed).toBe(1);
    expect(settled.openLastLines).toBe(0);
    expect(texts(h)).toEqual(['user: Add a retry', 'assistant: Done: retries 3 times.']);
    expect(h.sessions()[0]?.turns.map((t) => t.seq)).toEqual([0, 1]);

    expect((await h.run(['codex'])).filesParsed).toBe(0);

    appendFileSync(file, `\n${codexMessage('user', 'And log each retry')}\n`);
    setMtime(file, T0 + 5000);
    h.clock.now = T0 + 5000 + SETTLE_MS;
    await h.run(['codex']);
    expect(texts(h)).toEqual([
      'user: Add a retry',
      'assistant: Done: retries 3 times.',
      'user: And log each retry',
    ]);
  });

  it('does not apply to the Copilot CLI store, which is read whole', async () => {
    const h = harvestHome('sos-open-line-');
    home = h.home;
    const dbPath = h.write('.copilot/session-store.db', '');
    const db = new Database(dbPath);
    db.exec('CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT, created_at TEXT, updated_at TEXT)');
    db.close();
    h.clock.now = Date.now(); // just written
    const summary = await h.run(['copilot-cli']);
    expect(summary.filesParsed).toBe(1);
    expect(summary.openLastLines).toBe(0);
    expect((await h.run(['copilot-cli'])).filesParsed).toBe(0);
  });
});
