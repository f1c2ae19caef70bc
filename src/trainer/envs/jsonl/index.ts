/**
 * The generic labelled dataset (`data.path`: one JSONL file of `{id, input, answer|checks|rubric,
 * split}`), as `train` always read it: items go through the generic attempt and judges (exact match and
 * token F1, rule checks, the rubric judge), splits come from the file.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { InputError, errorMessage } from '../../../core/errors.js';
import { sha256Hex } from '../../../core/hash.js';
import { loadDataset } from '../../batch/dataset.js';
import { parseEnvOptions } from '../shared/options.js';
import type { EnvInstance, EnvSetup, Environment } from '../types.js';

const optionsSchema = z.object({}).strict();

function open(setup: EnvSetup): EnvInstance {
  parseEnvOptions('jsonl', optionsSchema, setup.options);
  return {
    maxTokens: 1024,
    needsImages: false,
    rolloutKey: '',
    load() {
      if (setup.dataPath === '')
        throw new InputError('data.path is not set: the jsonl environment reads one JSONL dataset file');
      const data = loadDataset(setup.dataPath);
      let bytes: Buffer;
      try {
        bytes = readFileSync(data.file);
      } catch (err) {
        throw new InputError(`${data.file}: cannot read dataset: ${errorMessage(err)}`);
      }
      return Promise.resolve({ data, digest: sha256Hex(bytes) });
    },
  };
}

export const jsonl: Environment = {
  name: 'jsonl',
  summary: 'a labelled JSONL dataset of your own: answer, rule checks or a rubric per line',
  dataHint: 'data.path: one JSONL file of {"id", "input", "answer"|"checks"|"rubric", "split"}',
  initialSkill: '',
  optionsSchema,
  open,
};
