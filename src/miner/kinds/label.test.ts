import { describe, expect, it } from 'vitest';
import { stopWords } from '../stop-words.js';
import { kindLabels, type LabelInput } from './label.js';

const labelsOf = (
  groups: number[][],
  requests: string[],
  opts: { details?: string[][]; topics?: string[]; commands?: string[] } = {},
): string[] => {
  const input: LabelInput = {
    requests,
    details: requests.map((_, i) => new Set(opts.details?.[i] ?? [])),
    topics: requests.map(() => new Set(opts.topics ?? [])),
    stop: stopWords(),
    commands: opts.commands ?? requests.map(() => ''),
  };
  return kindLabels(groups, input);
};

describe('kindLabels', () => {
  it('names a kind by its users’ own opening words, up to the kind’s last common word', () => {
    const requests = [
      'write a commit message for the cart fix',
      'commit message please, for what is staged',
      'suggest a commit message for the new login screen',
    ];
    const [label] = labelsOf([[0, 1, 2]], requests);
    expect(label).toContain('commit message');
    expect(requests.some((r) => r.startsWith(label ?? '-'))).toBe(true);
  });

  it('is a phrase a person reads, never a bag of word stems', () => {
    const requests = [
      'Amendments to the booking form: move the date field up',
      'amend the invoice form, the total goes last',
      'Amendments: the signup page needs a phone field',
    ];
    const [label] = labelsOf([[0, 1, 2]], requests, {
      topics: ['bookin', 'invoic', 'signup', 'form', 'page'],
    });
    // The opening of one request, as its user wrote it: not "amend form".
    expect(label).toBe('Amendments');
    // A topic word is masked, unless nearly every session of the kind says it.
    const [oneOff] = labelsOf([[0]], ['move the booking date field above the name'], { topics: ['bookin'] });
    expect(oneOff).toBe('move the … date field above');
    const [forms] = labelsOf([[0, 1]], requests.slice(0, 2), { topics: ['bookin', 'invoic', 'form'] });
    expect(forms).toBe('amend the … form');
  });

  it('masks the details of a one-off: paths, identifiers, numbers, names its actions used', () => {
    const [label] = labelsOf([[0]], ['fix the flaky test in src/cart/total.test.ts, it fails 2 of 10 runs'], {
      details: [['total.test.ts']],
    });
    expect(label).toBe('fix the flaky test');
    const [named] = labelsOf([[0]], ['bump zod to 3.23.8 in the api package'], { details: [['zod']] });
    expect(named).toBe('bump … to … in the api package');
  });

  it('reads scripts without spaces by their clauses', () => {
    expect(labelsOf([[0]], ['优化选中的逻辑'])).toEqual(['优化选中的逻辑']);
    expect(labelsOf([[0]], ['我想删除本地分支,以减少分支的展示数量,应该如何做'])).toEqual([
      '我想删除本地分支',
    ]);
  });

  it('names a kind without a common word by the opening of its request most like the others', () => {
    // Clauses of a script without spaces are never one kind word; their character pairs still meet.
    const requests = ['登录页要一个记住我的选项', '结算页加一个优惠码输入框', '设置页加一个深色模式的选项'];
    expect(labelsOf([[0, 1, 2]], requests, { commands: ['rg', 'rg', 'rg'] })).toEqual([
      '设置页加一个深色模式的选项',
    ]);
  });

  it('falls back to the command most of a kind ran when no request has words to show, and keeps labels unique', () => {
    const requests = ['`src/cart.ts`', '`src/tax.ts`', 'do the thing', 'do the thing again'];
    const labels = labelsOf([[0, 1], [2], [3]], requests, {
      commands: ['git diff', 'git diff', '', ''],
    });
    expect(labels[0]).toBe('git diff');
    expect(new Set(labels).size).toBe(labels.length);
  });
});
