import { describe, expect, it } from 'vitest';
import { openStore } from './db.js';
import { sqliteSessionLabels } from './session-labels-repo.js';

describe('session labels', () => {
  it('keeps one label per session and text hash, across store handles', () => {
    const db = openStore(':memory:');
    const labels = sqliteSessionLabels(db, () => 5);
    labels.put([
      { sessionKey: 'claude:a', textHash: 'h1', label: 'commit messages' },
      { sessionKey: 'claude:b', textHash: 'h2', label: 'add dependency' },
    ]);
    const again = sqliteSessionLabels(db, () => 6);
    expect(again.get('claude:a', 'h1')).toBe('commit messages');
    // Another text of the same session is another question.
    expect(again.get('claude:a', 'h9')).toBeUndefined();
    const row = db.prepare('SELECT labelled_at FROM session_labels WHERE session_key = ?').get('claude:b');
    expect(row).toEqual({ labelled_at: 5 });
  });
});
