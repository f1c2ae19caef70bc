import type { z } from 'zod';
import type { Edit, EditTarget, Outcome, Score, TaskRecord } from '../core/task.js';
import type { ChatMessage, ChatRole } from './llm/chat.js';
import type { PromptName } from './llm/prompts.js';
import type { SpendSummary } from './llm/spend-meter.js';
import type { Usage } from '../core/usage.js';
import type { ToolSpec } from '../core/tool-calls.js';

export interface AttemptRequest {
  task: TaskRecord;
  skill: string;
  memory: string;
  /** Distinguishes repeated attempts of one task (salts caches on real models). */
  sampleId: number;
  /** Tools the target may call (the night's, the same on every attempt); none when absent. */
  tools?: readonly ToolSpec[];
}

export interface AttemptResult {
  /** The answer, without the lines that stated tool calls. */
  response: string;
  /** The declared tools the target called, in order (lower case). */
  toolsCalled: string[];
  usage: Usage;
}

/**
 * A conversation with the target that a benchmark environment wrote (`src/trainer/envs/`): its own
 * system prompt (which carries the skill) and turns, images included for targets that take them.
 */
export interface ConverseRequest {
  /** The item's task (the mock answers from it; its sessions trace the reply). */
  task: TaskRecord;
  system: string;
  messages: ChatMessage[];
  maxTokens: number;
  /** Distinguishes repeated samples of one item (salts caches on real models). */
  sampleId: number;
}

export interface ConverseResult {
  text: string;
  usage: Usage;
}

/** One judged replay of a task, as the optimizer sees it. */
export interface Trajectory {
  task: TaskRecord;
  response: string;
  score: Score;
  /** The declared tools the answer called (a `tool_called` check reads them, not the text). */
  toolsCalled?: string[];
}

/**
 * An edit the gate refused earlier. Reflection sees it in one of two lists (`madeHeldOutWorse` in
 * `src/core/rejected-edit.ts`): never again, or no measurable effect.
 */
export interface RejectedEditMemory {
  target: EditTarget;
  op: string;
  content: string;
  /** Gate score change the edit caused (negative = it hurt). */
  delta: number;
  /** Why the gate refused it (e.g. "lowered the validation score", "did not help on validation tasks"). */
  reason?: string;
  /** When it was last refused (epoch ms on nights, the step in `train`): recent ones are shown first. */
  at?: number;
}

export interface ReflectRequest {
  target: EditTarget;
  /** The document being trained (full text). */
  doc: string;
  /** The other document (memory when training the skill), read-only context. */
  otherDoc: string;
  failures: Trajectory[];
  successes: Trajectory[];
  editBudget: number;
  /** The rejected-edit buffer: capped, without edits pending a re-test (`src/trainer/rejected-buffer.ts`). */
  rejected: RejectedEditMemory[];
  preferences: string;
  /** Cross-epoch memory of the trainer (what helped, what did not), when it has one. */
  metaNote?: string;
  /** Whether the document has its learned block yet, and rules in it (the prompt says so). */
  learnedBlock?: LearnedBlockState;
}

/** `absent`: no markers yet (the first accepted edit adds them); `empty`: markers, no rule. */
export type LearnedBlockState = 'absent' | 'empty' | 'filled';

export interface ReflectResult {
  edits: Edit[];
  usage: Usage;
}

/** An edit with how many reflection calls proposed it. */
export interface SupportedEdit extends Edit {
  support: number;
  source: 'failure' | 'success';
}

export interface MergeEditsRequest {
  doc: string;
  edits: SupportedEdit[];
  metaNote?: string;
  /** The sessions of the tasks the edits were reflected from (provenance for `forget`; never sent). */
  sessions?: readonly string[];
}

/** The merged list; the trainer checks its shape and falls back to its own de-duplication. */
export interface MergeEditsResult {
  edits: unknown[];
  usage: Usage;
}

export interface RewriteRequest {
  /** The whole skill document, for context. */
  doc: string;
  /** The learned rules as they stand; the reply replaces them (text outside the block is kept). */
  rules: string[];
  /** The selected edits the rewrite should take into account. */
  suggestions: Edit[];
  metaNote?: string;
}

export interface RewriteResult {
  rules: unknown[];
  usage: Usage;
}

export interface RubricRequest {
  task: TaskRecord;
  response: string;
  rubric: string;
}

/** One recurring task as the LLM miner shows it to the optimizer (see `src/miner/llm-miner.ts`). */
export interface ProposeTasksRequest {
  project: string;
  /** Distinct wordings of the task, newest first (at most 6, each at most 240 characters). */
  intents: string[];
  /**
   * The user's corrections across the task's sessions (at most 6): the follow-ups the offline miner
   * saw the agent redo its work for, whether or not a check came out of them.
   */
  corrections: string[];
  /** The other follow-ups after the agent's first answer, newest session first (at most 8, each cut short). */
  followUps: string[];
  /** The agent's first answer in the latest session (at most 400 characters). */
  lastAnswer: string;
  outcomes: Record<Outcome, number>;
  /** The task's sessions (provenance for `forget`; never sent). */
  sessions?: readonly string[];
}

export interface ProposeTasksResult {
  /** The model's parsed JSON reply, unvalidated: the miner validates every statement and check. */
  reply: unknown;
  usage: Usage;
}

/** A JSON reply validated by a zod schema. */
export interface JsonAnswer<T> {
  /** null when the reply stayed invalid after the repair request. */
  value: T | null;
  usage: Usage;
}

/** A model backend. Roles: `attempt` is the target agent; `reflect` and `judgeRubric` are the optimizer. */
export interface Backend {
  readonly name: string;
  /** True when nothing leaves the machine (the mock). Real backends refuse unreviewed tasks files. */
  readonly offline: boolean;
  /** The same attempt always gets the same answer (the mock): repeated samples would only repeat it. */
  readonly deterministic?: boolean;
  attempt(req: AttemptRequest): Promise<AttemptResult>;
  /** The target answers an environment's conversation (benchmark environments); absent = cannot. */
  converse?(req: ConverseRequest): Promise<ConverseResult>;
  /** True when the target reads images in a conversation (OpenAI, Azure OpenAI, Anthropic; the mock). */
  readonly acceptsImages?: boolean;
  reflect(req: ReflectRequest): Promise<ReflectResult>;
  judgeRubric(req: RubricRequest): Promise<Score & { usage: Usage }>;
  /** Optimizer: 0–3 checkable task statements for a recurring task (real models only; the LLM miner). */
  proposeTasks?(req: ProposeTasksRequest): Promise<ProposeTasksResult>;
  /** Optional: merge similar edits (the trainer de-duplicates deterministically without it). */
  mergeEdits?(req: MergeEditsRequest): Promise<MergeEditsResult>;
  /** Optional: rewrite the learned rules as a whole (update_mode "rewrite"); gated like any edit. */
  rewrite?(req: RewriteRequest): Promise<RewriteResult>;
  /**
   * Real backends: ask a role for JSON from a prompt template (cached, budgeted, redacted like every
   * request); prompt-backed passes such as session labelling use it.
   */
  askJson?<T>(
    role: ChatRole,
    template: PromptName,
    vars: Readonly<Record<string, string>>,
    schema: z.ZodType<T>,
    shape: string,
    /** The sessions whose text `vars` carry (provenance for `forget`; never sent). */
    sessions?: readonly string[],
  ): Promise<JsonAnswer<T>>;
  /** Real backends: what the night's requests cost so far, against its budget. */
  spendSummary?(): SpendSummary;
  /** Carry on from an earlier part of the same night's spend (a resumed handoff night). */
  restoreSpend?(summary: SpendSummary): void;
  /** Real backends: wait (at most `timeoutMs`) for the requests in flight to answer and be metered. */
  settleSpend?(timeoutMs: number): Promise<void>;
}
