import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.js';
import { loadTrainConfig, parseOverride } from './train-config.js';

function dir(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sos-train-config-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

describe('loadTrainConfig', () => {
  it('inherits through a chain of _base_ files, the child winning key by key', () => {
    const root = dir({
      'base/root.yaml': 'data: {path: data.jsonl}\ntrainer: {epochs: 5, batch_size: 3}\nseed: 1\n',
      'base/mid.yaml': '_base_: root.yaml\ntrainer: {epochs: 4}\n',
      'exp/run.yaml': '_base_: ../base/mid.yaml\ntrainer: {learning_rate: 2}\nskill: {init: skill.md}\n',
    });
    const { config, files } = loadTrainConfig(path.join(root, 'exp/run.yaml'));
    expect(config.trainer).toMatchObject({ epochs: 4, batch_size: 3, learning_rate: 2, workers: 4 });
    expect(config.seed).toBe(1);
    // Paths are relative to the file that sets them.
    expect(config.data?.path).toBe(path.join(root, 'base/data.jsonl'));
    expect(config.skill.init).toBe(path.join(root, 'exp/skill.md'));
    expect(files.map((f) => path.basename(f))).toEqual(['root.yaml', 'mid.yaml', 'run.yaml']);
  });

  it('refuses an inheritance cycle with the chain in the message', () => {
    const root = dir({ 'a.yaml': '_base_: b.yaml\n', 'b.yaml': '_base_: a.yaml\n' });
    expect(() => loadTrainConfig(path.join(root, 'a.yaml'))).toThrow(
      /cycle: .*a\.yaml -> .*b\.yaml -> .*a\.yaml/,
    );
  });

  it('names an unknown key, nested or not', () => {
    const root = dir({
      'nested.yaml': 'data: {path: d.jsonl}\ntrainer: {learnig_rate: 2}\n',
      'top.yaml': 'data: {path: d.jsonl}\nepochs: 2\n',
    });
    expect(() => loadTrainConfig(path.join(root, 'nested.yaml'))).toThrow(
      /unknown key "trainer.learnig_rate" \(did you mean "trainer.learning_rate"\?\)/,
    );
    expect(() => loadTrainConfig(path.join(root, 'top.yaml'))).toThrow(/unknown key "epochs"$/);
    expect(() => loadTrainConfig(path.join(root, 'top.yaml'))).toThrow(ConfigError);
  });

  it('applies dotted overrides after the files, typed as YAML scalars, and validates them', () => {
    const root = dir({ 'c.yaml': 'data: {path: d.jsonl}\n' });
    const file = path.join(root, 'c.yaml');
    const { config } = loadTrainConfig(
      file,
      ['trainer.learning_rate=2', 'gate.no_regression=true', 'data.path=other.jsonl'],
      '/work/x',
    );
    expect(config.trainer.learning_rate).toBe(2);
    expect(config.gate.no_regression).toBe(true);
    expect(config.data?.path).toBe('/work/x/other.jsonl');
    expect(() => loadTrainConfig(file, ['trainer.batch_size=0'])).toThrow(/key "trainer.batch_size"/);
    expect(() => loadTrainConfig(file, ['trainer.nope=1'])).toThrow(/unknown key "trainer.nope"/);
    expect(() => parseOverride('novalue')).toThrow(/key.path=value/);
  });

  it('reports bad YAML and a missing data path with the file name', () => {
    const root = dir({ 'bad.yaml': 'trainer: [1, 2\n', 'empty.yaml': '' });
    expect(() => loadTrainConfig(path.join(root, 'bad.yaml'))).toThrow(/bad\.yaml: invalid YAML/);
    expect(() => loadTrainConfig(path.join(root, 'empty.yaml'))).toThrow(/empty\.yaml.*key "data"/);
    expect(() => loadTrainConfig(path.join(root, 'missing.yaml'))).toThrow(/cannot read/);
  });

  it('gives the same hash for the same resolved config', () => {
    const root = dir({ 'c.yaml': 'data: {path: d.jsonl}\n' });
    const a = loadTrainConfig(path.join(root, 'c.yaml'));
    const b = loadTrainConfig(path.join(root, 'c.yaml'), ['trainer.epochs=2']);
    const c = loadTrainConfig(path.join(root, 'c.yaml'), ['trainer.epochs=3']);
    expect(a.hash).toBe(b.hash);
    expect(a.hash).not.toBe(c.hash);
  });
  it('without a file takes every key at its default, the base beneath the file and the overrides', () => {
    const root = dir({ 'c.yaml': 'name: mine\ndata: {path: d.jsonl}\n' });
    const bare = loadTrainConfig(undefined, ['data.path=seeds/x'], root, { name: 'seed-x' });
    expect(bare.config).toMatchObject({
      name: 'seed-x',
      backend: 'mock',
      data: { path: path.join(root, 'seeds/x') },
    });
    expect(bare.files).toEqual([]);
    expect(loadTrainConfig(path.join(root, 'c.yaml'), [], root, { name: 'seed-x' }).config.name).toBe('mine');
    expect(() => loadTrainConfig(undefined, [], root)).toThrow(/the train config: key "data"/);
  });
});
