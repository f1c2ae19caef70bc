/**
 * SearchQA (Dunn et al. 2017), as `lucadiliello/searchqa` publishes it on Hugging Face: Parquet (or
 * JSON/JSONL) rows `{key, question, context, answers}`, where `context` is the search snippets, each
 * starting with `[DOC]`. The target reads the snippets and the question and answers in
 * `<answer>…</answer>`; the score is SQuAD's exact match (hard) and token F1 (soft), the best over the
 * accepted answers. The reference's `searchqa_id_split` manifest (ids = `key`) selects its splits.
 */
import { z } from 'zod';
import { InputError } from '../../../core/errors.js';
import type { Score } from '../../../core/task.js';
import { exactMatch, tokenF1 } from '../../../replay/judges/qa-match.js';
import { finalAnswer } from '../shared/answer-tags.js';
import { readRows, requireDataFiles, textField, textListField } from '../shared/data-files.js';
import { digestOf, envDataset, payloadOf, type EnvRow } from '../shared/env-item.js';
import { parseEnvOptions } from '../shared/options.js';
import { assignSplits } from '../shared/splits.js';
import type { EnvConversation, EnvInstance, EnvSetup, Environment } from '../types.js';
import { INITIAL_SKILL, systemPrompt } from './prompt.js';

const optionsSchema = z
  .object({
    max_context_chars: z.number().int().min(200).default(6000),
    max_tokens: z.number().int().min(16).default(2048),
  })
  .strict();

interface Payload {
  question: string;
  context: string;
}

/** The snippets cut at a `[DOC]` boundary to fit `max` characters (the first snippet cut hard if it alone is longer). */
export function fitContext(context: string, max: number): string {
  if (context.length <= max) return context;
  const [head = '', ...docs] = context.split('[DOC]');
  let kept = head;
  let any = head.trim() !== '';
  for (const doc of docs) {
    const next = `${kept}[DOC]${doc}`;
    if (next.length > max) break;
    kept = next;
    any = true;
  }
  return any && kept.length <= max ? kept : `${context.slice(0, max)}\n...[truncated]`;
}

/** SQuAD exact match and F1 of a reply's final answer against the accepted answers. */
export function scoreSearchQa(answers: readonly string[], reply: string): Score {
  const predicted = finalAnswer(reply);
  let hard = 0;
  let soft = 0;
  for (const gold of answers) {
    hard = Math.max(hard, exactMatch(predicted, gold));
    soft = Math.max(soft, tokenF1(predicted, gold));
  }
  const shown = JSON.stringify(answers.slice(0, 5));
  return {
    hard,
    soft,
    rationale:
      hard === 1
        ? `EM=1, F1=${soft.toFixed(4)}`
        : `EM=0: predicted ${JSON.stringify(predicted.slice(0, 200))} but expected ${shown} (F1=${soft.toFixed(4)})`,
  };
}

const WHAT =
  'the Parquet files of lucadiliello/searchqa (or JSON/JSONL rows {key|id, question, context, answers})';

function open(setup: EnvSetup): EnvInstance {
  const options = parseEnvOptions('searchqa', optionsSchema, setup.options);
  const payloads = new Map<string, Payload>();
  return {
    maxTokens: options.max_tokens,
    needsImages: false,
    rolloutKey: `searchqa:${options.max_context_chars}`,
    async load() {
      const files = requireDataFiles(setup.dataDir, ['.parquet', '.jsonl', '.json'], WHAT);
      const rows: Array<EnvRow<Payload>> = [];
      for (const file of files) {
        for (const [i, r] of (await readRows(file, ['key', 'question', 'context', 'answers'])).entries()) {
          const id = textField(r, 'key') || textField(r, 'id');
          const question = textField(r, 'question');
          const answers = textListField(r, 'answers');
          if (id === '' || question === '' || answers.length === 0)
            throw new InputError(
              `${file}: row ${i + 1}: a SearchQA row needs "key" (or "id"), "question" and "answers"`,
            );
          rows.push({
            id,
            intent: question,
            answers,
            tags: ['type:qa'],
            payload: { question, context: textField(r, 'context') },
          });
        }
      }
      const splits = assignSplits(rows, (r) => r.id, setup, setup.dataDir);
      const { data, payloads: loaded } = envDataset(setup.dataDir, splits);
      for (const [id, p] of loaded) payloads.set(id, p);
      return { data, digest: digestOf(data, options) };
    },
    prompt(item, skill): EnvConversation {
      const p = payloadOf(payloads, item);
      return {
        system: systemPrompt(skill),
        messages: [
          {
            role: 'user',
            content: `## Context\n${fitContext(p.context, options.max_context_chars)}\n\n## Question\n${p.question}`,
          },
        ],
      };
    },
    score: (item, reply) => scoreSearchQa(item.answers, reply),
  };
}

export const searchQa: Environment = {
  name: 'searchqa',
  summary: 'SearchQA: answer a Jeopardy! question from search-engine snippets (SQuAD exact match, F1)',
  dataHint: `data_dir: ${WHAT}; split_dir: the reference's data/searchqa_id_split`,
  initialSkill: INITIAL_SKILL,
  optionsSchema,
  open,
};
