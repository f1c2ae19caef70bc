/**
 * Declared tools through the real SDKs against fake servers on 127.0.0.1: the request declares them as
 * functions, and the calls the response holds come back as stated calls ahead of the answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../../../../test/fakes/fake-servers.js';
import { TOOL_RULE } from '../../../../test/fakes/brain.mjs';
import { declaredTools } from '../../../core/tool-calls.js';
import { emptyTask } from '../../../core/task.js';
import type { ChatProvider, ChatRequest } from '../chat.js';
import { DEFAULT_MODELS } from '../default-models.js';
import { AnthropicProvider } from './anthropic.js';
import { messageReply } from './anthropic-body.js';
import { completionReply } from './openai-body.js';
import { OpenAiProvider } from './openai.js';

const tools = declaredTools([
  emptyTask({
    id: 't',
    intent: 't',
    reference_kind: 'rule',
    judge: { kind: 'rule', checks: [{ op: 'tool_called', arg: 'search' }] },
  }),
]);

const request = (skill: string, withTools: boolean): ChatRequest => ({
  role: 'target',
  system: `You are a coding agent.\n\n# Skill\n\n${skill}`,
  messages: [{ role: 'user', content: '# Task\n\nWhich CI provider did we pick?' }],
  maxTokens: 64,
  temperature: 0,
  ...(withTools ? { tools } : {}),
});

let openai: FakeServer;
let anthropic: FakeServer;
beforeAll(async () => {
  openai = await startFakeServer('openai');
  anthropic = await startFakeServer('anthropic');
});
afterAll(async () => {
  await openai.close();
  await anthropic.close();
});

const providers: Array<[string, () => ChatProvider, () => FakeServer]> = [
  [
    'openai',
    () =>
      new OpenAiProvider({
        model: 'gpt-4o-mini',
        apiKey: 'test-key',
        baseUrl: openai.url,
        timeoutMs: 5000,
        keyVariable: 'OPENAI_API_KEY',
      }),
    () => openai,
  ],
  [
    'anthropic',
    () =>
      new AnthropicProvider({
        model: DEFAULT_MODELS.anthropic,
        apiKey: 'test-key',
        baseUrl: anthropic.url,
        timeoutMs: 5000,
        keyVariable: 'ANTHROPIC_API_KEY',
      }),
    () => anthropic,
  ],
];

describe.each(providers)('%s: declared tools', (name, provider, server) => {
  it('declares each tool as a function taking a query', async () => {
    server().reset();
    expect(provider().nativeTools).toBe(true);
    await provider().send(request('Answer from memory.', true));
    const body = JSON.parse(server().bodies[0] ?? '{}') as { tools?: unknown[] };
    const schema = {
      type: 'object',
      properties: { query: { type: 'string', description: 'what to look up or ask the tool' } },
      required: ['query'],
    };
    const description = tools[0]?.description;
    expect(body.tools).toEqual(
      name === 'openai'
        ? [{ type: 'function', function: { name: 'search', description, parameters: schema } }]
        : [{ name: 'search', description, input_schema: schema }],
    );
  });

  it('reads the calls of the response as stated calls ahead of the answer', async () => {
    const reply = await provider().send(request(TOOL_RULE, true));
    expect(reply.text).toBe('TOOL_CALL: search Which CI provider did we pick?\nRun `npm install it`.');
  });

  it('sends no tools key and reads plain text when no tool is declared', async () => {
    server().reset();
    const reply = await provider().send(request(TOOL_RULE, false));
    expect(reply.text).toBe('Run `npm install it`.');
    expect(server().bodies[0]).not.toContain('"tools"');
  });
});

describe('reading a response that only calls a tool', () => {
  it('openai: content null, finish_reason tool_calls: the call is the reply, not an empty answer', () => {
    const reply = completionReply(
      {
        choices: [
          {
            index: 0,
            logprobs: null,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: null,
              refusal: null,
              tool_calls: [
                { id: 'c1', type: 'function', function: { name: 'search', arguments: '{"query":"ci"}' } },
                { id: 'c2', type: 'function', function: { name: 'search', arguments: 'not json' } },
              ],
            },
          },
        ],
        usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
      },
      'openai',
      'm',
    );
    expect(reply.text).toBe('TOOL_CALL: search ci\nTOOL_CALL: search not json');
  });

  it('anthropic: a tool_use block without text; an input without a query is kept as JSON', () => {
    const reply = messageReply({
      content: [
        { type: 'tool_use', id: 't1', name: 'search', input: { q: 'ci' }, caller: { type: 'direct' } },
      ],
      usage: {
        input_tokens: 3,
        output_tokens: 2,
        cache_creation: null,
        cache_creation_input_tokens: null,
        cache_read_input_tokens: null,
        inference_geo: null,
        server_tool_use: null,
        service_tier: null,
      },
    } as unknown as Parameters<typeof messageReply>[0]);
    expect(reply.text).toBe('TOOL_CALL: search {"q":"ci"}');
  });
});
