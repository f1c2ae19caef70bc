import { describe, expect, it } from 'vitest';
import { MockBackend } from '../../../backends/mock/mock-backend.js';
import { openFixture, recordedBackend, rollAll } from '../test-helpers.js';

describe('spreadsheetbench on its fixture', () => {
  it('loads the release layout (both test-case namings) and honours the split manifest', async () => {
    const { prepared } = await openFixture('spreadsheetbench');
    const ids = (l: Array<{ task: { id: string } }>) => l.map((i) => i.task.id);
    expect(ids(prepared.data.train)).toEqual(['sb-101', 'sb-104', 'sb-106']);
    expect(ids(prepared.data.val)).toEqual(['sb-102', 'sb-105']);
    expect(ids(prepared.data.test)).toEqual(['sb-103']);
    expect(prepared.data.train[0]?.task.tags).toEqual(['type:Cell-Level Manipulation']);
    expect(prepared.data.train[0]?.task.intent).toContain('(answer position: Orders!D2:D4)');
    expect(prepared.skill).toContain('Spreadsheet Manipulation Skill');
  });

  it('refuses a task folder outside data_dir and a task without test cases', async () => {
    await expect(openFixture('spreadsheetbench', ['env_options.dataset_file=missing.json'])).rejects.toThrow(
      /no missing\.json/,
    );
  });

  it('rolls out on the mock: no code in its replies, every round used, score 0', async () => {
    const opened = await openFixture('spreadsheetbench', ['env_options.max_rounds=2']);
    const [r] = await rollAll(opened, new MockBackend(), opened.prepared.data.train.slice(0, 1));
    expect(r?.score).toMatchObject({ hard: 0, soft: 0 });
    expect(r?.response).toContain('## Reply 2');
    expect(r?.response).toContain('the reply has no ```javascript code block');
  });

  it('replays a recorded real-model exchange and scores it as the official evaluator (hand-checked)', async () => {
    const opened = await openFixture('spreadsheetbench');
    const items = ['sb-101', 'sb-105'].map((id) => opened.prepared.data.items.find((i) => i.task.id === id)!);
    const [orders, sales] = await rollAll(opened, recordedBackend('spreadsheetbench'), items);
    // sb-101: Qty x Price on both test cases (19, 120, 1 and 30, 5.5, 14) equals the golden cells: 2/2.
    expect(orders?.score).toEqual({
      hard: 1,
      soft: 1,
      rationale: '2/2 test cases pass; case 1: pass; case 2: pass',
    });
    // sb-105: the first reply asks for the sheet "sales" and throws; the retry finds "Sales" and writes
    // 0.3, 0.5 and 0.2, the golden shares.
    expect(sales?.response).toMatch(/## Run 1\nexit code 1\n[\s\S]*TypeError/);
    expect(sales?.response).toContain('## Reply 2');
    expect(sales?.score).toEqual({ hard: 1, soft: 1, rationale: '1/1 test cases pass; case 1: pass' });
  });
});
