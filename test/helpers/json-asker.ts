// A real-model stand-in for the refine pass: `askJson` answers from a script (per template and call),
// validates the answer with the caller's schema as the real backend does, and records every request.
import type { z } from 'zod';
import { MockBackend } from '../../src/backends/mock/mock-backend.js';
import type { Backend, JsonAnswer } from '../../src/backends/types.js';

export interface AskedRequest {
  template: string;
  vars: Readonly<Record<string, string>>;
}

export type AskingBackend = Backend & Required<Pick<Backend, 'askJson'>> & { asked: AskedRequest[] };

/** `replyFor` returns the parsed JSON reply, or throws (e.g. a BudgetExhaustedError). */
export function askingBackend(replyFor: (req: AskedRequest, call: number) => unknown): AskingBackend {
  const mock = new MockBackend();
  const asked: AskedRequest[] = [];
  return {
    name: 'scripted-json-model',
    offline: false,
    attempt: (req) => mock.attempt(req),
    reflect: (req) => mock.reflect(req),
    judgeRubric: (req) => mock.judgeRubric(req),
    asked,
    askJson<T>(
      _role: string,
      template: string,
      vars: Readonly<Record<string, string>>,
      schema: z.ZodType<T>,
    ): Promise<JsonAnswer<T>> {
      const req = { template, vars };
      asked.push(req);
      // A thrown error (a spend limit) rejects the call, as the guarded chat's would.
      return Promise.resolve().then(() => {
        const parsed = schema.safeParse(replyFor(req, asked.length - 1));
        return {
          value: parsed.success ? parsed.data : null,
          usage: { calls: 1, inputTokens: 10, outputTokens: 5 },
        };
      });
    },
  };
}

/** The numbered requests of a label-sessions prompt, as the model reads them. */
export function labelPromptRequests(vars: Readonly<Record<string, string>>): string[] {
  return (vars['requests'] ?? '').split('\n').map((line) => line.replace(/^\d+\. /, ''));
}
