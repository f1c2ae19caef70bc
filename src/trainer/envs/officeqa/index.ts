/**
 * OfficeQA (Databricks), as its Hugging Face repository publishes it: `officeqa_full.csv` (or
 * `officeqa_pro.csv`: `uid, question, answer, source_docs, source_files, difficulty`) and the parsed
 * bulletins `treasury_bulletins_parsed/transformed/<file>.txt`. The target reads the relevant passages
 * of each question's source bulletins and answers; hard is OfficeQA's own `score_answer` (numbers within
 * `tolerance`), soft the reference trainer's token F1. The reference's `officeqa_id_split` (ids = `uid`)
 * selects its splits.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { InputError, errorMessage } from '../../../core/errors.js';
import type { Score } from '../../../core/task.js';
import { listDataFiles, readRows, textField, type Row } from '../shared/data-files.js';
import { digestOf, envDataset, payloadOf, type EnvRow } from '../shared/env-item.js';
import { parseEnvOptions } from '../shared/options.js';
import { assignSplits } from '../shared/splits.js';
import type { EnvInstance, EnvSetup, Environment } from '../types.js';
import { relevantText } from './passages.js';
import { INITIAL_SKILL, systemPrompt, userTurn } from './prompt.js';
import { officeF1, scoreAnswer } from './reward.js';

const optionsSchema = z
  .object({
    questions_file: z.string().min(1).default('officeqa_full.csv'),
    tolerance: z.number().min(0).max(1).default(0),
    max_context_chars: z.number().int().min(1000).default(60000),
    max_tokens: z.number().int().min(16).default(4096),
  })
  .strict();

interface Payload {
  question: string;
  files: string[];
}

/** The final answer: the last `<answer>` (or `<FINAL_ANSWER>`) pair, else the whole reply, as `reward.py` reads it. */
export function officeAnswer(reply: string): string {
  const tagged = [...reply.matchAll(/<(answer|FINAL_ANSWER)>([\s\S]*?)<\/\1>/gi)].at(-1)?.[2];
  return (tagged ?? reply).trim();
}

export function scoreOfficeQa(truth: string, reply: string, tolerance: number): Score {
  const predicted = officeAnswer(reply);
  const hard = scoreAnswer(truth, predicted, tolerance);
  const soft = Math.max(hard, officeF1(predicted, truth));
  return {
    hard,
    soft,
    rationale: hard
      ? `correct (tolerance ${tolerance})`
      : `predicted ${JSON.stringify(predicted.slice(0, 200))} but the answer is ${JSON.stringify(truth)} (F1=${soft.toFixed(4)})`,
  };
}

/** `source_files`: a JSON list, one name a line, or names separated by commas. */
export function sourceFiles(value: string): string[] {
  const text = value.trim();
  if (text === '') return [];
  if (text.startsWith('[')) {
    try {
      const list: unknown = JSON.parse(text);
      if (Array.isArray(list)) return list.map((x) => String(x).trim()).filter(Boolean);
    } catch {
      // not JSON: read as text
    }
  }
  const lines = text
    .split(/[\r\n]+/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length > 1) return lines;
  return text.includes(',') && !text.toLowerCase().endsWith('.txt')
    ? text
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)
    : [text];
}

const WHAT =
  'the files of databricks/officeqa: officeqa_full.csv (or officeqa_pro.csv) and treasury_bulletins_parsed/transformed/*.txt';

function open(setup: EnvSetup): EnvInstance {
  const options = parseEnvOptions('officeqa', optionsSchema, setup.options);
  const payloads = new Map<string, Payload>();
  const bulletins = new Map<string, string>(); // file name -> path
  const texts = new Map<string, string>();
  const bulletinText = (name: string): string => {
    const cached = texts.get(name);
    if (cached !== undefined) return cached;
    const file = bulletins.get(name);
    if (file === undefined) throw new InputError(`data_dir ${setup.dataDir}: no bulletin ${name}`);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new InputError(`${file}: cannot read: ${errorMessage(err)}`);
    }
    texts.set(name, text);
    return text;
  };
  return {
    maxTokens: options.max_tokens,
    needsImages: false,
    rolloutKey: `officeqa:${options.max_context_chars}`,
    async load() {
      if (setup.dataDir === '')
        throw new InputError(`data_dir is not set: it names the folder that holds ${WHAT}`);
      const questions = listDataFiles(setup.dataDir, (n) => n === options.questions_file);
      const csv = questions[0];
      if (csv === undefined)
        throw new InputError(
          `data_dir ${setup.dataDir}: no ${options.questions_file}; it should hold ${WHAT}`,
        );
      for (const f of listDataFiles(setup.dataDir, (n) => n.toLowerCase().endsWith('.txt')))
        if (!bulletins.has(path.basename(f))) bulletins.set(path.basename(f), f);
      const rows: Array<EnvRow<Payload>> = (await readRows(csv)).map((r: Row, i) => {
        const id = textField(r, 'uid') || textField(r, 'id');
        const question = textField(r, 'question');
        const answer = textField(r, 'answer') || textField(r, 'ground_truth');
        if (id === '' || question === '' || answer === '')
          throw new InputError(`${csv}: row ${i + 2}: an OfficeQA row needs "uid", "question" and "answer"`);
        const difficulty = textField(r, 'difficulty') || textField(r, 'category');
        return {
          id,
          intent: question,
          answers: [answer],
          tags: difficulty === '' ? [] : [`type:${difficulty}`],
          payload: { question, files: sourceFiles(textField(r, 'source_files')) },
        };
      });
      const splits = assignSplits(rows, (r) => r.id, setup, csv);
      for (const row of [...splits.train, ...splits.val, ...splits.test]) {
        const missing = row.payload.files.find((f) => !bulletins.has(f));
        if (missing !== undefined)
          throw new InputError(
            `${row.id} needs the bulletin ${missing}, which is not under data_dir ${setup.dataDir} (download treasury_bulletins_parsed/transformed/*.txt)`,
          );
      }
      const { data, payloads: loaded } = envDataset(csv, splits);
      for (const [id, p] of loaded) payloads.set(id, p);
      return { data, digest: digestOf(data, { options, files: [...loaded.values()].map((p) => p.files) }) };
    },
    prompt(item, skill) {
      const p = payloadOf(payloads, item);
      const share = Math.floor(options.max_context_chars / Math.max(1, p.files.length));
      const documents = p.files.map((name) => ({
        name,
        text: relevantText(bulletinText(name), p.question, share),
      }));
      return {
        system: systemPrompt(skill),
        messages: [{ role: 'user', content: userTurn(p.question, documents) }],
      };
    },
    score: (item, reply) => scoreOfficeQa(item.answers[0] ?? '', reply, options.tolerance),
  };
}

export const officeQa: Environment = {
  name: 'officeqa',
  summary:
    "OfficeQA: questions on U.S. Treasury Bulletins answered from their text (OfficeQA's score_answer)",
  dataHint: `data_dir: ${WHAT} (the CSVs are gated: request access); split_dir: the reference's data/officeqa_id_split`,
  initialSkill: INITIAL_SKILL,
  optionsSchema,
  open,
};
