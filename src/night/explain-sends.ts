/**
 * What leaves the machine tonight (`run --explain-sends`, and its summary in the dry-run plan): for each
 * task and role, the stored texts a real backend would receive, after the outbound redaction, built
 * from the same prompt variables the requests use (so the list cannot drift from what is sent). Texts
 * the models write during the night (answers, reflections, edits) are not stored texts: the list says
 * where they go, never what they will be.
 */
import type { ChatRole } from '../backends/llm/chat.js';
import { redactOutbound } from '../backends/llm/guarded-chat.js';
import { attemptVars, judgeVars, JUDGED_ANSWER_CHARS, NO_TEXT } from '../backends/llm/llm-backend.js';
import { roleSetup } from '../backends/llm/providers/index.js';
import {
  expectedAnswer,
  failedCheckLine,
  REFLECTED_ANSWER_CHARS,
  replayIntent,
} from '../backends/llm/reflect-evidence.js';
import { renderRejected } from '../backends/llm/rejected-prompt.js';
import type { RejectedEditMemory } from '../backends/types.js';
type RedactionResult = { text: string; count: number };
import { ruleChecks, type Edit, type TaskRecord } from '../core/task.js';
import type { Config } from '../config/schema.js';
import { rubricText } from '../replay/score.js';
import { reflectionBuffer } from '../trainer/rejected-buffer.js';

export type SendRole = 'target' | 'optimizer-judge' | 'optimizer-reflect' | 'miner';

/** One stored text as it would be sent: after redaction, whole (text output shortens it). */
export interface SentText {
  field: string;
  chars: number;
  text: string;
  /** Sent only in some cases (e.g. a check's line goes out only when the answer fails it). */
  when?: string;
}

/** One prompt a role would receive: its stored texts, and the parts a model writes during the night. */
export interface RoleSends {
  role: SendRole;
  prompt: string;
  to: ChatRole;
  when: string;
  texts: SentText[];
  model_parts: string[];
}

export interface TaskSends {
  id: string;
  label: string;
  split: TaskRecord['split'];
  reference_kind: TaskRecord['reference_kind'];
  sends: RoleSends[];
}

/** A kind of task as the model passes of mining send it (`llm_mine`, `llm_refine`). */
export interface KindSends {
  id: string;
  label: string;
  sends: RoleSends[];
}

export interface Destination {
  role: ChatRole;
  backend: string;
  model: string;
  base_url: string;
  /** False for the mock: that role's prompts never leave the machine. */
  leaves_machine: boolean;
}

export interface DocumentSent {
  name: string;
  path: string;
  chars: number;
  sent_with: string;
}

export interface SendsExplanation {
  /** Every role on the mock: nothing is sent tonight; the list is what a real backend would receive. */
  offline: boolean;
  destinations: Destination[];
  documents: DocumentSent[];
  /** Prompts of the night as a whole (reflection, merging edits), beside the documents. */
  night: RoleSends[];
  tasks: TaskSends[];
  kinds: KindSends[];
  /** Secrets the outbound redaction replaced in the texts listed. */
  redactions: number;
  notes: string[];
}

export interface SendsInput {
  config: Config;
  tasks: readonly TaskRecord[];
  skill: { path: string; text: string };
  /** The memory document when the night trains it (`evolve_memory`); attempts then carry it. */
  memory: { path: string; text: string } | null;
  rejected: readonly RejectedEditMemory[];
  pending: readonly Edit[];
  /** The model passes of mining, when they would run (built by `explain-mining.ts`). */
  kinds: readonly KindSends[];
  /** `multi_skill_fanout`: skills whose own document goes with their tasks' attempts instead. */
  skills?: ReadonlyArray<{ name: string; path: string; text: string; taskIds: readonly string[] }>;
  notes?: readonly string[];
  /** The outbound redaction; the guarded chat's by default. */
  redact?: (text: string) => RedactionResult;
}

/** The attempt prompt's variables and the stored field each one carries (documents are listed apart). */
const ATTEMPT_FIELDS: Readonly<Record<string, string | null>> = {
  // The tools' names and what they do are the prompt's own words, not a stored text.
  tools: null,
  skill: null,
  memory: null,
  intent: 'intent',
  context: 'context_excerpt',
};

/** The judge prompt's variables: `response` is the target's answer, written tonight. */
const JUDGE_FIELDS: Readonly<Record<string, string | null>> = {
  intent: 'intent',
  rubric: 'rubric',
  response: null,
};

/**
 * A prompt's variables as stored texts: every variable is either mapped (a field, or null for a
 * document or a model's text) or listed under its own name, so a new variable is never left out.
 */
export function varsAsTexts(
  vars: Readonly<Record<string, string>>,
  fields: Readonly<Record<string, string | null>>,
): SentText[] {
  const out: SentText[] = [];
  for (const [name, value] of Object.entries(vars)) {
    const field = name in fields ? fields[name] : `prompt:${name}`;
    const text = value.replace(/^\n+/, '');
    // An empty variable sends nothing stored (the attempt's context of a request typed in one prompt).
    if (field === null || field === undefined || text.trim() === '' || text === NO_TEXT) continue;
    out.push({ field, chars: text.length, text });
  }
  return out;
}

const PLACEHOLDER_ANSWER = '';

function targetSends(task: TaskRecord, config: Config): RoleSends {
  const vars = attemptVars({ task, skill: '', memory: '' });
  const when =
    task.split === 'val'
      ? 'the baseline replay and each gate trial'
      : task.split === 'train'
        ? `each train replay (dream_rollouts: ${config.dream_rollouts})`
        : 'the held-out test: with the starting skill, and with the final one if it changed (never reflected on or gated)';
  return {
    role: 'target',
    prompt: 'attempt',
    to: 'target',
    when,
    texts: varsAsTexts(vars, ATTEMPT_FIELDS),
    model_parts: [],
  };
}

function judgeSends(task: TaskRecord): RoleSends | null {
  const rubric = rubricText(task);
  if (rubric === null) return null;
  const vars = judgeVars({ task, response: PLACEHOLDER_ANSWER, rubric });
  const texts = varsAsTexts(vars, JUDGE_FIELDS).map((t) =>
    t.field === 'rubric'
      ? { ...t, field: task.reference_kind === 'rubric' ? 'reference (rubric)' : 'rubric_criteria' }
      : t,
  );
  return {
    role: 'optimizer-judge',
    prompt: 'judge',
    to: 'optimizer',
    when: 'each time an answer to it is scored',
    texts,
    model_parts: [`the target's answer (up to ${JUDGED_ANSWER_CHARS} characters)`],
  };
}

/** Reflection reads train tasks only: a val or test task's request and reference never reach it. */
function reflectSends(task: TaskRecord): RoleSends | null {
  if (task.split !== 'train') return null;
  const texts: SentText[] = [{ field: 'intent', chars: 0, text: replayIntent(task) }];
  const expected = expectedAnswer(task);
  if (expected !== null) texts.push({ field: 'reference (expected answer)', chars: 0, text: expected });
  ruleChecks(task).forEach((check, i) =>
    texts.push({
      field: `checks[${i}]${check.because ? ' (with because)' : ''}`,
      chars: 0,
      text: failedCheckLine(check),
      when: 'when the answer fails this check',
    }),
  );
  return {
    role: 'optimizer-reflect',
    prompt: 'reflect',
    to: 'optimizer',
    when: 'when the night reflects (some train answer failed), as a failed or a passed replay (a failure with the same verdict as one shown: its request only)',
    texts: texts.map((t) => ({ ...t, chars: t.text.length })),
    model_parts: [
      `the target's answer (up to ${REFLECTED_ANSWER_CHARS} characters)`,
      ...(rubricText(task) === null ? [] : ["the rubric judge's verdict"]),
    ],
  };
}

export function taskLabel(task: TaskRecord): string {
  const tag = task.tags.find((t) => t.startsWith('kind:'));
  return tag === undefined ? '' : tag.slice('kind:'.length);
}

/** Reflection's and merging's night-wide texts: the user's preferences and the edits refused before. */
function nightSends(input: SendsInput): RoleSends[] {
  const buffer = reflectionBuffer([...input.rejected], [...input.pending]);
  const texts: SentText[] = [];
  if (input.config.preferences.trim() !== '')
    texts.push({ field: 'preferences (config)', chars: 0, text: input.config.preferences });
  // Each document's reflection sees the edits refused for it.
  for (const target of input.memory ? (['skill', 'memory'] as const) : (['skill'] as const)) {
    const rejected = renderRejected(buffer.filter((r) => r.target === target));
    const of = target === 'skill' ? '' : ', memory document';
    if (rejected !== '')
      texts.push({ field: `rejected edits (earlier nights${of})`, chars: 0, text: rejected });
  }
  return [
    {
      role: 'optimizer-reflect',
      prompt: 'reflect',
      to: 'optimizer',
      when: 'once per trained document, when some train answer failed',
      texts,
      model_parts: [
        "each train task's replay: its stored texts are listed under the task, its answer is the target's",
      ],
    },
    {
      role: 'optimizer-reflect',
      prompt: 'merge-edits',
      to: 'optimizer',
      when: 'when reflection proposed several edits',
      texts: [],
      model_parts: ['the edits reflection proposed, with their support'],
    },
    {
      role: 'optimizer-reflect',
      prompt: 'repair',
      to: 'optimizer',
      when: 'when a JSON reply was not valid',
      texts: [],
      model_parts: ["the model's invalid reply and what was wrong with it"],
    },
  ];
}

function destinations(config: Config): Destination[] {
  return (['target', 'optimizer'] as const).map((role) => {
    const setup = roleSetup(config, role);
    return {
      role,
      backend: setup.backend,
      model: setup.model,
      base_url: setup.baseUrl,
      leaves_machine: setup.backend !== 'mock',
    };
  });
}

function documents(input: SendsInput): DocumentSent[] {
  const docs: DocumentSent[] = [
    {
      name: 'skill',
      path: input.skill.path,
      chars: input.skill.text.length,
      sent_with: 'every attempt (target), every reflection and merge (optimizer)',
    },
  ];
  for (const skill of input.skills ?? [])
    docs.push({
      name: `skill ${skill.name}`,
      path: skill.path,
      chars: skill.text.length,
      sent_with: `the attempts of its ${skill.taskIds.length} tasks instead of the managed skill (${skill.taskIds.join(', ')}), and their reflection`,
    });
  if (input.memory)
    docs.push({
      name: 'memory',
      path: input.memory.path,
      chars: input.memory.text.length,
      sent_with:
        'every attempt (target), and reflection (optimizer: trained in the memory pass, else read-only)',
    });
  return docs;
}

/** Every text through the outbound redaction; `chars` is the redacted length. */
function redacted(sends: RoleSends, redact: (t: string) => RedactionResult, tally: { n: number }): RoleSends {
  return {
    ...sends,
    texts: sends.texts.map((t) => {
      const r = redact(t.text);
      tally.n += r.count;
      return { ...t, text: r.text, chars: r.text.length };
    }),
  };
}

export function explainSends(input: SendsInput): SendsExplanation {
  const redact = input.redact ?? redactOutbound;
  const tally = { n: 0 };
  const clean = (s: RoleSends): RoleSends => redacted(s, redact, tally);
  const tasks = input.tasks.map((task) => ({
    id: task.id,
    label: taskLabel(task),
    split: task.split,
    reference_kind: task.reference_kind,
    sends: [targetSends(task, input.config), judgeSends(task), reflectSends(task)]
      .filter((s): s is RoleSends => s !== null)
      .map(clean),
  }));
  const dest = destinations(input.config);
  return {
    offline: dest.every((d) => !d.leaves_machine),
    destinations: dest,
    documents: documents(input),
    night: nightSends(input).map(clean),
    tasks,
    kinds: input.kinds.map((k) => ({ ...k, sends: k.sends.map(clean) })),
    redactions: tally.n,
    notes: [...(input.notes ?? [])],
  };
}

export interface RoleTotals {
  prompts: number;
  texts: number;
  chars: number;
}

/** The plan's short form: per role, how many prompts and stored texts (and characters) would go out. */
export interface SendsSummary {
  offline: boolean;
  destinations: Destination[];
  documents: DocumentSent[];
  by_role: Record<SendRole, RoleTotals>;
  redactions: number;
}

export function summarizeSends(e: SendsExplanation): SendsSummary {
  const zero = (): RoleTotals => ({ prompts: 0, texts: 0, chars: 0 });
  const by: Record<SendRole, RoleTotals> = {
    target: zero(),
    'optimizer-judge': zero(),
    'optimizer-reflect': zero(),
    miner: zero(),
  };
  const all = [...e.tasks.flatMap((t) => t.sends), ...e.kinds.flatMap((k) => k.sends)];
  for (const s of [...all, ...e.night.filter((n) => n.texts.length > 0)]) {
    by[s.role].prompts += 1;
    by[s.role].texts += s.texts.length;
    by[s.role].chars += s.texts.reduce((n, t) => n + t.chars, 0);
  }
  return {
    offline: e.offline,
    destinations: e.destinations,
    documents: e.documents,
    by_role: by,
    redactions: e.redactions,
  };
}
