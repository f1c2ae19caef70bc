import { describe, expect, it } from 'vitest';
import { negativeWordCheck } from '../../core/negative-check.js';
import type { Cluster } from '../types.js';
import { applyLabels, majorityLabel, type SessionInfo } from './apply-labels.js';

const cluster = (
  id: string,
  label: string,
  members: string[],
  overrides: Partial<Cluster> = {},
): Cluster => ({
  id,
  label,
  normalizedIntent: label,
  intent: `${label} request`,
  members,
  occurrences: members.length,
  firstSeen: 1,
  lastSeen: 2,
  outcomes: { success: members.length, fail: 0, mixed: 0, unknown: 0 },
  checks: [],
  corrections: [],
  correctionReports: [],
  criteria: [],
  checkSources: [],
  ...overrides,
});

/** Session `claude:aN` started at minute N, in one repository unless told. */
const info = (keys: string[], partition = ''): Map<string, SessionInfo> =>
  new Map(keys.map((key) => [key, { start: Number(key.replace(/\D/g, '')), partition }]));

describe('applyLabels', () => {
  it('leaves every kind as it was when no session has a label', () => {
    const clusters = [cluster('task_a', 'commit message', ['s1', 's2']), cluster('task_b', 'bump', ['s3'])];
    const r = applyLabels(clusters, new Map(), info(['s1', 's2', 's3']));
    expect(r.clusters).toEqual(clusters);
    expect(r.clusters[0]).toBe(clusters[0]);
    expect(r).toMatchObject({ relabelled: 0, mergedInto: new Map() });
  });

  it("names a kind by its sessions' majority label; sessions stay in their kind", () => {
    const clusters = [cluster('task_a', 'message staged', ['s1', 's2', 's3'])];
    const labels = new Map([
      ['s1', 'commit messages'],
      ['s2', 'commit messages'],
      ['s3', 'write changelog'],
    ]);
    const r = applyLabels(clusters, labels, info(['s1', 's2', 's3']));
    expect(r.clusters.map((c) => [c.label, c.members])).toEqual([['commit messages', ['s1', 's2', 's3']]]);
    expect(r.relabelled).toBe(1);
    expect(
      majorityLabel(
        ['s3', 's1'],
        new Map([
          ['s1', 'x'],
          ['s3', 'y'],
        ]),
      )?.label,
    ).toBe('y');
  });

  it('merges two kinds of one project whose sessions mostly carry the same label', () => {
    const a = cluster('task_a', 'commit message', ['s2', 's4'], {
      firstSeen: 2,
      lastSeen: 4,
      checks: [{ op: 'contains', arg: 'Refs:' }],
      checkSources: [{ check: { op: 'contains', arg: 'Refs:' }, sessionKey: 's2', sentence: 'add Refs:' }],
      criteria: ['keep the subject short'],
    });
    const b = cluster('task_b', 'describe change', ['s1', 's3'], { firstSeen: 1, lastSeen: 3 });
    const labels = new Map(['s1', 's2', 's3', 's4'].map((k) => [k, 'commit messages']));
    const r = applyLabels([a, b], labels, info(['s1', 's2', 's3', 's4']));
    expect(r.clusters).toHaveLength(1);
    const merged = r.clusters[0] as Cluster;
    // The id of the kind holding the earliest session: stable across nights.
    expect(merged).toMatchObject({
      id: 'task_b',
      label: 'commit messages',
      members: ['s1', 's2', 's3', 's4'],
      occurrences: 4,
      firstSeen: 1,
      lastSeen: 4,
      intent: 'commit message request',
      checks: [{ op: 'contains', arg: 'Refs:' }],
      criteria: ['keep the subject short'],
    });
    expect(merged.outcomes.success).toBe(4);
    expect(r.mergedInto).toEqual(new Map([['task_a', 'task_b']]));
  });

  it('does not merge when the label is only a minority of a kind, across repositories, or on contradicting rules', () => {
    const labels = new Map([
      ['s1', 'commit messages'],
      ['s2', 'commit messages'],
      ['s3', 'commit messages'],
      ['s4', 'write changelog'],
      ['s5', 'bump version'],
    ]);
    // task_b's majority is "commit messages" (a tie, its earliest session), but one of its four sessions.
    const minority = applyLabels(
      [cluster('task_a', 'x', ['s1', 's2']), cluster('task_b', 'y', ['s3', 's4', 's5', 's6'])],
      labels,
      info(['s1', 's2', 's3', 's4', 's5', 's6']),
    );
    expect(minority.mergedInto.size).toBe(0);
    expect(minority.clusters.map((c) => [c.id, c.label])).toEqual([
      ['task_b', 'commit messages'],
      ['task_a', 'commit messages (2)'],
    ]);

    const partitioned = new Map([
      ['s1', { start: 1, partition: 'repo-a' }],
      ['s2', { start: 2, partition: 'repo-b' }],
    ]);
    const repos = applyLabels(
      [cluster('task_a', 'x', ['s1']), cluster('task_b', 'y', ['s2'])],
      labels,
      partitioned,
    );
    expect(repos.mergedInto.size).toBe(0);
    // Labels stay unique in the project.
    expect(repos.clusters.map((c) => c.label).sort()).toEqual(['commit messages', 'commit messages (2)']);

    const use = cluster('task_a', 'x', ['s1'], { checks: [{ op: 'contains', arg: 'pnpm' }] });
    const avoid = cluster('task_b', 'y', ['s2'], { checks: [negativeWordCheck('pnpm')] });
    const contradiction = applyLabels([use, avoid], labels, info(['s1', 's2']));
    expect(contradiction.mergedInto.size).toBe(0);
  });
});
