/**
 * LiveMathematicianBench, as its Hugging Face repository publishes it: monthly JSON files
 * (`data/<month>/qa_<month>_final.json`), each a list of items with a question (top level or under
 * `mcq`), its choices and `correct_choice`, `no`, and the theorem, proof sketch and theorem types. Ids
 * are `<month>:<no>` as in the reference's `livemathematicianbench_id_split` manifest. Choices are
 * shuffled per item with the run's seed (`shuffle_choices`); the score is the chosen label against the
 * correct one (hard = soft).
 */
import path from 'node:path';
import { z } from 'zod';
import { InputError } from '../../../core/errors.js';
import type { Score } from '../../../core/task.js';
import { readRows, requireDataFiles, textField, type Row } from '../shared/data-files.js';
import { digestOf, envDataset, payloadOf, type EnvRow } from '../shared/env-item.js';
import { parseEnvOptions } from '../shared/options.js';
import { assignSplits } from '../shared/splits.js';
import type { EnvInstance, EnvSetup, Environment } from '../types.js';
import { chosenLabel, normalizeLabel, readChoices, shuffleChoices, type Choice } from './choices.js';
import { INITIAL_SKILL, systemPrompt, userTurn } from './prompt.js';

const optionsSchema = z
  .object({
    shuffle_choices: z.boolean().default(true),
    use_theorem: z.boolean().default(false),
    use_sketch: z.boolean().default(false),
    max_tokens: z.number().int().min(16).default(8192),
  })
  .strict();

interface Payload {
  question: string;
  choices: Choice[];
  correct: string;
  theorem: string;
  sketch: string;
}

/** The chosen label against the correct one: 1 or 0, hard and soft alike. */
export function scoreChoice(reply: string, choices: readonly Choice[], correct: string): Score {
  const chosen = chosenLabel(reply, choices);
  const hit = chosen !== '' && chosen === correct ? 1 : 0;
  const text = (label: string): string => choices.find((c) => c.label === label)?.text.slice(0, 120) ?? '';
  return {
    hard: hit,
    soft: hit,
    rationale: hit
      ? `chose ${chosen} (correct)`
      : `chose ${chosen === '' ? 'no readable label' : `${chosen} (${JSON.stringify(text(chosen))})`} but the answer is ${correct} (${JSON.stringify(text(correct))})`,
  };
}

const WHAT = 'the monthly qa_<month>_final.json files of LiveMathematicianBench/LiveMathematicianBench';

/** The month of an item: its own field, else the one its file is named after. */
function monthOf(row: Row, file: string): string {
  const own = textField(row, 'month');
  if (own !== '') return own;
  return /qa_(\d{6})_final\.json$/i.exec(path.basename(file))?.[1] ?? '';
}

function readItem(
  row: Row,
  index: number,
  file: string,
  setup: EnvSetup,
  shuffle: boolean,
): EnvRow<Payload> | null {
  const mcq = row.mcq !== null && typeof row.mcq === 'object' ? (row.mcq as Row) : {};
  const question = textField(mcq, 'question') || textField(row, 'question');
  const choices = readChoices(mcq.choices ?? row.choices);
  const rawCorrect = mcq.correct_choice ?? row.correct_choice;
  const correctLabel = normalizeLabel(
    rawCorrect !== null && typeof rawCorrect === 'object'
      ? textField(rawCorrect as Row, 'label')
      : typeof rawCorrect === 'string'
        ? rawCorrect
        : '',
  );
  // The reference skips rows without a question, choices or a correct label.
  if (question === '' || choices.length === 0 || correctLabel === '') return null;
  if (!choices.some((c) => normalizeLabel(c.label) === correctLabel)) {
    const text =
      rawCorrect !== null && typeof rawCorrect === 'object' ? textField(rawCorrect as Row, 'text') : '';
    if (text === '')
      throw new InputError(
        `${file}: item ${index + 1}: correct_choice ${correctLabel} is not one of its choices`,
      );
    choices.push({ label: correctLabel, text });
  }
  const month = monthOf(row, file);
  const no = textField(row, 'no') || String(index + 1);
  const id = month === '' ? no : `${month}:${no}`;
  const placed = shuffle
    ? shuffleChoices(choices, correctLabel, id, setup.seed)
    : {
        choices: choices.map((c) => ({ label: normalizeLabel(c.label), text: c.text })),
        correct: correctLabel,
      };
  const types = Array.isArray(row.theorem_type) ? row.theorem_type : [row.theorem_type];
  return {
    id,
    intent: `${question}\n\n${placed.choices.map((c) => `${c.label}. ${c.text}`).join('\n')}`,
    answers: [placed.correct],
    tags: types
      .filter((t): t is string => typeof t === 'string' && t.trim() !== '')
      .map((t) => `type:${t.trim()}`),
    payload: {
      question,
      choices: placed.choices,
      correct: placed.correct,
      theorem: textField(row, 'theorem'),
      sketch: textField(row, 'sketch'),
    },
  };
}

function open(setup: EnvSetup): EnvInstance {
  const options = parseEnvOptions('livemathematicianbench', optionsSchema, setup.options);
  const payloads = new Map<string, Payload>();
  return {
    maxTokens: options.max_tokens,
    needsImages: false,
    rolloutKey: `lmb:${options.use_theorem}:${options.use_sketch}`,
    async load() {
      const files = requireDataFiles(setup.dataDir, ['.json'], WHAT).filter((f) =>
        /qa_.*_final\.json$/i.test(path.basename(f)),
      );
      if (files.length === 0)
        throw new InputError(
          `data_dir ${setup.dataDir}: no qa_<month>_final.json file; it should hold ${WHAT}`,
        );
      const rows: Array<EnvRow<Payload>> = [];
      for (const file of files) {
        for (const [i, r] of (await readRows(file)).entries()) {
          const item = readItem(r, i, file, setup, options.shuffle_choices);
          if (item) rows.push(item);
        }
      }
      const splits = assignSplits(rows, (r) => r.id, setup, setup.dataDir);
      const { data, payloads: loaded } = envDataset(setup.dataDir, splits);
      for (const [id, p] of loaded) payloads.set(id, p);
      return { data, digest: digestOf(data, { options, seed: setup.seed }) };
    },
    prompt(item, skill) {
      const p = payloadOf(payloads, item);
      return {
        system: systemPrompt(skill),
        messages: [
          {
            role: 'user',
            content: userTurn(p.question, p.choices, {
              ...(options.use_theorem ? { theorem: p.theorem } : {}),
              ...(options.use_sketch ? { sketch: p.sketch } : {}),
            }),
          },
        ],
      };
    },
    score(item, reply) {
      const p = payloadOf(payloads, item);
      return scoreChoice(reply, p.choices, p.correct);
    },
  };
}

export const liveMathematicianBench: Environment = {
  name: 'livemathematicianbench',
  summary:
    'LiveMathematicianBench: research-level mathematics multiple choice, choices shuffled per item (label match)',
  dataHint: `data_dir: ${WHAT}; split_dir: the reference's data/livemathematicianbench_id_split`,
  initialSkill: INITIAL_SKILL,
  optionsSchema,
  open,
};
