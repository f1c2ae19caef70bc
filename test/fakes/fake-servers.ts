/**
 * Fake OpenAI-compatible and Anthropic HTTP servers on 127.0.0.1 (port 0) for tests that point the real
 * SDKs at them. They answer through the fake brain, record every request body, and can be scripted to
 * fail: a queue of statuses served before normal answers (429 with `retry-after`, 5xx), or 401 always.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { callsSearch, kindOf, reply, searchQuery } from './brain.mjs';

export interface ScriptedFailure {
  status: number;
  headers?: Record<string, string>;
}

export interface FakeServer {
  url: string;
  /** Every request body received, raw, in order (failed ones too), and its path. */
  bodies: string[];
  paths: string[];
  /** Requests per kind (attempt, reflect, judge, repair) that got a normal answer. */
  answered: Record<string, number>;
  failures: ScriptedFailure[];
  alwaysStatus: number | null;
  /** Milliseconds each answer is held back (a slow provider), 0 = none. */
  holdMs: number;
  /** Times between consecutive requests, ms (to check that retry-after was honoured). */
  arrivals: number[];
  /** What the normal answers billed: requests and the tokens their usage reported. */
  served: { requests: number; inputTokens: number; outputTokens: number };
  reset(): void;
  close(): Promise<void>;
}

export type Flavor = 'openai' | 'anthropic';

export function promptText(flavor: Flavor, body: Record<string, unknown>): string {
  const messages = (body.messages ?? []) as Array<{ role: string; content: unknown }>;
  const parts = flavor === 'anthropic' && typeof body.system === 'string' ? [body.system] : [];
  for (const m of messages) parts.push(typeof m.content === 'string' ? m.content : JSON.stringify(m.content));
  return parts.join('\n\n');
}

/** The tool names a request declared, as either API writes them. */
export function declaredToolNames(body: Record<string, unknown>): string[] {
  const tools = (body.tools ?? []) as Array<{ name?: string; function?: { name?: string } }>;
  return tools.map((t) => t.function?.name ?? t.name ?? '');
}

/**
 * The reply a request gets, as the API writes it. With `search` declared and a skill that says to use
 * it, the fake model calls it natively (OpenAI `tool_calls`, Anthropic a `tool_use` block) beside its
 * answer; `prompt` is what it read.
 */
export function answer(flavor: Flavor, body: Record<string, unknown>, text: string, prompt = ''): unknown {
  const usage = { input: Math.ceil(JSON.stringify(body).length / 4), output: Math.ceil(text.length / 4) };
  const call = declaredToolNames(body).includes('search') && callsSearch(prompt);
  const query = { query: call ? searchQuery(prompt) : '' };
  if (flavor === 'openai') {
    const toolCalls = call
      ? {
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'search', arguments: JSON.stringify(query) },
            },
          ],
        }
      : {};
    return {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 0,
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: text, ...toolCalls },
          finish_reason: call ? 'tool_calls' : 'stop',
        },
      ],
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
      },
    };
  }
  return {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: body.model,
    content: [
      { type: 'text', text },
      ...(call ? [{ type: 'tool_use', id: 'toolu_1', name: 'search', input: query }] : []),
    ],
    stop_reason: call ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: usage.input, output_tokens: usage.output },
  };
}

/** The tokens an answer's usage reports, whichever flavour it is. */
function billed(payload: unknown): { input: number; output: number } {
  const u = (payload as { usage: Record<string, number> }).usage;
  return {
    input: u.prompt_tokens ?? u.input_tokens ?? 0,
    output: u.completion_tokens ?? u.output_tokens ?? 0,
  };
}

export async function startFakeServer(flavor: Flavor): Promise<FakeServer> {
  const state: FakeServer = {
    url: '',
    bodies: [],
    paths: [],
    answered: {},
    failures: [],
    alwaysStatus: null,
    holdMs: 0,
    arrivals: [],
    served: { requests: 0, inputTokens: 0, outputTokens: 0 },
    reset() {
      state.bodies.length = 0;
      state.paths.length = 0;
      state.answered = {};
      state.failures.length = 0;
      state.alwaysStatus = null;
      state.holdMs = 0;
      state.arrivals.length = 0;
      state.served = { requests: 0, inputTokens: 0, outputTokens: 0 };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      state.bodies.push(raw);
      state.paths.push(req.url ?? '');
      state.arrivals.push(Date.now());
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}): void => {
        setTimeout(() => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(JSON.stringify(payload));
        }, state.holdMs);
      };
      if (state.alwaysStatus !== null) {
        send(state.alwaysStatus, { error: { type: 'authentication_error', message: 'invalid x-api-key' } });
        return;
      }
      const failure = state.failures.shift();
      if (failure) {
        send(
          failure.status,
          { error: { type: 'server_error', message: `scripted ${failure.status}` } },
          failure.headers,
        );
        return;
      }
      const body = JSON.parse(raw) as Record<string, unknown>;
      const text = promptText(flavor, body);
      const kind = kindOf(text);
      state.answered[kind] = (state.answered[kind] ?? 0) + 1;
      const answered = answer(flavor, body, reply(text), text);
      const usage = billed(answered);
      state.served.requests += 1;
      state.served.inputTokens += usage.input;
      state.served.outputTokens += usage.output;
      send(200, answered);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  state.url = flavor === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`;
  return state;
}
