/**
 * Two fake teammates' transcripts in Claude Code's record format, for the team flow: each repeats one
 * kind of task and corrects the agent the same way in three wordings, so each teaches one rule.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Sandbox } from './cli-helpers.js';

interface Step {
  prompt: string;
  reply: string;
  commands?: string[];
}

/** One kind of task a person keeps asking for, and the correction they keep making. */
export interface Habit {
  name: string;
  requests: string[];
  /** The command the agent first ran, and the one the user wanted, for request `i`. */
  wrong: (i: number) => string;
  right: (i: number) => string;
  corrections: string[];
}

function transcript(cwd: string, id: string, minute: number, steps: Step[]): string {
  const base = { sessionId: id, cwd, gitBranch: 'main', version: '2.1.0', userType: 'external' };
  const at = (offset: number): string => new Date(Date.UTC(2026, 10, 20, 9, minute, offset)).toISOString();
  return `${steps
    .flatMap((step, i) => [
      {
        ...base,
        type: 'user',
        uuid: `${id}-u${i}`,
        timestamp: at(i * 4),
        message: { role: 'user', content: step.prompt },
      },
      {
        ...base,
        type: 'assistant',
        uuid: `${id}-a${i}`,
        timestamp: at(i * 4 + 2),
        message: {
          id: `msg_${id}_${i}`,
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [
            { type: 'text', text: step.reply },
            ...(step.commands ?? []).map((command, j) => ({
              type: 'tool_use',
              id: `t${i}${j}`,
              name: 'Bash',
              input: { command },
            })),
          ],
        },
      },
    ])
    .map((l) => JSON.stringify(l))
    .join('\n')}\n`;
}

/** The habit's sessions in the sandbox user's Claude Code folder for the sandbox project. */
export function writeHabit(box: Sandbox, habit: Habit): void {
  const dir = path.join(box.home, '.claude', 'projects', box.project.replace(/[/.]/g, '-'));
  mkdirSync(dir, { recursive: true });
  habit.requests.forEach((request, i) => {
    const correction = habit.corrections[i];
    const steps: Step[] = [
      {
        prompt: request,
        reply: 'Done.',
        commands: [correction !== undefined ? habit.wrong(i) : habit.right(i)],
      },
    ];
    if (correction !== undefined)
      steps.push({ prompt: correction, reply: 'Redone.', commands: [habit.right(i)] });
    steps.push({ prompt: 'thanks, works now', reply: 'Glad to help.' });
    const id = `${habit.name}-${i}`;
    writeFileSync(path.join(dir, `${id}.jsonl`), transcript(box.project, id, i * 5, steps));
  });
}

const PACKAGES = ['zod', 'dayjs', 'clsx', 'nanoid', 'ky', 'immer'];

/** Alice adds dependencies, and this repository uses pnpm. */
export const ALICE: Habit = {
  name: 'deps',
  requests: [
    'add zod to the web app',
    'we need dayjs for the date picker, install it',
    'can you pull in clsx? the buttons need it',
    'nanoid is missing from the dependencies, add it please',
    'add the ky package, I want it for the api client',
    'please install immer and make sure the lockfile is updated',
  ],
  wrong: (i) => `npm install ${PACKAGES[i] ?? ''}`,
  right: (i) => `pnpm add ${PACKAGES[i] ?? ''}`,
  corrections: [
    'wrong package manager: this repo is pnpm only',
    'No. Use pnpm, not npm.',
    'npm again? we are on pnpm workspaces',
  ],
};

const MODULES = ['api', 'billing', 'utils.py', 'tests', 'cli', 'models.py'];

/** Bob formats Python code, and this repository formats with ruff. */
export const BOB: Habit = {
  name: 'format',
  requests: [
    'format the api module',
    'run the formatter on billing please',
    'format utils.py before I commit',
    'the tests folder needs formatting',
    'can you format the cli code',
    'format models.py, it is messy',
  ],
  wrong: (i) => `black ${MODULES[i] ?? ''}`,
  right: (i) => `ruff format ${MODULES[i] ?? ''}`,
  corrections: [
    'wrong formatter: this repo formats with ruff',
    'No. Use ruff, not black.',
    'black again? we switched to ruff',
  ],
};
