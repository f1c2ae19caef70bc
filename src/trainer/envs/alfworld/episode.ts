/**
 * One ALFWorld episode: reset the game on the server, then up to `maxSteps` times ask the target for a
 * command and step the simulator with it, until it says done. Won is the score (hard = soft), as in the
 * reference; the transcript (each command and what the simulator answered) is what reflection reads.
 */
import { plainText } from '../../../core/safe-text.js';
import type { EnvEpisode, EnvTarget } from '../types.js';
import type { AlfworldClient } from './protocol.js';
import { parseAction, stepPrompt, systemPrompt } from './prompt.js';

export interface EpisodeOptions {
  maxSteps: number;
  /** How many earlier steps each prompt shows. */
  historyLength: number;
  /** Observations longer than this are cut in prompts and the transcript. */
  maxObservationChars: number;
}

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)} ...` : text);

export async function runEpisode(
  client: AlfworldClient,
  gamefile: string,
  skill: string,
  target: EnvTarget,
  o: EpisodeOptions,
): Promise<EnvEpisode> {
  const start = await client.reset(gamefile);
  const task = cut(plainText(start.observation), o.maxObservationChars * 2);
  const transcript: string[] = [task];
  const history: Array<{ action: string; observation: string }> = [];
  let observation = task;
  let admissible = start.admissible_commands.map((c) => plainText(c));
  let won = false;
  let done = false;
  let steps = 0;
  let invalid = 0;
  try {
    while (!done && steps < o.maxSteps) {
      steps++;
      const reply = await target.reply({
        system: systemPrompt(skill),
        messages: [
          {
            role: 'user',
            content: stepPrompt({
              task,
              history: history.slice(-o.historyLength),
              step: steps,
              observation,
              admissible,
            }),
          },
        ],
      });
      const { action, valid } = parseAction(plainText(reply));
      if (!valid) invalid++;
      const next = await client.step(start.episode, action);
      observation = cut(plainText(next.observation), o.maxObservationChars);
      admissible = next.admissible_commands.map((c) => plainText(c));
      done = next.done;
      won = next.won;
      history.push({ action, observation });
      transcript.push(`> ${valid ? action : `${action} (no <action> tag in the reply)`}\n${observation}`);
    }
  } finally {
    await client.close(start.episode);
  }
  const how = won
    ? `won in ${steps} step(s)`
    : done
      ? `the episode ended unwon after ${steps} step(s)`
      : `not won within the step limit (${o.maxSteps})`;
  const badTags = invalid > 0 ? `; ${invalid} reply(ies) without an <action> tag` : '';
  transcript.push(`## Result\n${how}${badTags}`);
  const score = won ? 1 : 0;
  return {
    response: transcript.join('\n'),
    score: { hard: score, soft: score, rationale: `${how}${badTags}` },
  };
}
