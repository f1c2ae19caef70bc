import { describe, expect, it } from 'vitest';
import { openStore } from './db.js';
import { proposalLedger } from './proposal-ledger-repo.js';

const reservation = (id: string) => ({
  id,
  stagingDir: `/p/.skillopt-sleep/proposals/.staging-1-0-ab${id}`,
  createdAt: 1,
  targets: ['/p/CLAUDE.md'],
  manifest: `{"id":"${id}"}\n`,
});

describe('proposalLedger', () => {
  it('reserves an id once, per project, and releases only what was never published', () => {
    const db = openStore(':memory:');
    const ledger = proposalLedger(db, '/p');
    expect(ledger.reserve(reservation('a'))).toBe(true);
    expect(ledger.reserve(reservation('a'))).toBe(false);
    expect(proposalLedger(db, '/q').staged('a')).toBeNull();
    expect(ledger.staged('a')).toEqual({ manifest: '{"id":"a"}\n', targets: ['/p/CLAUDE.md'] });
    expect(ledger.unpublished()).toEqual([{ id: 'a', stagingDir: reservation('a').stagingDir }]);

    ledger.published('a', '/p/.skillopt-sleep/proposals/a');
    expect(ledger.unpublished()).toEqual([]);
    ledger.release('a');
    expect(ledger.staged('a')).not.toBeNull();

    expect(ledger.reserve(reservation('b'))).toBe(true);
    ledger.release('b');
    expect(ledger.staged('b')).toBeNull();
  });

  it('keeps one journal per proposal until it is cleared, and only for a proposal it staged', () => {
    const db = openStore(':memory:');
    const ledger = proposalLedger(db, '/p');
    expect(() => ledger.recordJournal('a', '{}')).toThrow(/no proposal a/);
    ledger.reserve(reservation('a'));
    expect(ledger.journal('a')).toBeNull();
    ledger.recordJournal('a', '{"txId":"1"}');
    expect(ledger.journal('a')).toBe('{"txId":"1"}');
    ledger.clearJournal('a');
    expect(ledger.journal('a')).toBeNull();
  });
});
