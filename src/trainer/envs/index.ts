/**
 * The environments `train` and `eval` can run, by the config's `env:` name. A new benchmark is one
 * folder here implementing `Environment` (`types.ts`) and one line in `ENVIRONMENTS`.
 */
import { closestName } from '../../core/closest-name.js';
import { ConfigError } from '../../core/errors.js';
import { alfworld } from './alfworld/index.js';
import { docVqa } from './docvqa/index.js';
import { jsonl } from './jsonl/index.js';
import { liveMathematicianBench } from './livemathematicianbench/index.js';
import { officeQa } from './officeqa/index.js';
import { searchQa } from './searchqa/index.js';
import { spreadsheetBench } from './spreadsheetbench/index.js';
import type { Environment } from './types.js';

export const ENVIRONMENTS: readonly Environment[] = [
  jsonl,
  searchQa,
  liveMathematicianBench,
  officeQa,
  docVqa,
  spreadsheetBench,
  alfworld,
];

export const DEFAULT_ENV = 'jsonl';

export function environmentNamed(name: string): Environment {
  const found = ENVIRONMENTS.find((e) => e.name === name);
  if (found) return found;
  const names = ENVIRONMENTS.map((e) => e.name);
  const near = closestName(name, names);
  throw new ConfigError(
    `env "${name}" is not an environment${near === undefined ? '' : ` (did you mean "${near}"?)`}; the environments: ${names.join(', ')}`,
  );
}

/** Each environment's name, what it is and where its data goes (`train --list-envs`). */
export function environmentList(): Array<{ name: string; summary: string; data: string }> {
  return ENVIRONMENTS.map((e) => ({ name: e.name, summary: e.summary, data: e.dataHint }));
}

export type { Environment, EnvInstance, EnvSetup } from './types.js';
