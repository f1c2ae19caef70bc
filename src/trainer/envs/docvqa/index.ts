/**
 * DocVQA, as `lmms-lab/DocVQA` publishes it on Hugging Face: Parquet files (`DocVQA/validation-*.parquet`)
 * of `{questionId, question, question_types, image: {bytes, path}, docId, answers, ...}`; JSON/JSONL rows
 * with an `image_path` (relative to their file) work too. The target sees the page image and the
 * question: only a backend whose target reads images runs it (openai, azure-openai, anthropic; the
 * mock ignores the image). Score: ANLS (threshold 0.5) as soft, ANLS ≥ 0.999 as hard. Rows without
 * answers (the test split) are skipped. The reference's `docvqa_id_split` (ids = `questionId`) selects
 * its splits. Images are read when their item is rolled out, never all at once.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { z } from 'zod';
import { sniffImageType, type ChatImage } from '../../../core/chat-image.js';
import { InputError, errorMessage } from '../../../core/errors.js';
import type { Score } from '../../../core/task.js';
import { readRows, requireDataFiles, textField, textListField, type Row } from '../shared/data-files.js';
import { digestOf, envDataset, payloadOf, type EnvRow } from '../shared/env-item.js';
import { parseEnvOptions } from '../shared/options.js';
import { assignSplits } from '../shared/splits.js';
import type { EnvInstance, EnvSetup, Environment } from '../types.js';
import { anls, docvqaAnswer } from './anls.js';
import { INITIAL_SKILL, systemPrompt } from './prompt.js';

const optionsSchema = z
  .object({
    anls_threshold: z.number().min(0).max(1).default(0.5),
    max_tokens: z.number().int().min(16).default(1024),
  })
  .strict();

/** Where an item's page image is: a Parquet row's `image` cell, or a file. */
type ImageAt = { parquet: string; row: number } | { file: string };

interface Payload {
  question: string;
  image: ImageAt;
}

export function scoreDocVqa(golds: readonly string[], reply: string, threshold = 0.5): Score {
  const predicted = docvqaAnswer(reply);
  const soft = anls(predicted, golds, threshold);
  return {
    hard: soft >= 0.999 ? 1 : 0,
    soft,
    rationale:
      soft >= 0.999
        ? 'ANLS=1'
        : `ANLS=${soft.toFixed(4)}: predicted ${JSON.stringify(predicted.slice(0, 200))} but expected ${JSON.stringify(golds.slice(0, 5))}`,
  };
}

const bytesOf = (v: unknown): Uint8Array | null =>
  v instanceof Uint8Array ? v : typeof v === 'string' ? Buffer.from(v, 'base64') : null;

function asImage(bytes: Uint8Array, where: string): ChatImage {
  const mediaType = sniffImageType(bytes);
  if (mediaType === null) throw new InputError(`${where}: the image is not a PNG, JPEG, GIF or WebP file`);
  return { mediaType, data: Buffer.from(bytes).toString('base64') };
}

async function readImage(at: ImageAt): Promise<ChatImage> {
  if ('file' in at) {
    try {
      return asImage(readFileSync(at.file), at.file);
    } catch (err) {
      if (err instanceof InputError) throw err;
      throw new InputError(`${at.file}: cannot read the image: ${errorMessage(err)}`);
    }
  }
  const where = `${at.parquet}: row ${at.row + 1}`;
  let rows;
  try {
    rows = await parquetReadObjects({
      file: await asyncBufferFromFile(at.parquet),
      columns: ['image'],
      rowStart: at.row,
      rowEnd: at.row + 1,
      utf8: false,
    });
  } catch (err) {
    throw new InputError(`${where}: cannot read the image: ${errorMessage(err)}`);
  }
  const cell: unknown = (rows[0] as Row | undefined)?.image;
  const bytes = bytesOf(
    cell !== null && typeof cell === 'object' && !(cell instanceof Uint8Array) ? (cell as Row).bytes : cell,
  );
  if (!bytes) throw new InputError(`${where}: no image bytes`);
  return asImage(bytes, where);
}

const WHAT = 'the Parquet files of lmms-lab/DocVQA (config DocVQA), or JSON/JSONL rows with image_path';
const COLUMNS = ['questionId', 'question', 'question_types', 'answers', 'docId'];

function rowOf(r: Row, i: number, file: string): EnvRow<Payload> | null {
  const id = textField(r, 'questionId') || textField(r, 'id');
  const question = textField(r, 'question');
  const answers = textListField(r, 'answers');
  if (answers.length === 0) return null; // the test split has no answers to score against
  if (id === '' || question === '')
    throw new InputError(`${file}: row ${i + 1}: a DocVQA row needs "questionId" and "question"`);
  const imagePath = textField(r, 'image_path');
  const image: ImageAt = file.toLowerCase().endsWith('.parquet')
    ? { parquet: file, row: i }
    : { file: path.resolve(path.dirname(file), imagePath) };
  if (!file.toLowerCase().endsWith('.parquet') && imagePath === '')
    throw new InputError(`${file}: row ${i + 1}: a DocVQA row needs "image_path"`);
  return {
    id,
    intent: question,
    answers,
    tags: textListField(r, 'question_types').map((t) => `type:${t}`),
    payload: { question, image },
  };
}

function open(setup: EnvSetup): EnvInstance {
  const options = parseEnvOptions('docvqa', optionsSchema, setup.options);
  const payloads = new Map<string, Payload>();
  return {
    maxTokens: options.max_tokens,
    needsImages: true,
    rolloutKey: 'docvqa',
    async load() {
      const files = requireDataFiles(setup.dataDir, ['.parquet', '.jsonl', '.json'], WHAT);
      const rows: Array<EnvRow<Payload>> = [];
      for (const file of files) {
        const isParquet = file.toLowerCase().endsWith('.parquet');
        const read = await readRows(file, isParquet ? COLUMNS : undefined);
        read.forEach((r, i) => {
          const row = rowOf(r, i, file);
          if (row) rows.push(row);
        });
      }
      const splits = assignSplits(rows, (r) => r.id, setup, setup.dataDir);
      const { data, payloads: loaded } = envDataset(setup.dataDir, splits);
      for (const [id, p] of loaded) payloads.set(id, p);
      return { data, digest: digestOf(data, options) };
    },
    async prompt(item, skill) {
      const p = payloadOf(payloads, item);
      return {
        system: systemPrompt(skill),
        messages: [
          { role: 'user', content: `## Question\n${p.question}`, images: [await readImage(p.image)] },
        ],
      };
    },
    score: (item, reply) => scoreDocVqa(item.answers, reply, options.anls_threshold),
  };
}

export const docVqa: Environment = {
  name: 'docvqa',
  summary: 'DocVQA: answer a question about a scanned document page (ANLS); needs a target that reads images',
  dataHint: `data_dir: ${WHAT}; split_dir: the reference's data/docvqa_id_split`,
  initialSkill: INITIAL_SKILL,
  optionsSchema,
  open,
};
