/**
 * The backend for real models: the target role attempts tasks, the optimizer role reflects and judges
 * rubrics. Prompts come from `templates/prompts/`; replies that must be JSON go through `askJson`
 * (tolerant extraction, zod validation, one repair request; what stays invalid is counted). Every
 * request passes the guarded pipeline (redaction, cache, budget, retries, concurrency limit).
 */
import { z } from 'zod';
import { UsageError } from '../../core/errors.js';
import { taskSessions, tasksSessions, type Edit, type Score, type TaskRecord } from '../../core/task.js';
import { splitStatedCalls } from '../../core/tool-calls.js';
import type {
  AttemptRequest,
  AttemptResult,
  Backend,
  ConverseRequest,
  ConverseResult,
  JsonAnswer,
  LearnedBlockState,
  MergeEditsRequest,
  MergeEditsResult,
  ProposeTasksRequest,
  ProposeTasksResult,
  ReflectRequest,
  ReflectResult,
  RewriteRequest,
  RewriteResult,
  RubricRequest,
} from '../types.js';
import type { Usage } from '../../core/usage.js';
import { addUsage, zeroUsage } from '../../core/usage.js';
import type { ChatMessage, ChatRole } from './chat.js';
import type { GuardedChat } from './guarded-chat.js';
import { EDITS_SHAPE, editsReplySchema } from './edit-reply.js';
import { jsonCandidates } from './json-reply.js';
import { reflectEvidence } from './reflect-evidence.js';
import { toolsText } from './tools-text.js';
import { renderRejected } from './rejected-prompt.js';
import { renderPrompt, type PromptName } from './prompts.js';
import type { SpendMeter, SpendSummary } from './spend-meter.js';

const ATTEMPT_MAX_TOKENS = 1024;
const JSON_MAX_TOKENS = 1500;
const EXCERPT = 1500;
/** How much of an answer the rubric judge reads. */
export const JUDGED_ANSWER_CHARS = 6000;

const clip = (text: string, n = EXCERPT): string => (text.length > n ? `${text.slice(0, n)} […]` : text);
/** What a prompt says in place of an empty section. */
export const NO_TEXT = '(none)';
const orNone = (text: string): string => (text.trim() === '' ? NO_TEXT : text);

/** How many passed (and unchecked) replays one reflect call shows. */
const MAX_REFLECT_SUCCESSES = 8;

/** The document heading: markers are named only once they exist. */
const LEARNED_BLOCK_HEADINGS: Record<LearnedBlockState, string> = {
  absent:
    'it has no learned block yet: the first accepted edit creates it, so propose "add" edits; there is no line to replace or delete',
  empty:
    'the learned block is between the LEARNED START and END markers; it has no rule yet, so propose "add" edits',
  filled: 'the learned block is between the LEARNED START and END markers',
};

export const scoreReplySchema = z.object({
  hard: z.union([z.literal(0), z.literal(1)]),
  soft: z.number().min(0).max(1),
  rationale: z.string().default(''),
});
const SCORE_SHAPE = '{"hard": 0, "soft": 0.5, "rationale": "one sentence"}';

/**
 * The miner's reply is only checked for its outer shape here (a list, or `{tasks: [...]}`); every
 * statement and check is validated by the miner (`src/miner/llm-miner.ts`), which counts what it drops.
 */
export const minedTasksReplySchema = z.union([
  z.array(z.unknown()).max(20),
  z.looseObject({ tasks: z.array(z.unknown()).max(20) }),
]);
const MINED_SHAPE =
  '[{"intent": "the task", "checks": [{"op": "contains", "arg": "x"}], "rubric": "", "satisfied": false}]';

const rulesReplySchema = z.object({ rules: z.array(z.string()).max(100) });
const RULES_SHAPE = '{"rules": ["first rule", "second rule"]}';

const describeEdit = (e: { op: string; content: string; anchor: string }): string =>
  `- [${e.op}] ${e.content}${e.anchor ? ` (anchor: ${e.anchor})` : ''}`;

export type { JsonAnswer };

function zodProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'value'}: ${issue.message}` : 'does not match the schema';
}

export class LlmBackend implements Backend {
  readonly name: string;
  readonly offline = false;

  private readonly chats: Record<ChatRole, GuardedChat>;
  private readonly meter: SpendMeter;
  constructor(chats: Record<ChatRole, GuardedChat>, meter: SpendMeter) {
    this.chats = chats;
    this.meter = meter;
    const t = chats.target.provider.name;
    const o = chats.optimizer.provider.name;
    this.name = t === o ? t : `${t}+${o}`;
  }

  spendSummary(): SpendSummary {
    return this.meter.summary();
  }

  restoreSpend(summary: SpendSummary): void {
    this.meter.restore(summary);
  }

  async settleSpend(timeoutMs: number): Promise<void> {
    await this.meter.whenIdle(timeoutMs);
  }

  /**
   * Ask a role for a JSON value: fill the template, extract the first JSON value of the reply, validate
   * it; on failure ask once more with the reason. Exported for prompt-backed features (e.g. an LLM miner).
   */
  async askJson<T>(
    role: ChatRole,
    template: PromptName,
    vars: Readonly<Record<string, string>>,
    schema: z.ZodType<T>,
    shape: string,
    sessions?: readonly string[],
  ): Promise<JsonAnswer<T>> {
    const usage = zeroUsage();
    const prompt = renderPrompt(template, vars);
    const messages: ChatMessage[] = [{ role: 'user', content: prompt.user }];
    const ask = async (msgs: ChatMessage[]): Promise<string> => {
      const reply = await this.chats[role].complete({
        role,
        system: prompt.system,
        messages: msgs,
        maxTokens: JSON_MAX_TOKENS,
        temperature: 0,
        purpose: template,
        ...(sessions ? { sessions } : {}),
      });
      addUsage(usage, reply.usage);
      return reply.text;
    };
    // The first value that passes the schema wins; the first value's problem is what repair names.
    const check = (text: string): { value: T } | { problem: string } => {
      let problem = 'it contained no JSON value';
      let first = true;
      for (const candidate of jsonCandidates(text)) {
        const parsed = schema.safeParse(candidate);
        if (parsed.success) return { value: parsed.data };
        if (first) problem = zodProblem(parsed.error);
        first = false;
      }
      return { problem };
    };
    const first = await ask(messages);
    const firstCheck = check(first);
    if ('value' in firstCheck) return { value: firstCheck.value, usage };
    const repair = renderPrompt('repair', { problem: firstCheck.problem, shape });
    const second = await ask([
      ...messages,
      { role: 'assistant', content: first },
      { role: 'user', content: repair.user },
    ]);
    const secondCheck = check(second);
    if ('value' in secondCheck) {
      this.meter.repairedReplies += 1;
      return { value: secondCheck.value, usage };
    }
    this.meter.invalidReplies += 1;
    return { value: null, usage };
  }

  async attempt(req: AttemptRequest): Promise<AttemptResult> {
    const tools = req.tools ?? [];
    const native = tools.length > 0 && this.chats.target.provider.nativeTools === true;
    const prompt = renderPrompt('attempt', attemptVars(req, native));
    const reply = await this.chats.target.complete({
      role: 'target',
      system: prompt.system,
      messages: [{ role: 'user', content: prompt.user }],
      maxTokens: ATTEMPT_MAX_TOKENS,
      // Repeated samples (dream rollouts) need different answers; the first one is deterministic.
      temperature: req.sampleId > 0 ? 0.7 : 0,
      sample: req.sampleId,
      sessions: taskSessions(req.task),
      purpose: 'attempt',
      ...(native ? { tools } : {}),
    });
    // A native call reaches the text as a stated call too: one reader for every target.
    const { answer, calls } = splitStatedCalls(reply.text, tools);
    return { response: answer.trim(), toolsCalled: calls, usage: reply.usage };
  }

  get acceptsImages(): boolean {
    return this.chats.target.provider.images === true;
  }

  /** An environment's own conversation, sent as it is (its system prompt carries the skill). */
  async converse(req: ConverseRequest): Promise<ConverseResult> {
    if (!this.acceptsImages && req.messages.some((m) => (m.images ?? []).length > 0))
      throw new UsageError(
        `the ${this.chats.target.provider.name} target cannot read images; this environment needs the openai, azure-openai or anthropic backend`,
      );
    const reply = await this.chats.target.complete({
      role: 'target',
      system: req.system,
      messages: req.messages,
      maxTokens: req.maxTokens,
      temperature: req.sampleId > 0 ? 0.7 : 0,
      sample: req.sampleId,
      sessions: taskSessions(req.task),
      purpose: 'env-rollout',
    });
    return { text: reply.text.trim(), usage: reply.usage };
  }

  async reflect(req: ReflectRequest): Promise<ReflectResult> {
    // A call with only successes is `reflect_successes`: rules that keep what made them pass.
    if (req.failures.length === 0 && req.successes.length === 0) return { edits: [], usage: zeroUsage() };
    const evidence = reflectEvidence(req.failures, req.successes, MAX_REFLECT_SUCCESSES);
    const answer = await this.askJson(
      'optimizer',
      'reflect',
      {
        edit_budget: String(req.editBudget),
        preferences: orNone(req.preferences),
        learned_block: LEARNED_BLOCK_HEADINGS[req.learnedBlock ?? 'filled'],
        doc: req.doc,
        meta_note: orNone(req.metaNote ?? ''),
        other_doc: orNone(req.otherDoc),
        failures: orNone(evidence.failures),
        successes: orNone(evidence.successes),
        unchecked: orNone(evidence.unchecked),
        rejected: orNone(renderRejected(req.rejected.filter((r) => r.target === req.target))),
      },
      editsReplySchema,
      EDITS_SHAPE,
      tasksSessions([...req.failures, ...req.successes].map((t) => t.task)),
    );
    const edits: Edit[] = (answer.value?.edits ?? [])
      .filter((e) => e.content.trim() !== '' || e.op === 'delete')
      .slice(0, req.editBudget)
      .map((e) => ({
        target: req.target,
        op: e.op,
        content: e.content.trim(),
        anchor: e.anchor,
        rationale: e.rationale,
      }));
    return { edits, usage: answer.usage };
  }

  /** An unusable reply comes back as no edits: the trainer then keeps its own de-duplication. */
  async mergeEdits(req: MergeEditsRequest): Promise<MergeEditsResult> {
    const answer = await this.askJson(
      'optimizer',
      'merge-edits',
      {
        doc: req.doc,
        meta_note: orNone(req.metaNote ?? ''),
        edits: req.edits.map((e) => `${describeEdit(e)} — supported by ${e.support}`).join('\n'),
      },
      editsReplySchema,
      EDITS_SHAPE,
      req.sessions,
    );
    return { edits: answer.value?.edits ?? [], usage: answer.usage };
  }

  /** An unusable reply comes back as no rules: the trainer then falls back to the patch. */
  async rewrite(req: RewriteRequest): Promise<RewriteResult> {
    const answer = await this.askJson(
      'optimizer',
      'rewrite-rules',
      {
        doc: req.doc,
        meta_note: orNone(req.metaNote ?? ''),
        rules: orNone(req.rules.map((r) => `- ${r}`).join('\n')),
        suggestions: orNone(req.suggestions.map(describeEdit).join('\n')),
      },
      rulesReplySchema,
      RULES_SHAPE,
    );
    return { rules: answer.value?.rules ?? [], usage: answer.usage };
  }

  async proposeTasks(req: ProposeTasksRequest): Promise<ProposeTasksResult> {
    const answer = await this.askJson(
      'optimizer',
      'mine-tasks',
      proposeTasksVars(req),
      minedTasksReplySchema,
      MINED_SHAPE,
      req.sessions,
    );
    return { reply: answer.value, usage: answer.usage };
  }

  async judgeRubric(req: RubricRequest): Promise<Score & { usage: Usage }> {
    const answer = await this.askJson(
      'optimizer',
      'judge',
      judgeVars(req),
      scoreReplySchema,
      SCORE_SHAPE,
      taskSessions(req.task),
    );
    if (!answer.value) {
      // Scoring 0/0 would count the judge's failure against the candidate: the answer is left out.
      this.meter.unjudgedAnswers += 1;
      const rationale = 'left out: the judge gave no valid reply';
      return { hard: 0, soft: 0, rationale, unjudged: true, usage: answer.usage };
    }
    return { ...answer.value, usage: answer.usage };
  }
}

/** What the target sees besides the intent: the session's other requests, never the attempt or a fix. */
function attemptContext(task: TaskRecord): string {
  return task.context_excerpt.trim() === '' ? '' : `\n${clip(task.context_excerpt)}`;
}

/*
 * The variables of the prompts that carry stored texts. The requests build their prompts from these,
 * and so does `run --explain-sends` (src/night/explain-sends.ts), so what it lists is what is sent.
 */

/**
 * The attempt prompt (target): the two documents, the task's request and its context excerpt, and
 * what tools it has (`native`: declared with the request; otherwise it states its calls).
 */
export function attemptVars(
  req: Pick<AttemptRequest, 'task' | 'skill' | 'memory' | 'tools'>,
  native = false,
): Record<string, string> {
  return {
    tools: toolsText(req.tools ?? [], native),
    skill: orNone(req.skill),
    memory: orNone(req.memory),
    intent: req.task.intent,
    context: attemptContext(req.task),
  };
}

/** The judge prompt (optimizer, rubric tasks and rubric criteria). */
export function judgeVars(req: RubricRequest): Record<string, string> {
  return { intent: req.task.intent, rubric: req.rubric, response: clip(req.response, JUDGED_ANSWER_CHARS) };
}

/** The mine-tasks prompt (optimizer, the LLM miner): one kind's digest. */
export function proposeTasksVars(req: ProposeTasksRequest): Record<string, string> {
  return {
    // The folder's name, not its path: the path says nothing more about the work, tells a provider how
    // the user's disk is laid out, and would make the same request differ from one machine to another.
    project:
      req.project
        .split(/[\\/]/)
        .filter((part) => part !== '')
        .at(-1) ?? req.project,
    intents: req.intents.map((i) => `- ${i}`).join('\n'),
    corrections: orNone(req.corrections.map((c) => `- ${c}`).join('\n')),
    follow_ups: orNone(req.followUps.map((f) => `- ${f}`).join('\n')),
    last_answer: orNone(req.lastAnswer),
    outcomes: Object.entries(req.outcomes)
      .filter(([, n]) => n > 0)
      .map(([outcome, n]) => `${outcome}: ${n}`)
      .join(', '),
  };
}
