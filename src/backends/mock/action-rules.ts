/**
 * How the mock target keeps a rule about what it does (`Never run "npm".`, `Always edit "src/"`,
 * `Never write "print"`): it changes the actions its answer states, in the rendered-answer format
 * (see `answer-actions.ts`), and leaves its prose alone, as a model that follows the rule would.
 */
import { boundedPattern } from '../../core/negative-check.js';
import {
  answerActions,
  editsPath,
  runsTerm,
  writesTerm,
  type AnswerAction,
} from '../../replay/judges/answer-actions.js';

export type ActionVerb = 'run' | 'edit' | 'write';

export function applyActionRule(answer: string, verb: ActionVerb, never: boolean, term: string): string {
  const actions = answerActions(answer);
  const lines = answer.split(/\r?\n/);
  switch (verb) {
    case 'run':
      if (never) return withoutActions(lines, actions, (a) => a.kind === 'run' && runsTerm([a], term));
      return runsTerm(actions, term) ? answer : `${answer}\n$ ${term}`;
    case 'edit':
      if (never) return withoutActions(lines, actions, (a) => a.kind !== 'run' && editsPath([a], term));
      return editsPath(actions, term) ? answer : `${answer}\n--- ${term}`;
    case 'write': {
      const writes = actions.filter((a) => a.kind === 'write');
      if (never) {
        const word = new RegExp(boundedPattern(term), 'gi');
        for (const a of writes)
          for (let i = a.start + 1; i < a.end; i++) lines[i] = (lines[i] ?? '').replace(word, '');
        return lines.join('\n');
      }
      const last = writes.at(-1);
      // With no file written there is nowhere to put the text.
      if (writesTerm(actions, term) || last === undefined) return answer;
      lines.splice(last.end, 0, term);
      return lines.join('\n');
    }
    default: {
      const unknown: never = verb;
      return unknown;
    }
  }
}

function withoutActions(
  lines: readonly string[],
  actions: readonly AnswerAction[],
  drop: (action: AnswerAction) => boolean,
): string {
  const dropped = new Set<number>();
  for (const a of actions.filter(drop)) for (let i = a.start; i < a.end; i++) dropped.add(i);
  return lines.filter((_, i) => !dropped.has(i)).join('\n');
}
