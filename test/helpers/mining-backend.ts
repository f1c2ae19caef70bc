// A real-model stand-in for LLM-miner tests: the offline mock attempts, reflects and judges, and
// `proposeTasks` answers from a script (per call) while recording every request.
import { MockBackend } from '../../src/backends/mock/mock-backend.js';
import type { Backend, ProposeTasksRequest } from '../../src/backends/types.js';
import type { Usage } from '../../src/core/usage.js';

export type MiningBackend = Backend & { requests: ProposeTasksRequest[] };

export function miningBackend(
  replyFor: (req: ProposeTasksRequest, call: number) => unknown,
  usage: Usage = { calls: 1, inputTokens: 10, outputTokens: 5 },
): MiningBackend {
  const mock = new MockBackend();
  const requests: ProposeTasksRequest[] = [];
  return {
    name: 'scripted-model',
    offline: false,
    attempt: (req) => mock.attempt(req),
    reflect: (req) => mock.reflect(req),
    judgeRubric: (req) => mock.judgeRubric(req),
    requests,
    proposeTasks: (req) => {
      requests.push(req);
      return Promise.resolve({ reply: replyFor(req, requests.length - 1), usage: { ...usage } });
    },
  };
}
