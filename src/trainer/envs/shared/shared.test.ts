import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envFixtureDir } from '../test-helpers.js';
import { readRows, requireDataFiles } from './data-files.js';
import { assignSplits, readSplitManifest, splitCounts } from './splits.js';

const dir = (files: Record<string, string>): string => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sos-envs-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
};

describe('dataset files as downloaded', () => {
  it('reads JSON (a list, {data: [...]}, an object of rows), JSONL and CSV rows', async () => {
    const root = dir({
      'a.json': '[{"id": 1}]',
      'b.json': '{"data": [{"id": 2}]}',
      'c.json': '{"x": {"id": 3}}',
      'd.jsonl': '{"id": 4}\n\n{"id": 5}\n',
      'e.csv': '\ufeffid,text\n6,"two\nlines"\n',
    });
    const all = await Promise.all(
      ['a.json', 'b.json', 'c.json', 'd.jsonl', 'e.csv'].map((f) => readRows(path.join(root, f))),
    );
    expect(all).toEqual([
      [{ id: 1 }],
      [{ id: 2 }],
      [{ id: 3 }],
      [{ id: 4 }, { id: 5 }],
      [{ id: '6', text: 'two\nlines' }],
    ]);
    await expect(readRows(path.join(dir({ 'x.jsonl': '{"id": 1}\n{bad' }), 'x.jsonl'))).rejects.toThrow(
      /x\.jsonl:2: invalid JSON/,
    );
  });

  it('reads Parquet columns, leaving out one the file lacks', async () => {
    const file = path.join(envFixtureDir('searchqa'), 'data', 'validation-00000-of-00001.parquet');
    const rows = await readRows(file, ['key', 'answers', 'not_a_column']);
    expect(rows[1]).toEqual({ key: '9b2e6d4c8a1f4b3e9d7c2a5f6e8b1d04', answers: ['Pisa'] });
  });

  it('says what a data folder should hold when it holds nothing of that kind', () => {
    expect(() => requireDataFiles(dir({ 'notes.txt': 'x' }), ['.parquet'], 'the Parquet files')).toThrow(
      /no \.parquet file found; it should hold the Parquet files/,
    );
    expect(() => requireDataFiles('', ['.json'], 'x')).toThrow(/data_dir is not set/);
  });
});

describe('splits', () => {
  it('counts by largest remainders, ties to the larger share', () => {
    expect(splitCounts(10, [2, 1, 7])).toEqual([2, 1, 7]);
    expect(splitCounts(7, [2, 1, 7])).toEqual([1, 1, 5]);
    expect(splitCounts(1, [1, 1, 1])).toEqual([1, 0, 0]);
  });

  it('refuses a manifest that lists an id in two splits', () => {
    const root = dir({
      'train/items.json': '[{"id": "a"}]',
      'val/items.json': '[{"id": "a"}]',
      'test/items.json': '[]',
    });
    expect(() => readSplitManifest(root)).toThrow(/id "a" is in both train and val/);
  });

  it('refuses duplicate ids in the data', () => {
    const setup = { splitDir: '', seed: 1, splitRatio: [1, 1, 1] as const, limit: 0 };
    expect(() => assignSplits(['a', 'a'], (x) => x, setup, 'src')).toThrow(/src: duplicate id "a"/);
  });
});
