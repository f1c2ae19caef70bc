/**
 * SpreadsheetBench (Ma et al. 2024), as its releases unpack (`KAKA22/SpreadsheetBench`, e.g.
 * `spreadsheetbench_verified_400.tar.gz`): a `dataset.json` list of `{id, instruction, spreadsheet_path,
 * instruction_type, answer_position}` and per task a folder of test cases (`cases.ts`). The target reads
 * the instruction and a preview of the input workbook and replies with JavaScript that edits it with
 * exceljs; the code runs in a sandbox (`sandbox.ts`) on every case's input, a failed run is reported
 * back for another round (up to `max_rounds` replies), and each produced workbook is compared with the
 * golden one at `answer_position` as the official evaluator does (`evaluate.ts`): soft is the share of
 * cases passed, hard is all of them. The reference's `spreadsheetbench_id_split` selects the splits.
 */
import path from 'node:path';
import { z } from 'zod';
import { InputError } from '../../../core/errors.js';
import { plainText } from '../../../core/safe-text.js';
import type { Score } from '../../../core/task.js';
import { fileStamp, readRows, requireDataFiles, textField } from '../shared/data-files.js';
import { digestOf, envDataset, payloadOf, type EnvRow } from '../shared/env-item.js';
import { parseEnvOptions } from '../shared/options.js';
import { assignSplits } from '../shared/splits.js';
import type { EnvConversation, EnvEpisode, EnvInstance, EnvSetup, EnvTarget, Environment } from '../types.js';
import { findTestCases, type TestCase } from './cases.js';
import { evaluateCase, type CaseResult } from './evaluate.js';
import { workbookPreview } from './preview.js';
import { INITIAL_SKILL, extractCode, retryPrompt, systemPrompt, userPrompt } from './prompt.js';
import { makeSandboxDir, removeSandboxDir, runSandboxed, type SandboxLimits } from './sandbox.js';

const optionsSchema = z
  .object({
    dataset_file: z.string().min(1).default('dataset.json'),
    max_rounds: z.number().int().min(1).max(10).default(3),
    timeout_seconds: z.number().min(1).max(3600).default(60),
    memory_mb: z.number().int().min(32).max(16384).default(512),
    max_tokens: z.number().int().min(64).default(4096),
    preview_rows: z.number().int().min(1).default(25),
    preview_cols: z.number().int().min(1).default(20),
    preview_chars: z.number().int().min(500).default(12000),
  })
  .strict();
type Options = z.infer<typeof optionsSchema>;

interface Payload {
  instruction: string;
  instructionType: string;
  answerPosition: string;
  cases: TestCase[];
}

const WHAT =
  'an unpacked SpreadsheetBench release (KAKA22/SpreadsheetBench, e.g. spreadsheetbench_verified_400): dataset.json and spreadsheet/<id>/ test cases';

/** A task folder named by the data, kept inside the data folder (the file is not ours to trust). */
function taskFolder(dataDir: string, rel: string, where: string): string {
  const full = path.resolve(dataDir, rel);
  const inside = path.relative(dataDir, full);
  if (rel === '' || path.isAbsolute(rel) || inside.startsWith('..') || path.isAbsolute(inside))
    throw new InputError(
      `${where}: "spreadsheet_path" must be a folder inside data_dir (got ${JSON.stringify(rel)})`,
    );
  return full;
}

/** The official answer position: an `answer_sheet` given apart qualifies a bare range. */
function answerPositionOf(position: string, sheet: string): string {
  return sheet !== '' && !position.includes('!') ? `${sheet}!${position}` : position;
}

async function loadRows(setup: EnvSetup, options: Options): Promise<Array<EnvRow<Payload>>> {
  const files = requireDataFiles(setup.dataDir, ['.json', '.jsonl'], WHAT).filter(
    (f) => path.basename(f) === options.dataset_file,
  );
  const file = files[0];
  if (file === undefined)
    throw new InputError(`data_dir ${setup.dataDir}: no ${options.dataset_file}; it should hold ${WHAT}`);
  const base = path.dirname(file);
  return (await readRows(file)).map((r, i) => {
    const where = `${file}: row ${i + 1}`;
    const id = textField(r, 'id');
    const instruction = textField(r, 'instruction');
    const position = textField(r, 'answer_position');
    if (id === '' || instruction === '' || position === '')
      throw new InputError(
        `${where}: a SpreadsheetBench row needs "id", "instruction" and "answer_position"`,
      );
    const dir = taskFolder(base, textField(r, 'spreadsheet_path') || `spreadsheet/${id}`, where);
    const cases = findTestCases(dir);
    if (cases.length === 0)
      throw new InputError(
        `${where}: ${dir} holds no test case (N_${id}_input.xlsx with N_${id}_answer.xlsx, or _init/_golden)`,
      );
    const instructionType = textField(r, 'instruction_type');
    return {
      id,
      intent: `${instruction}\n(answer position: ${answerPositionOf(position, textField(r, 'answer_sheet'))})`,
      answers: [],
      tags: [`type:${instructionType || 'unknown'}`],
      payload: {
        instruction,
        instructionType,
        answerPosition: answerPositionOf(position, textField(r, 'answer_sheet')),
        cases,
      },
    };
  });
}

/** Runs `code` on one case and compares the result; the sandbox folder is always removed. */
async function runCase(code: string, c: TestCase, position: string, limits: SandboxLimits) {
  const box = makeSandboxDir(c.input);
  try {
    const run = await runSandboxed(code, box, limits);
    const result: CaseResult = run.ok
      ? await evaluateCase(box.output, c.golden, position)
      : { ok: false, reason: run.timedOut ? 'the code ran out of time' : 'the code failed' };
    return { run, result };
  } finally {
    removeSandboxDir(box.dir);
  }
}

const tail = (text: string, max = 1500): string => (text.length > max ? `...${text.slice(-max)}` : text);

async function episode(p: Payload, skill: string, target: EnvTarget, options: Options): Promise<EnvEpisode> {
  const limits = { timeoutMs: options.timeout_seconds * 1000, memoryMb: options.memory_mb };
  const first = p.cases[0] as TestCase;
  const preview = await workbookPreview(first.input, {
    sheets: 8,
    rows: options.preview_rows,
    cols: options.preview_cols,
    chars: options.preview_chars,
  });
  const conversation: EnvConversation = {
    system: systemPrompt(skill),
    messages: [{ role: 'user', content: userPrompt({ ...p, preview }) }],
  };
  const log: string[] = [];
  let code = '';
  let firstResult: CaseResult = { ok: false, reason: 'no code was run' };
  for (let round = 1; round <= options.max_rounds; round++) {
    const reply = await target.reply({ ...conversation, messages: [...conversation.messages] });
    code = extractCode(reply);
    log.push(`## Reply ${round}\n${reply}`);
    let problem = '';
    if (code === '') problem = 'the reply has no ```javascript code block';
    else {
      const { run, result } = await runCase(code, first, p.answerPosition, limits);
      firstResult = result;
      if (!run.ok)
        problem = run.timedOut
          ? `it was stopped after ${options.timeout_seconds} s`
          : `exit code ${run.exitCode}\n${tail(run.output)}`;
    }
    if (problem === '') break;
    log.push(`## Run ${round}\n${problem}`);
    if (round < options.max_rounds) {
      conversation.messages.push({ role: 'assistant', content: reply });
      conversation.messages.push({ role: 'user', content: retryPrompt(problem) });
    }
  }
  const results: CaseResult[] = [firstResult];
  for (const c of p.cases.slice(1))
    results.push(code === '' ? firstResult : (await runCase(code, c, p.answerPosition, limits)).result);
  const passed = results.filter((r) => r.ok).length;
  const lines = results.map(
    (r, i) => `case ${p.cases[i]?.no ?? i + 1}: ${r.ok ? 'pass' : `fail (${r.reason})`}`,
  );
  log.push(`## Result\n${lines.join('\n')}`);
  const score: Score = {
    hard: passed === results.length ? 1 : 0,
    soft: passed / results.length,
    rationale: plainText(`${passed}/${results.length} test cases pass; ${lines.join('; ')}`),
  };
  return { response: plainText(log.join('\n\n')), score };
}

function open(setup: EnvSetup): EnvInstance {
  const options = parseEnvOptions('spreadsheetbench', optionsSchema, setup.options);
  const payloads = new Map<string, Payload>();
  const rolloutKey = `spreadsheetbench:${options.max_rounds}:${options.timeout_seconds}:${options.memory_mb}:${options.preview_rows}:${options.preview_cols}:${options.preview_chars}`;
  return {
    maxTokens: options.max_tokens,
    needsImages: false,
    rolloutKey,
    async load() {
      const rows = await loadRows(setup, options);
      const splits = assignSplits(rows, (r) => r.id, setup, setup.dataDir);
      const { data, payloads: loaded } = envDataset(setup.dataDir, splits);
      for (const [id, p] of loaded) payloads.set(id, p);
      // The workbooks are the data too: their sizes and times, and the options that change a rollout.
      const files = data.items.flatMap((it) =>
        payloadOf(payloads, it).cases.flatMap((c) => [fileStamp(c.input), fileStamp(c.golden)]),
      );
      return {
        data,
        digest: digestOf(data, {
          files,
          answers: [...payloads.values()].map((p) => p.answerPosition),
          rollout: rolloutKey,
        }),
      };
    },
    episode: (item, skill, target) => episode(payloadOf(payloads, item), skill, target, options),
  };
}

export const spreadsheetBench: Environment = {
  name: 'spreadsheetbench',
  summary:
    'SpreadsheetBench: write JavaScript (exceljs) that edits a workbook, run in a sandbox; cells at the answer position compared with the golden workbook',
  dataHint: `data_dir: ${WHAT}; split_dir: the reference's data/spreadsheetbench_id_split`,
  initialSkill: INITIAL_SKILL,
  optionsSchema,
  open,
};
