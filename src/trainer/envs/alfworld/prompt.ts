/**
 * The ALFWorld target's prompts: each step is one request holding the task, the last steps, the current
 * observation and the admissible commands; the reply thinks in `<think>` and acts in `<action>` (the
 * reference's format). A reply without an action tag looks around, as the reference's rollout does.
 */

export const INITIAL_SKILL = `# ALFWorld Household Task Skill

## Approach
- Read the goal in the first observation: the object, the receptacle and any change (clean, heat, cool,
  examine under a lamp) it asks for.
- Go to the likely places for the object, open closed receptacles, take it, change it if asked, then
  go to the target receptacle and put it there.

(No learned rules yet: reflection adds them.)
`;

export const systemPrompt = (skill: string): string => {
  const section = skill.trim() === '' ? '' : `## Skill\n${skill.trim()}\n\n`;
  return `You are an expert agent operating in the ALFRED embodied household environment (ALFWorld).

${section}## Reply format
Think step by step inside <think>...</think>, then give exactly one command inside <action>...</action>.
Choose the command from the admissible commands listed in the prompt, written exactly as listed.
`;
};

export interface StepView {
  task: string;
  /** The last steps, oldest first. */
  history: Array<{ action: string; observation: string }>;
  step: number;
  observation: string;
  admissible: string[];
}

export function stepPrompt(v: StepView): string {
  const history =
    v.history.length === 0
      ? ''
      : `## Your last ${v.history.length} step(s)\n${v.history
          .map((h) => `> ${h.action}\n${h.observation}`)
          .join('\n')}\n\n`;
  const commands = v.admissible.filter((c) => c !== 'help').map((c) => `'${c}'`);
  return `## Task\n${v.task}\n\n${history}## Step ${v.step}: current observation\n${v.observation}\n\n## Admissible commands\n${commands.join('\n')}`;
}

/** The command of a reply: the first `<action>` tag's text, lower case; `look` when there is none. */
export function parseAction(reply: string): { action: string; valid: boolean } {
  const m = /<action>([\s\S]*?)<\/action>/i.exec(reply);
  const action = m?.[1]?.trim().toLowerCase().replace(/\s+/g, ' ') ?? '';
  return action === '' ? { action: 'look', valid: false } : { action, valid: true };
}
