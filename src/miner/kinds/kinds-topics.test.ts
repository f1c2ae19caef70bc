import { describe, expect, it } from 'vitest';
import type { ToolAction } from '../../core/session.js';
import { edit, read, run } from '../test-helpers.js';
import { groupKinds, type KindInput } from './kinds.js';

// A web app's sessions: the topics (invoices, customers, orders) are the pages the agent opens; the
// kinds are what was asked of them. Not taken from any real log.
const input = (request: string, requestActions: ToolAction[]): KindInput => ({
  request,
  requestActions,
  laterActions: [],
  cwd: '/work/shop',
  partition: '',
});
const page = (topic: string): string => `/work/shop/src/pages/${topic}/index.tsx`;
const feature = (request: string, topic: string, part: string): KindInput =>
  input(request, [
    read(page(topic)),
    read(`/work/shop/src/components/${part}.tsx`),
    edit(page(topic), 'return <Table />', `return <><${part} /><Table /></>`),
    run('pnpm test'),
  ]);
const bug = (request: string, topic: string, file: string): KindInput =>
  input(request, [
    read(page(topic)),
    read(`/work/shop/src/pages/${topic}/${file}.ts`),
    edit(`/work/shop/src/pages/${topic}/${file}.ts`, 'rows[0].total', 'rows[0]?.total ?? 0'),
    run('pnpm test'),
  ]);

const features = [
  feature('add a CSV export button to the invoices page', 'invoices', 'ExportButton'),
  feature('can you add a search box on the customers page?', 'customers', 'SearchBox'),
  feature('add a date filter to the orders page please', 'orders', 'DateFilter'),
];
const invoicesBug = bug(
  'the invoices page crashes when a total is empty, fix the error',
  'invoices',
  'totals',
);
const others = [
  bug('the customers page shows an error when the list is empty, fix it', 'customers', 'rows'),
  input('write a commit message for the staged changes', [run('git diff --staged')]),
  input('suggest a commit message for what is staged', [run('git diff --staged')]),
];

describe('groupKinds on one project’s topics', () => {
  const all = [...features, invoicesBug, ...others];
  const { groups, labels } = groupKinds(all);
  const groupOf = (x: KindInput): number => groups.findIndex((g) => g.some((i) => all[i] === x));

  it('puts feature requests on three topics in one kind', () => {
    const kind = groupOf(features[0] as KindInput);
    expect(features.map(groupOf)).toEqual([kind, kind, kind]);
    expect(groups[kind]).toHaveLength(3);
  });

  it('keeps a bug fix on one of those topics out of it', () => {
    expect(groupOf(invoicesBug)).not.toBe(groupOf(features[0] as KindInput));
  });

  it('names the kind by the work, in the user’s words, never by a topic', () => {
    const label = labels[groupOf(features[0] as KindInput)] ?? '';
    expect(label).toMatch(/^add\b/);
    expect(label).not.toMatch(/invoices|customers|orders/);
  });
});
