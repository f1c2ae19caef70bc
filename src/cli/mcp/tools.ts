/**
 * The MCP tools: each one runs the same CLI command a user would type, with `--json`, and returns its
 * JSON as the tool's structured result. A command that fails (exit code ≠ 0) is a tool error carrying
 * the CLI's one-line message, its error code and exit code; nothing else of the process reaches the
 * agent. Inputs are closed schemas (`tool-inputs.ts`): an argument no schema names is refused, never
 * dropped, and no flag, path or program is passed through that the schema does not name.
 */
import { z } from 'zod';
import {
  backend,
  exportTarget,
  id,
  lookbackHours,
  project,
  tasksFile,
  withBackend,
  withLookback,
  withTasksFile,
} from './tool-inputs.js';

/**
 * The MCP spec's tool annotations, all four always set: clients (VS Code, Claude Code, Cursor) decide
 * from them whether to run a tool unasked, and an unset hint means the worst (destructive, open world).
 */
export interface ToolHints {
  /** Changes nothing the user keeps (a command's own recovery of a killed adoption aside). */
  readOnlyHint: boolean;
  /** May overwrite or remove what exists; false: it only adds (a proposal, a stored session). */
  destructiveHint: boolean;
  /** A second call with the same arguments changes nothing more. */
  idempotentHint: boolean;
  /** May talk to a model provider over the network (a real backend); false: this machine only. */
  openWorldHint: boolean;
}

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  /**
   * A `z.strictObject`: an unknown argument is a validation error naming it, and the listed schema says
   * `additionalProperties: false` (the types do not tell a strict object apart; the e2e test does).
   */
  input: z.ZodObject;
  hints: ToolHints;
  /**
   * The CLI arguments for a validated input (`--json` and `--project` are added by the server);
   * `project` is the folder the command will act on.
   */
  args(input: Record<string, unknown>, project: string): string[];
  /** Text the command reads on stdin (a handoff answer), if any. */
  stdin?(input: Record<string, unknown>): string;
}

const str = (v: unknown): string => String(v);

const READ_ONLY: ToolHints = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
/** Overwrites or turns down something the user keeps; on this machine only. */
const DESTRUCTIVE = { readOnlyHint: false, destructiveHint: true, openWorldHint: false } as const;

/** The most nights `sleep_status` lists: its answer lands in the agent's context. */
const MAX_STATUS_NIGHTS = 50;

export const TOOLS: ToolSpec[] = [
  {
    name: 'sleep_status',
    title: 'Status',
    description:
      "The project's latest staged proposal, its newest nights (n_nights counts them all) and any night waiting for answers.",
    input: z.strictObject({
      project,
      limit: z
        .number()
        .int()
        .min(1)
        .max(MAX_STATUS_NIGHTS)
        .default(5)
        .describe(`how many of the newest nights to list (1 to ${MAX_STATUS_NIGHTS})`),
    }),
    hints: READ_ONLY,
    args: (i) => ['status', '--limit', str(i.limit)],
  },
  {
    name: 'sleep_dry_run',
    title: 'Dry run',
    description:
      'Compute a whole night and report what it would propose, writing nothing into the project and recording no night (new transcripts are read into the local store). On a real backend only the plan is computed unless yes is true (then it spends within the budget).',
    input: z.strictObject({
      project,
      backend,
      tasks_file: tasksFile,
      lookback_hours: lookbackHours,
      yes: z
        .boolean()
        .optional()
        .describe(
          'on a real backend, send the requests and spend within the budget (default false: only the plan, nothing sent)',
        ),
    }),
    // Not read-only: it harvests into the local store. Open world: with yes, a real backend is called,
    // and a second call may send (and spend) again.
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    args: (i, p) => [
      'dry-run',
      ...withBackend(i),
      ...withTasksFile(i, p),
      ...withLookback(i),
      ...(i.yes === true ? ['--yes'] : []),
    ],
  },
  {
    name: 'sleep_run',
    title: 'Run a night',
    description:
      'Run one night: harvest, mine, train behind the validation gate and stage a proposal (nothing live changes until it is adopted, unless the user\'s config sets auto_adopt). With backend "handoff" the night stops with stopped "waiting_handoff" until sleep_handoff_answer has answered its requests; call it again to go on. A night run with batch (config or --batch) stops with stopped "waiting_batch" while its batches run; call it again later to go on.',
    input: z.strictObject({ project, backend, tasks_file: tasksFile, lookback_hours: lookbackHours }),
    // Destructive: with auto_adopt in the user's config, an accepted night writes the live files.
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    args: (i, p) => ['run', ...withBackend(i), ...withTasksFile(i, p), ...withLookback(i)],
  },
  {
    name: 'sleep_proposals',
    title: 'Proposals',
    description: "List the project's proposals, or show one (with its report) or its diff.",
    input: z.strictObject({
      project,
      action: z
        .enum(['list', 'show', 'diff'])
        .default('list')
        .describe('list every proposal, show one with its report, or its diff against the live files'),
      id: id.optional().describe('the proposal id (p-…), as list gives it; needed by show and diff'),
    }),
    hints: READ_ONLY,
    args: (i) => {
      if (i.action !== 'list' && i.id === undefined) throw new Error(`${str(i.action)} needs an id`);
      return ['proposals', str(i.action), ...(i.action === 'list' ? [] : [str(i.id)])];
    },
  },
  {
    name: 'sleep_adopt',
    title: 'Adopt a proposal',
    description:
      'Write a staged proposal (default: the latest) into the live skill and memory files, as one transaction with backups and a receipt.',
    input: z.strictObject({
      project,
      id: id.optional().describe('the proposal id (p-…) to adopt (default: the latest staged one)'),
    }),
    // Idempotent: adopting the same proposal again is refused ("already adopted").
    hints: { ...DESTRUCTIVE, idempotentHint: true },
    args: (i) => ['adopt', ...(i.id === undefined ? [] : [str(i.id)])],
  },
  {
    name: 'sleep_revert',
    title: 'Revert an adoption',
    description: 'Restore the files of an adoption (default: the latest adopted proposal) from its backups.',
    input: z.strictObject({
      project,
      id: id.optional().describe('the adopted proposal id (p-…) to revert (default: the latest adopted one)'),
    }),
    // Not idempotent: without an id, a second call reverts the adoption before it.
    hints: { ...DESTRUCTIVE, idempotentHint: false },
    args: (i) => ['revert', ...(i.id === undefined ? [] : [str(i.id)])],
  },
  {
    name: 'sleep_reject',
    title: 'Reject a proposal',
    description:
      'Turn a proposal down: it is kept for the record but can no longer be adopted, and its learned rules (or those `rules` names) are never proposed again, in any wording.',
    input: z.strictObject({
      project,
      id: id.describe('the proposal id (p-…) to reject'),
      reason: z.string().max(2000).optional().describe('why (kept in rejected.json)'),
      rules: z
        .array(z.number().int().positive().max(999_999))
        .max(100)
        .optional()
        .describe('reject only these learned rules (their numbers in `proposals show`)'),
    }),
    hints: { ...DESTRUCTIVE, idempotentHint: true },
    args: (i) => [
      'reject',
      str(i.id),
      ...(i.reason === undefined ? [] : [`--reason=${str(i.reason)}`]),
      ...(Array.isArray(i.rules) ? i.rules : []).map((n) => `--rule=${str(n)}`),
    ],
  },
  {
    name: 'sleep_harvest',
    title: 'Harvest',
    description:
      'Read new agent transcripts into the local store and list the tasks a night would mine for the project (nothing leaves the machine).',
    input: z.strictObject({ project, lookback_hours: lookbackHours }),
    // Adds to the store only; a transcript read once is not read again.
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    args: (i) => ['harvest', ...withLookback(i)],
  },
  {
    name: 'sleep_export',
    title: 'Export tasks for the team',
    description:
      'Harvest and mine the project as a night would, then write its recurring tasks (redacted, without this machine\'s paths and session ids, marked "reviewed": false) as a tasks file inside the project, for the user to review and commit; teammates train on it with sleep_run tasks_file. An earlier tasks file at that path is replaced; any other file is refused.',
    input: z.strictObject({
      project,
      tasks_file: z
        .string()
        .min(1)
        .describe('the .json file to write, inside the project (path relative to it; its folder must exist)'),
      lookback_hours: lookbackHours,
    }),
    // Destructive: it replaces an earlier tasks file at the path, a reviewed one included.
    hints: { ...DESTRUCTIVE, idempotentHint: true },
    args: (i, p) => ['export', ...exportTarget(i, p), ...withLookback(i)],
  },
  {
    name: 'sleep_lessons',
    title: 'Lessons',
    description:
      "What the user taught the agent, mined from the sessions the store holds (sleep_harvest reads new transcripts first): list every lesson (rule, support, kind, checks or criterion), or show one with its evidence (session, prompt, the user's sentence, the answers around it).",
    input: z.strictObject({
      project,
      action: z
        .enum(['list', 'show'])
        .default('list')
        .describe('list every lesson, or show one with its evidence'),
      id: id.optional().describe('the lesson id (lesson_…), as list gives it; needed by show'),
    }),
    hints: READ_ONLY,
    args: (i) => {
      if (i.action === 'show' && i.id === undefined) throw new Error('show needs an id');
      return ['lessons', str(i.action), ...(i.action === 'show' ? [str(i.id)] : [])];
    },
  },
  {
    name: 'sleep_lessons_forget',
    title: 'Forget a lesson',
    description:
      'Forget a lesson for good: it is never mined again (nor another lesson with its evidence, nor its rule said again in the project) and judges no task. The store keeps only hashes of it; its sessions stay.',
    input: z.strictObject({
      project,
      id: id.describe('the lesson id (lesson_…) to forget, as sleep_lessons lists it'),
    }),
    // Idempotent: a forgotten lesson is answered "already forgotten".
    hints: { ...DESTRUCTIVE, idempotentHint: true },
    args: (i) => ['lessons', 'forget', str(i.id)],
  },
  {
    name: 'sleep_handoff_next',
    title: 'Next handoff request',
    description:
      'The oldest request of a night run with backend "handoff" that has no answer yet: its id, role (target: answer the task as a coding agent would; optimizer: reply exactly in the format the prompt asks for), system prompt and messages. request is null when none is open.',
    input: z.strictObject({ project }),
    hints: READ_ONLY,
    args: () => ['handoff', 'next'],
  },
  {
    name: 'sleep_handoff_answer',
    title: 'Answer a handoff request',
    description:
      'Record the reply to an open handoff request, as the model would give it (only the answer, in the format the request asks for).',
    input: z.strictObject({
      project,
      id: id.describe('the request id, as sleep_handoff_next gives it'),
      answer: z
        .string()
        .min(1)
        .max(1024 * 1024)
        .describe('the reply, exactly as the model would give it (at most 1 MiB)'),
    }),
    // Adds an answer; a second answer to the same request is refused ("answered already").
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    args: (i) => ['handoff', 'answer', str(i.id)],
    stdin: (i) => str(i.answer),
  },
];
