/**
 * The deterministic offline backend. The target answers from the task's recorded first attempt (or, for
 * the reference's persona tasks, from its reference answer) and follows the rules it can read in the
 * skill; the optimizer reads failed checks and writes the rule that would fix them. Nothing leaves the
 * machine and every run gives the same answers.
 */
import { evaluateCheck, parseCharBound } from '../../replay/judges/rule-checks.js';
import { splitStatedCalls } from '../../core/tool-calls.js';
import { keywordScore } from '../../replay/judges/exact.js';
import { forbiddenPattern } from '../../core/negative-check.js';
import { avoidedTerm, EDITS, POSITIVE_ACTION_OPS, RUNS, usedTerm, WRITES } from '../../core/action-checks.js';
import { madeHeldOutWorse } from '../../core/rejected-edit.js';
import { ruleChecks, type Check, type Edit, type TaskRecord } from '../../core/task.js';
import type {
  AttemptRequest,
  AttemptResult,
  Backend,
  ConverseRequest,
  ConverseResult,
  ReflectRequest,
  ReflectResult,
  RewriteRequest,
  RewriteResult,
  RubricRequest,
  Trajectory,
} from '../types.js';
import type { Usage } from '../../core/usage.js';
import { zeroUsage } from '../../core/usage.js';
import {
  applyGrammarRules,
  EVERYWHERE,
  formatRule,
  parseGrammarRules,
  RULE_TABLE,
  type GrammarRule,
  type RuleScope,
} from './rule-grammar.js';
import { scopeKeyword } from './scope-keyword.js';
import type { ActionVerb } from './action-rules.js';
import { answerDiffProposals } from './answer-diff.js';
import { checksOfKnownLessons, knownLessons, lessonRuleLine } from './lesson-rules.js';

const HARMFUL = '__harmful__';
const oneCall = (): Usage => ({ calls: 1, inputTokens: 0, outputTokens: 0 });
const normalize = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** The `rule:<key>` tags of a task that the rule table knows. */
function tableKeys(task: TaskRecord): string[] {
  return task.tags
    .filter((t) => t.startsWith('rule:'))
    .map((t) => t.slice('rule:'.length))
    .filter((k) => k in RULE_TABLE);
}

function nearMiss(reference: string): string {
  return reference.length > 3
    ? `approximately ${reference.slice(0, -2)} (format not applied)`
    : 'approximately unknown (format not applied)';
}

function attemptText(task: TaskRecord, ctx: string, tools: readonly string[]): string {
  const harmfulInContext = ctx.includes(RULE_TABLE[HARMFUL] ?? '\u0000');
  const keys = tableKeys(task);
  if (keys.includes(HARMFUL)) return "I'll just answer freely and skip the requested format.";
  // A harmful rule really hurts: the target stops applying any format at all.
  if (harmfulInContext) return task.reference ? nearMiss(task.reference) : task.attempted_solution;
  if (keys.length > 0) {
    const allKnown = keys.every((k) => ctx.includes(RULE_TABLE[k] ?? '\u0000'));
    if (allKnown && task.reference) {
      return keys.includes('wrap-answer')
        ? `Here is the result. <answer>${task.reference}</answer>`
        : task.reference;
    }
    return task.reference ? nearMiss(task.reference) : '(attempted, no checkable reference)';
  }
  const base =
    task.attempted_solution ||
    (task.reference ? nearMiss(task.reference) : '(attempted, no checkable reference)');
  // Only a mined rule task's reference is an answer the user accepted; an exact task's is the key.
  const accepted = task.reference_kind === 'rule' ? task.reference : '';
  return applyGrammarRules(base, [...parseGrammarRules(ctx), ...lessonGrammar(task, ctx)], {
    intent: task.intent,
    tags: task.tags,
    reference: accepted,
    tools,
  });
}

/**
 * The grammar rules of the lessons the skill states for this task: each check learned from a stated
 * lesson is met as its own rule would have it (the document says the sentence, the target acts on it).
 */
function lessonGrammar(task: TaskRecord, ctx: string): GrammarRule[] {
  const checks = ruleChecks(task);
  if (!checks.some((c) => c.because)) return [];
  const known = checksOfKnownLessons(checks, knownLessons(ctx, task));
  return [...known].map((i) => ruleForCheck(i, checks)).filter((r): r is GrammarRule => r !== null);
}

/**
 * The rule that would make a failed check pass. The miner writes "use X instead of Y" as a "use" check
 * (`contains`, `runs`, `writes`, `edits` X) directly followed by the negative check for Y, so adjacency
 * pairs them into one rule. A check on actions gives an action rule, a pattern check a pattern rule.
 */
function ruleForCheck(index: number, all: Check[]): GrammarRule | null {
  const check = all[index];
  if (!check) return null;
  const next = all[index + 1];
  const previous = all[index - 1];
  const scope = EVERYWHERE;
  const used = isUse(check) ? usedTerm(check) : null;
  if (used !== null) {
    const pairedTerm = next ? avoidedTerm(next) : null;
    if (pairedTerm !== null) return { kind: 'use-instead', use: used, instead: pairedTerm, scope };
    const verb = VERB_OF[check.op];
    return verb
      ? { kind: 'act', verb, never: false, text: used, scope }
      : { kind: 'always', text: used, scope };
  }
  const avoided = avoidedTerm(check);
  if (avoided !== null) {
    const pairedTerm = previous && isUse(previous) ? usedTerm(previous) : null;
    if (pairedTerm !== null) return { kind: 'use-instead', use: pairedTerm, instead: avoided, scope };
    const verb = VERB_OF[check.op.slice('not_'.length)];
    return verb
      ? { kind: 'act', verb, never: true, text: avoided, scope }
      : { kind: 'never', text: avoided, scope };
  }
  if (check.op === 'not_contains' && check.arg) return { kind: 'never', text: String(check.arg), scope };
  const pattern = forbiddenPattern(check);
  if (pattern !== null) return { kind: 'never-match', pattern, scope };
  if (check.op === 'regex' && typeof check.arg === 'string' && check.arg !== '') {
    return { kind: 'match', pattern: check.arg, scope };
  }
  return shapeOrToolRule(check, scope);
}

/** A section is a heading of its own, a bound a cut, a tool a stated call (see the rule grammar). */
function shapeOrToolRule(check: Check, scope: RuleScope): GrammarRule | null {
  const arg = check.arg === undefined ? '' : String(check.arg).trim();
  if (arg === '') return null;
  if (check.op === 'section_present') return { kind: 'always', text: `## ${arg}`, scope };
  if (check.op === 'tool_called') return { kind: 'call', tool: arg.toLowerCase(), scope };
  const bound = check.op === 'max_chars' ? parseCharBound(check.arg) : undefined;
  return bound === undefined ? null : { kind: 'max-length', chars: bound, scope };
}

/** The verb of an action op's rule (`runs` → "Always run"). */
const VERB_OF: Readonly<Record<string, ActionVerb>> = { [RUNS]: 'run', [EDITS]: 'edit', [WRITES]: 'write' };

/** A check the mock meets by saying or doing the term (`mentions` is left to the rule for `contains`). */
const isUse = (check: Check): boolean => check.op === 'contains' || POSITIVE_ACTION_OPS.has(check.op);

/** The task kind every task shares (their `kind:` tag), else a word all their wordings share. */
function scopeOf(tasks: readonly TaskRecord[]): RuleScope {
  const kinds = new Set(tasks.map((t) => t.tags.find((tag) => tag.startsWith('kind:')) ?? ''));
  const [only] = kinds;
  if (kinds.size === 1 && only !== undefined && only !== '')
    return { kind: 'task-kind', label: only.slice('kind:'.length) };
  const word = scopeKeyword(tasks.map((t) => t.intent));
  return word === '' ? EVERYWHERE : { kind: 'mentions', word };
}

interface Proposal {
  /** The rule's line for a scope: the user's sentence of a lesson, or a grammar rule. */
  line: (scope: RuleScope) => string;
  tasks: TaskRecord[];
  firstTaskId: string;
  failedCheck: string;
}

function checkProposals(failures: Trajectory[]): Proposal[] {
  const byRule = new Map<string, Proposal>();
  for (const f of failures) {
    const checks = ruleChecks(f.task);
    for (const [index, check] of checks.entries()) {
      if (evaluateCheck(check, f.response, f.toolsCalled ?? []).pass) continue;
      // A check learned from a lesson is fixed by stating the lesson, in the user's words.
      const because = check.because ?? '';
      const rule = because === '' ? ruleForCheck(index, checks) : null;
      if (because === '' && !rule) continue;
      const line = rule
        ? (scope: RuleScope): string => formatRule({ ...rule, scope })
        : (scope: RuleScope): string => lessonRuleLine(because, scope);
      const key = line(EVERYWHERE);
      const existing = byRule.get(key);
      if (existing) existing.tasks.push(f.task);
      else
        byRule.set(key, {
          line,
          tasks: [f.task],
          firstTaskId: f.task.id,
          failedCheck: `${check.op}=${String(check.arg ?? '')}`,
        });
    }
  }
  return [...byRule.values()];
}

export class MockBackend implements Backend {
  readonly name = 'mock';
  readonly offline = true;
  readonly deterministic = true;

  attempt(req: AttemptRequest): Promise<AttemptResult> {
    const ctx = `${req.skill}\n${req.memory}`;
    const tools = req.tools ?? [];
    const text = attemptText(
      req.task,
      ctx,
      tools.map((t) => t.name),
    );
    // The mock states its calls as any target without native tools does, and they are read back alike.
    const { answer, calls } = splitStatedCalls(text, tools);
    return Promise.resolve({ response: answer, toolsCalled: calls, usage: oneCall() });
  }

  /** Images are accepted and not looked at: the mock answers from the task, as `attempt` does. */
  readonly acceptsImages = true;

  /** An environment's conversation: answered from the task, following the rules its prompts state. */
  converse(req: ConverseRequest): Promise<ConverseResult> {
    const ctx = [req.system, ...req.messages.map((m) => m.content)].join('\n');
    return Promise.resolve({ text: attemptText(req.task, ctx, []), usage: oneCall() });
  }

  reflect(req: ReflectRequest): Promise<ReflectResult> {
    const ctx = `${req.doc}\n${req.otherDoc}`;
    const refused = new Set(req.rejected.filter(madeHeldOutWorse).map((r) => normalize(r.content)));
    const edits: Edit[] = [];
    const propose = (content: string, rationale: string): void => {
      if (edits.length >= req.editBudget) return;
      if (ctx.includes(content) || refused.has(normalize(content))) return;
      if (edits.some((e) => e.content === content)) return;
      edits.push({ target: req.target, op: 'add', content, anchor: '', rationale });
    };
    for (const f of req.failures) {
      for (const key of tableKeys(f.task)) {
        propose(RULE_TABLE[key] ?? '', `failed task ${f.task.id} requires rule '${key}'`);
      }
    }
    for (const p of checkProposals(req.failures)) {
      const content = p.line(scopeOf(p.tasks));
      propose(content, `failed check ${p.failedCheck} on ${p.tasks.length} task(s), first ${p.firstTaskId}`);
    }
    // Answer-graded tasks with a recorded draft (labelled datasets): diff the answer with the hidden reference.
    const drafted = req.failures.filter(
      (f) =>
        f.task.reference_kind === 'exact' &&
        f.task.attempted_solution !== '' &&
        tableKeys(f.task).length === 0,
    );
    const diffs = answerDiffProposals(
      drafted.map((f) => ({ taskId: f.task.id, response: f.response, reference: f.task.reference })),
    );
    for (const d of diffs) propose(d.content, `answer differs from the reference on ${d.support.join(', ')}`);
    return Promise.resolve({ edits, usage: req.failures.length > 0 ? oneCall() : zeroUsage() });
  }

  /** A deterministic rewrite: apply the suggestions, tidy each rule, drop duplicates, sort the list. */
  rewrite(req: RewriteRequest): Promise<RewriteResult> {
    let rules = [...req.rules];
    for (const s of req.suggestions) {
      const anchor = normalize(s.anchor);
      if (s.op === 'add') rules.push(s.content);
      else if (s.op === 'delete')
        rules = rules.filter((r) => anchor === '' || !normalize(r).includes(anchor));
      else rules = rules.map((r) => (anchor !== '' && normalize(r).includes(anchor) ? s.content : r));
    }
    const tidy = rules
      .map((r) => r.replace(/\s+/g, ' ').trim())
      .filter((r) => r !== '')
      .map((r) => (/[.!?]$/.test(r) ? r : `${r}.`));
    const unique = tidy.filter((r, i) => tidy.findIndex((o) => normalize(o) === normalize(r)) === i);
    return Promise.resolve({ rules: unique.sort((a, b) => a.localeCompare(b)), usage: oneCall() });
  }

  judgeRubric(req: RubricRequest): Promise<{ hard: number; soft: number; rationale: string; usage: Usage }> {
    const soft = keywordScore(req.rubric || req.task.intent, req.response);
    return Promise.resolve({
      hard: soft >= 0.8 ? 1 : 0,
      soft,
      rationale: `keyword score ${soft.toFixed(3)}`,
      usage: oneCall(),
    });
  }
}
