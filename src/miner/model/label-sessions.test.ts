import { describe, expect, it } from 'vitest';
import { askingBackend, labelPromptRequests } from '../../../test/helpers/json-asker.js';
import { MockBackend } from '../../backends/mock/mock-backend.js';
import { BudgetExhaustedError } from '../../core/errors.js';
import { openStore } from '../../store/db.js';
import { memorySessionLabels, sqliteSessionLabels } from '../../store/session-labels-repo.js';
import {
  canAskJson,
  LABEL_BATCH,
  LABEL_REQUEST_CHARS,
  labelSessions,
  normalizeLabel,
} from './label-sessions.js';

const stopsOn = (err: unknown): boolean => err instanceof BudgetExhaustedError;

/** Names each request by its first two words, as a model that groups by wording would. */
const namer = () =>
  askingBackend((req) => ({
    labels: labelPromptRequests(req.vars).map((text, i) => ({
      id: i + 1,
      label: text.split(' ').slice(0, 2).join(' '),
    })),
  }));

const sessions = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    sessionKey: `claude:s${i}`,
    request: `${i % 2 === 0 ? 'commit message' : 'add dependency'} for change ${i}`,
  }));

describe('labelSessions', () => {
  it('labels each session once: a second night reuses the stored labels and sends nothing', async () => {
    const db = openStore(':memory:');
    const first = namer();
    const night1 = await labelSessions({
      sessions: sessions(3),
      backend: first,
      store: sqliteSessionLabels(db, () => 1),
      stopsOn,
    });
    expect(first.asked).toHaveLength(1);
    expect(first.asked[0]?.template).toBe('label-sessions');
    // The model sees numbered requests, never a session key.
    expect(first.asked[0]?.vars['requests']).not.toContain('claude:');
    expect(night1.stats).toMatchObject({ sessions: 3, labelled: 3, reused: 0, skipped_budget: 0 });
    expect(night1.labels.get('claude:s1')).toBe('add dependency');

    const second = namer();
    const night2 = await labelSessions({
      sessions: sessions(3),
      backend: second,
      store: sqliteSessionLabels(db, () => 2),
      stopsOn,
    });
    expect(second.asked).toHaveLength(0);
    expect(night2.stats).toMatchObject({ labelled: 0, reused: 3 });
    expect([...night2.labels]).toEqual([...night1.labels]);
  });

  it('labels a session again only when the miner chose another request for it', async () => {
    const store = memorySessionLabels();
    await labelSessions({ sessions: sessions(2), backend: namer(), store, stopsOn });
    const again = namer();
    const changed = [{ sessionKey: 'claude:s0', request: 'review pull request 7' }, ...sessions(2).slice(1)];
    const r = await labelSessions({ sessions: changed, backend: again, store, stopsOn });
    expect(again.asked).toHaveLength(1);
    expect(labelPromptRequests(again.asked[0]?.vars ?? {})).toEqual(['review pull request 7']);
    expect(r.stats).toMatchObject({ labelled: 1, reused: 1 });
  });

  it('stops cleanly when the budget runs out, keeping and storing what was labelled', async () => {
    const store = memorySessionLabels();
    const model = askingBackend((req, call) => {
      if (call > 0) throw new BudgetExhaustedError('max_calls reached', 'max_calls');
      return {
        labels: labelPromptRequests(req.vars).map((_, i) => ({ id: i + 1, label: 'commit messages' })),
      };
    });
    const n = LABEL_BATCH + 5;
    const r = await labelSessions({ sessions: sessions(n), backend: model, store, stopsOn });
    expect(r.stats).toMatchObject({ labelled: LABEL_BATCH, skipped_budget: 5, stopped: true });
    expect(r.labels.size).toBe(LABEL_BATCH);
    expect(store.size()).toBe(LABEL_BATCH);
  });

  it('propagates errors that are not a spend limit', async () => {
    const model = askingBackend(() => {
      throw new Error('401 unauthorized');
    });
    await expect(
      labelSessions({ sessions: sessions(1), backend: model, store: memorySessionLabels(), stopsOn }),
    ).rejects.toThrow('401');
  });

  it('counts sessions the reply left out or gave an unusable label, and cuts requests short', async () => {
    const model = askingBackend(() => ({
      labels: [
        { id: 1, label: '  "Commit Messages." ' },
        { id: '2', label: '???' },
        { id: 9, label: 'not in the batch' },
      ],
    }));
    const long = [
      { sessionKey: 'a', request: `write ${'x'.repeat(1000)}` },
      { sessionKey: 'b', request: 'add a dependency' },
      { sessionKey: 'c', request: 'fix the failing test' },
    ];
    const r = await labelSessions({ sessions: long, backend: model, store: memorySessionLabels(), stopsOn });
    expect(r.labels.get('a')).toBe('commit messages');
    expect(r.stats).toMatchObject({ labelled: 1, unanswered: 2 });
    expect(labelPromptRequests(model.asked[0]?.vars ?? {})[0]).toHaveLength(LABEL_REQUEST_CHARS);
  });

  it('never asks the offline mock', () => {
    expect(canAskJson(new MockBackend())).toBe(false);
    expect(canAskJson(namer())).toBe(true);
    expect(normalizeLabel('  Add   Dependency!! ')).toBe('add dependency');
  });
});
