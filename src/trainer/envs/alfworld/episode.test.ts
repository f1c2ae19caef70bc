import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnvConversation, EnvTarget } from '../types.js';
import { runEpisode } from './episode.js';
import { FIXTURE_GAMES } from './fixtures.js';
import { parseAction, stepPrompt } from './prompt.js';
import { AlfworldClient, serverUrl } from './protocol.js';
import { startFakeAlfworld, type FakeServer } from './test-helpers.js';

const APPLE = 'json_2.1.1/train/pick_and_place_simple-Apple-None-Fridge-1/trial_1/game.tw-pddl';
const options = { maxSteps: 10, historyLength: 2, maxObservationChars: 2000 };

/** A target that replies with the given commands in turn, and keeps what it was sent. */
function scripted(commands: string[]): EnvTarget & { seen: EnvConversation[] } {
  const seen: EnvConversation[] = [];
  return {
    seen,
    reply(conversation) {
      seen.push(conversation);
      const c = commands[seen.length - 1] ?? 'look';
      return Promise.resolve(c.startsWith('!') ? c.slice(1) : `<think>next</think><action>${c}</action>`);
    },
  };
}

let server: FakeServer;
let client: AlfworldClient;
beforeAll(async () => {
  server = await startFakeAlfworld(FIXTURE_GAMES);
  client = new AlfworldClient(serverUrl(server.url), 5000);
});
afterAll(() => server.close());

describe('an ALFWorld episode on the protocol', () => {
  it('wins when the commands reach the goal, and sends the task, last steps and admissible commands', async () => {
    const target = scripted([
      'go to countertop 1',
      'take apple 1 from countertop 1',
      'go to fridge 1',
      'open fridge 1',
      'move apple 1 to fridge 1',
    ]);
    const ep = await runEpisode(client, APPLE, 'SKILL TEXT', target, options);
    expect(ep.score).toEqual({ hard: 1, soft: 1, rationale: 'won in 5 step(s)' });
    expect(target.seen).toHaveLength(5);
    expect(target.seen[0]?.system).toContain('SKILL TEXT');
    const last = target.seen[4]?.messages[0]?.content ?? '';
    expect(last).toContain('Your task is to: put some apple in fridge.');
    expect(last).toContain('> go to fridge 1'); // two steps of history
    expect(last).not.toContain('> go to countertop 1');
    expect(last).toContain("'move apple 1 to fridge 1'");
    expect(last).not.toContain("'help'");
    expect(ep.response).toContain('> move apple 1 to fridge 1\nYou move the apple 1 to the fridge 1.');
    expect(server.requests.map((r) => r.route).slice(-7)).toEqual([
      '/reset',
      '/step',
      '/step',
      '/step',
      '/step',
      '/step',
      '/close',
    ]);
  });

  it('loses at the step limit, and a reply without an action tag looks around', async () => {
    const target = scripted(['!I am not sure what to do.', 'go to fridge 1', 'take apple 1 from fridge 1']);
    const ep = await runEpisode(client, APPLE, '', target, { ...options, maxSteps: 3 });
    expect(ep.score?.hard).toBe(0);
    expect(ep.score?.rationale).toBe(
      'not won within the step limit (3); 1 reply(ies) without an <action> tag',
    );
    expect(ep.response).toContain('> look (no <action> tag in the reply)');
    expect(ep.response).toContain('> take apple 1 from fridge 1\nNothing happens.');
  });

  it('reads the action as the reference does: the first tag, lower case, spaces collapsed', () => {
    expect(parseAction('<think>x</think><action> Go To  Desk 1 </action><action>look</action>')).toEqual({
      action: 'go to desk 1',
      valid: true,
    });
    expect(parseAction('<action></action>')).toEqual({ action: 'look', valid: false });
    expect(
      stepPrompt({ task: 'T', history: [], step: 1, observation: 'O', admissible: ['look', 'help'] }),
    ).not.toContain('last');
  });

  it('names the server when it does not answer or answers in another shape, and only talks to loopback', async () => {
    const dead = new AlfworldClient(serverUrl('http://127.0.0.1:9'), 2000);
    await expect(runEpisode(dead, APPLE, '', scripted([]), options)).rejects.toThrow(
      /ALFWorld server at http:\/\/127\.0\.0\.1:9 did not answer \/reset/,
    );
    await expect(client.reset('json_2.1.1/no/such/game.tw-pddl')).rejects.toThrow(/HTTP 404/);
    expect(() => serverUrl('http://example.com:3917')).toThrow(/127\.0\.0\.1, localhost or \[::1\]/);
    expect(() => serverUrl('https://127.0.0.1:3917')).toThrow(/must be http/);
    expect(serverUrl('http://localhost:3917').port).toBe('3917');
  });
});
