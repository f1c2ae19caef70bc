/**
 * The MCP tools: each one runs the same CLI command a user would type, with `--json`, and returns its
 * JSON as the tool's structured result. A command that fails (exit code ≠ 0) is a tool error carrying
 * the CLI's one-line message, its error code and exit code; nothing else of the process reaches the
 * agent. Inputs are closed schemas: no flag, path or program is passed through that the schema does
 * not name, and ids cannot be taken for flags.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { resolvesInside } from '../../config/project-trust.js';
import { BACKENDS } from '../../config/schema.js';

/** A proposal or handoff request id: letters, digits, dot, dash, underscore; never a leading dash. */
const id = z.string().regex(/^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/, 'an id: letters, digits, ".", "-" or "_"');
const project = z
  .string()
  .min(1)
  .optional()
  .describe("the project folder (default: the MCP server's working folder)");
const backend = z.enum(BACKENDS).optional().describe('the model backend (default: the config)');

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  /**
   * The CLI arguments for a validated input (`--json` and `--project` are added by the server);
   * `project` is the folder the command will act on.
   */
  args(input: Record<string, unknown>, project: string): string[];
  /** Text the command reads on stdin (a handoff answer), if any. */
  stdin?(input: Record<string, unknown>): string;
}

const str = (v: unknown): string => String(v);
const tasksFile = z
  .string()
  .min(1)
  .optional()
  .describe(
    'a reviewed tasks file (or benchmark seed folder) inside the project to replay instead of mining (path relative to it)',
  );

/**
 * `--tasks-file`, for a file inside the project only: a tool call never reads a file outside it, not
 * even through a symlink the repository ships (`tasks.json -> ~/.ssh/…`), so the real path is checked.
 */
function withTasksFile(input: Record<string, unknown>, project: string): string[] {
  if (input.tasks_file === undefined) return [];
  const file = path.resolve(project, str(input.tasks_file));
  if (!resolvesInside(file, project))
    throw new Error(`tasks_file must be a file inside the project ${project} (symlinks followed)`);
  return ['--tasks-file', realFile(file)];
}

/** The file's real path, so the command reads what was checked; a missing file is the command's error. */
function realFile(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}
const withBackend = (input: Record<string, unknown>): string[] =>
  input.backend === undefined ? [] : ['--backend', str(input.backend)];

export const TOOLS: ToolSpec[] = [
  {
    name: 'sleep_status',
    title: 'Status',
    description:
      "The project's latest staged proposal, its night history and any handoff night waiting for answers.",
    input: z.object({ project }),
    args: () => ['status'],
  },
  {
    name: 'sleep_dry_run',
    title: 'Dry run',
    description:
      'Compute a whole night and report what it would propose, writing nothing into the project. On a real backend only the plan is computed unless yes is true (then it spends within the budget).',
    input: z.object({ project, backend, tasks_file: tasksFile, yes: z.boolean().optional() }),
    args: (i, p) => [
      'dry-run',
      ...withBackend(i),
      ...withTasksFile(i, p),
      ...(i.yes === true ? ['--yes'] : []),
    ],
  },
  {
    name: 'sleep_run',
    title: 'Run a night',
    description:
      'Run one night: harvest, mine, train behind the validation gate and stage a proposal (nothing live changes until it is adopted). With backend "handoff" the night stops with stopped "waiting_handoff" until sleep_handoff_answer has answered its requests; call it again to go on. A night run with batch (config or --batch) stops with stopped "waiting_batch" while its batches run; call it again later to go on.',
    input: z.object({ project, backend, tasks_file: tasksFile }),
    args: (i, p) => ['run', ...withBackend(i), ...withTasksFile(i, p)],
  },
  {
    name: 'sleep_proposals',
    title: 'Proposals',
    description: "List the project's proposals, or show one (with its report) or its diff.",
    input: z.object({ project, action: z.enum(['list', 'show', 'diff']).default('list'), id: id.optional() }),
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
    input: z.object({ project, id: id.optional() }),
    args: (i) => ['adopt', ...(i.id === undefined ? [] : [str(i.id)])],
  },
  {
    name: 'sleep_revert',
    title: 'Revert an adoption',
    description: 'Restore the files of an adoption (default: the latest adopted proposal) from its backups.',
    input: z.object({ project, id: id.optional() }),
    args: (i) => ['revert', ...(i.id === undefined ? [] : [str(i.id)])],
  },
  {
    name: 'sleep_reject',
    title: 'Reject a proposal',
    description: 'Turn a proposal down: it is kept for the record but can no longer be adopted.',
    input: z.object({ project, id }),
    args: (i) => ['reject', str(i.id)],
  },
  {
    name: 'sleep_harvest',
    title: 'Harvest',
    description:
      'Read new agent transcripts into the local store and list the tasks a night would mine for the project (nothing leaves the machine).',
    input: z.object({ project }),
    args: () => ['harvest'],
  },
  {
    name: 'sleep_lessons',
    title: 'Lessons',
    description:
      "What the user taught the agent, mined from the sessions the store holds (read-only; sleep_harvest reads new transcripts first): list every lesson (rule, support, kind, checks or criterion), or show one with its evidence (session, prompt, the user's sentence, the answers around it).",
    input: z.object({ project, action: z.enum(['list', 'show']).default('list'), id: id.optional() }),
    args: (i) => {
      if (i.action === 'show' && i.id === undefined) throw new Error('show needs an id');
      return ['lessons', str(i.action), ...(i.action === 'show' ? [str(i.id)] : [])];
    },
  },
  {
    name: 'sleep_handoff_next',
    title: 'Next handoff request',
    description:
      'The oldest request of a night run with backend "handoff" that has no answer yet: its id, role (target: answer the task as a coding agent would; optimizer: reply exactly in the format the prompt asks for), system prompt and messages. request is null when none is open.',
    input: z.object({ project }),
    args: () => ['handoff', 'next'],
  },
  {
    name: 'sleep_handoff_answer',
    title: 'Answer a handoff request',
    description:
      'Record the reply to an open handoff request, as the model would give it (only the answer, in the format the request asks for).',
    input: z.object({
      project,
      id,
      answer: z
        .string()
        .min(1)
        .max(1024 * 1024),
    }),
    args: (i) => ['handoff', 'answer', str(i.id)],
    stdin: (i) => str(i.answer),
  },
];
