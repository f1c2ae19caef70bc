/**
 * Which split an item is in. With `split_dir`, the reference's split manifest decides (a folder with
 * `train/`, `val/` and `test/`, each holding a JSON list of `{"id": ...}`: the released `*_id_split`
 * folders, or materialised split folders), so results are comparable with the reference's; every id it
 * lists must be in the data. Without one, the items are shuffled with the run's seed and cut by
 * `split_ratio` (largest remainders, ties to the larger share), as the reference's ratio mode does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { InputError, errorMessage } from '../../../core/errors.js';
import { shuffled } from '../../../core/rng.js';
import type { Split } from '../../../core/task.js';

export const SPLITS: readonly Split[] = ['train', 'val', 'test'];

/** The id → split map of a manifest folder. */
export function readSplitManifest(dir: string): Map<string, Split> {
  const out = new Map<string, Split>();
  for (const split of SPLITS) {
    const folder = path.join(dir, split);
    let names: string[];
    try {
      names = readdirSync(folder)
        .filter((n) => n.endsWith('.json'))
        .sort();
    } catch (err) {
      throw new InputError(`split_dir ${dir}: no ${split}/ folder (${errorMessage(err)})`);
    }
    const first = names[0];
    if (first === undefined) throw new InputError(`split_dir ${dir}: ${split}/ holds no .json file`);
    const file = path.join(folder, first);
    let list: unknown;
    try {
      list = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new InputError(`${file}: cannot read the split manifest: ${errorMessage(err)}`);
    }
    if (!Array.isArray(list)) throw new InputError(`${file}: expected a JSON list of {"id": ...}`);
    list.forEach((entry, i) => {
      const id = (entry as { id?: unknown } | null)?.id;
      if (typeof id !== 'string' && typeof id !== 'number')
        throw new InputError(`${file}: item ${i + 1} has no "id"`);
      const key = String(id);
      const before = out.get(key);
      if (before !== undefined)
        throw new InputError(`${file}: id "${key}" is in both ${before} and ${split} of the manifest`);
      out.set(key, split);
    });
  }
  return out;
}

/** Split sizes for `total` items by `ratio`: floors, then the largest remainders (ties: larger share). */
export function splitCounts(
  total: number,
  ratio: readonly [number, number, number],
): [number, number, number] {
  const sum = ratio[0] + ratio[1] + ratio[2];
  const raw = ratio.map((w) => (total * w) / sum);
  const counts = raw.map(Math.floor);
  const order = [0, 1, 2].sort((a, b) => {
    const byRest = (raw[b] ?? 0) - (counts[b] ?? 0) - ((raw[a] ?? 0) - (counts[a] ?? 0));
    return byRest !== 0 ? byRest : (ratio[b] ?? 0) - (ratio[a] ?? 0);
  });
  let left = total - counts.reduce((a, b) => a + b, 0);
  for (const i of order) {
    if (left <= 0) break;
    counts[i] = (counts[i] ?? 0) + 1;
    left--;
  }
  return [counts[0] ?? 0, counts[1] ?? 0, counts[2] ?? 0];
}

export interface SplitSetup {
  splitDir: string;
  seed: number;
  splitRatio: readonly [number, number, number];
  limit: number;
}

/**
 * The items of each split. `source` names the data in messages. Ids must be unique; with a manifest,
 * items it does not list are left out and ids it lists but the data lacks are an error.
 */
export function assignSplits<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  setup: SplitSetup,
  source: string,
): Record<Split, T[]> {
  const byId = new Map<string, T>();
  for (const it of items) {
    const id = idOf(it);
    if (byId.has(id)) throw new InputError(`${source}: duplicate id "${id}"`);
    byId.set(id, it);
  }
  const cut = (list: T[]): T[] => (setup.limit > 0 ? list.slice(0, setup.limit) : list);
  if (setup.splitDir !== '') {
    const manifest = readSplitManifest(setup.splitDir);
    const missing = [...manifest.keys()].filter((id) => !byId.has(id));
    if (missing.length > 0)
      throw new InputError(
        `${source}: ${missing.length} id(s) of the split manifest ${setup.splitDir} are not in the data (first: ${missing.slice(0, 3).join(', ')}); is data_dir the dataset the manifest was made from?`,
      );
    const of = (split: Split): T[] =>
      cut([...manifest].filter(([, s]) => s === split).map(([id]) => byId.get(id) as T));
    return { train: of('train'), val: of('val'), test: of('test') };
  }
  const ordered = shuffled(
    [...byId.keys()].sort().map((id) => byId.get(id) as T),
    setup.seed,
  );
  const [nTrain, nVal] = splitCounts(ordered.length, setup.splitRatio);
  return {
    train: cut(ordered.slice(0, nTrain)),
    val: cut(ordered.slice(nTrain, nTrain + nVal)),
    test: cut(ordered.slice(nTrain + nVal)),
  };
}
