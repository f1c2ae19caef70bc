/** The real SDKs against fake servers on 127.0.0.1, and the CLI providers against fake executables. */
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeServer, type FakeServer } from '../../../../test/fakes/fake-servers.js';
import { installFakeAgents } from '../../../../test/fakes/fake-cli.js';
import type { ProviderFailure } from '../chat.js';
import { DEFAULT_MODELS } from '../default-models.js';
import { type ChatRequest } from '../chat.js';
import { AnthropicProvider } from './anthropic.js';
import { ClaudeCodeProvider } from './claude-code.js';
import { CodexProvider } from './codex.js';
import { OpenAiProvider } from './openai.js';
import { createProvider, roleSetup } from './index.js';
import { configSchema } from '../../../config/schema.js';

const req: ChatRequest = {
  role: 'target',
  system: 'You are a coding agent.',
  messages: [{ role: 'user', content: '# Task\n\nAdd `zod` to the web app' }],
  maxTokens: 64,
  temperature: 0,
};

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

const failureOf = (p: Promise<unknown>): Promise<ProviderFailure> =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as ProviderFailure,
  );

describe('OpenAiProvider (openai SDK)', () => {
  const provider = () =>
    new OpenAiProvider({
      model: 'gpt-4o-mini',
      apiKey: 'test-key',
      baseUrl: openai.url,
      timeoutMs: 5000,
      keyVariable: 'OPENAI_API_KEY',
    });

  it('sends a chat completion and reads the text and usage', async () => {
    openai.reset();
    const reply = await provider().send(req);
    expect(reply.text).toBe('Run `npm install zod`.');
    expect(reply.usage.inputTokens).toBeGreaterThan(0);
    const body = JSON.parse(openai.bodies[0] ?? '{}');
    expect(body).toMatchObject({ model: 'gpt-4o-mini', max_tokens: 64, temperature: 0 });
    expect(body.messages[0]).toEqual({ role: 'system', content: 'You are a coding agent.' });
  });

  it('sends max_completion_tokens and no temperature to OpenAI reasoning models, the classic pair to others', async () => {
    const bodyFor = async (model: string): Promise<Record<string, unknown>> => {
      openai.reset();
      const p = new OpenAiProvider({
        model,
        apiKey: 'k',
        baseUrl: openai.url,
        timeoutMs: 5000,
        keyVariable: 'K',
      });
      await p.send(req);
      return JSON.parse(openai.bodies[0] ?? '{}') as Record<string, unknown>;
    };
    for (const model of ['o1', 'o3-mini', 'o4-mini', 'gpt-5', 'gpt-5.1-codex', 'openai/gpt-5-mini']) {
      const body = await bodyFor(model);
      // Room to reason on top of the answer's 64 tokens.
      expect(body, model).toMatchObject({ max_completion_tokens: 64 + 4096 });
      expect(body, model).not.toHaveProperty('max_tokens');
      expect(body, model).not.toHaveProperty('temperature');
    }
    for (const model of ['gpt-4o', 'gpt-4.1-mini', 'llama3.1:8b', 'deepseek-chat', 'omni-coder']) {
      const body = await bodyFor(model);
      expect(body, model).toMatchObject({ max_tokens: 64, temperature: 0 });
      expect(body, model).not.toHaveProperty('max_completion_tokens');
    }
  });

  it('reserves the reasoning room, and fails clearly when the cap ran out before any answer', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'x',
          object: 'chat.completion',
          created: 0,
          model: 'o3',
          choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'length' }],
          usage: { prompt_tokens: 10, completion_tokens: 4160, total_tokens: 4170 },
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const o3 = new OpenAiProvider({
        model: 'o3',
        apiKey: 'k',
        baseUrl: url,
        timeoutMs: 5000,
        keyVariable: 'K',
      });
      expect(o3.outputTokenCap(64)).toBe(64 + 4096);
      expect(
        new OpenAiProvider({
          model: 'gpt-4o',
          apiKey: 'k',
          baseUrl: '',
          timeoutMs: 1,
          keyVariable: 'K',
        }).outputTokenCap(64),
      ).toBe(64);
      const failure = await failureOf(o3.send(req));
      expect(failure).toMatchObject({ kind: 'fatal' });
      expect(failure.message).toMatch(/o3 used its whole output cap \(4160 tokens\) without answering/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('does not retry by itself, and classifies 429 with retry-after, 500 and 401', async () => {
    openai.reset();
    openai.failures.push({ status: 429, headers: { 'retry-after': '3' } }, { status: 500 });
    const rate = await failureOf(provider().send(req));
    expect(rate).toMatchObject({ kind: 'retryable', status: 429, retryAfterMs: 3000 });
    const server = await failureOf(provider().send(req));
    expect(server).toMatchObject({ kind: 'retryable', status: 500 });
    expect(openai.bodies).toHaveLength(2);
    openai.alwaysStatus = 401;
    const auth = await failureOf(provider().send(req));
    expect(auth.kind).toBe('auth');
    expect(auth.message).toMatch(/rejected the credentials \(HTTP 401\).*OPENAI_API_KEY/);
    expect(auth.message).not.toContain('test-key');
  });

  it('reports a refused connection as retryable', async () => {
    const dead = new OpenAiProvider({
      model: 'm',
      apiKey: 'k',
      baseUrl: 'http://127.0.0.1:9/v1',
      timeoutMs: 2000,
      keyVariable: 'K',
    });
    expect((await failureOf(dead.send(req))).kind).toBe('retryable');
  });
});

describe('OpenAiProvider (AzureOpenAI client)', () => {
  it('calls the deployment with the api version', async () => {
    openai.reset();
    const endpoint = openai.url.replace(/\/v1$/, '');
    const azure = new OpenAiProvider({
      model: 'my-deployment',
      apiKey: 'test-key',
      baseUrl: endpoint,
      timeoutMs: 5000,
      keyVariable: 'AZURE_OPENAI_API_KEY',
      azure: { apiVersion: '2024-10-21' },
    });
    expect(azure.name).toBe('azure-openai');
    expect((await azure.send(req)).text).toBe('Run `npm install zod`.');
    expect(openai.paths[0]).toBe('/openai/deployments/my-deployment/chat/completions?api-version=2024-10-21');
  });
});

describe('AnthropicProvider (@anthropic-ai/sdk)', () => {
  const provider = () =>
    new AnthropicProvider({
      model: DEFAULT_MODELS.anthropic,
      apiKey: 'test-key',
      baseUrl: anthropic.url,
      timeoutMs: 5000,
      keyVariable: 'ANTHROPIC_API_KEY',
    });

  it('sends a message with the system prompt apart and reads text and usage', async () => {
    anthropic.reset();
    const reply = await provider().send(req);
    expect(reply.text).toBe('Run `npm install zod`.');
    const body = JSON.parse(anthropic.bodies[0] ?? '{}');
    expect(body).toMatchObject({
      model: DEFAULT_MODELS.anthropic,
      max_tokens: 64,
      system: 'You are a coding agent.',
    });
  });

  it('the default model is not one the SDK warns is deprecated', async () => {
    anthropic.reset();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      await provider().send(req);
      expect(warn.mock.calls.flat().join('\n')).not.toMatch(/deprecated|end-of-life/);
    } finally {
      warn.mockRestore();
    }
  });

  it('classifies 429 (retry-after-ms) and 401', async () => {
    anthropic.reset();
    anthropic.failures.push({ status: 429, headers: { 'retry-after-ms': '1500' } });
    expect(await failureOf(provider().send(req))).toMatchObject({ kind: 'retryable', retryAfterMs: 1500 });
    anthropic.alwaysStatus = 401;
    expect((await failureOf(provider().send(req))).message).toContain('ANTHROPIC_API_KEY');
  });
});

describe('agent CLI providers', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sos-cli-'));
  const bin = installFakeAgents(path.join(root, 'bin'));
  const log = path.join(root, 'agent.log');
  const env = { PATH: `${bin}:${process.env.PATH ?? ''}`, FAKE_AGENT_LOG: log };
  const calls = () =>
    readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as { flavor: string; argv: string[]; cwd: string; cwdEntries: number; stdin: string },
      );

  it('claude-code: prompt on stdin (never argv), tools off, empty temp cwd, usage and cost read', async () => {
    const p = new ClaudeCodeProvider({ binary: 'claude', model: 'sonnet', env, timeoutMs: 10_000 });
    const reply = await p.send(req);
    expect(reply.text).toBe('Run `npm install zod`.');
    expect(reply.reportedCostUsd).toBe(0.001);
    const call = calls().at(-1);
    expect(call?.stdin).toContain('Add `zod` to the web app');
    expect(call?.argv.join(' ')).not.toContain('zod');
    expect(call?.argv).toEqual([
      '-p',
      '--output-format',
      'json',
      '--tools',
      '',
      '--disable-slash-commands',
      '--model',
      'sonnet',
    ]);
    expect(call?.cwdEntries).toBe(0);
    expect(call?.cwd).not.toBe(process.cwd());
  });

  it('codex: exec --json in a read-only sandbox, prompt on stdin', async () => {
    const p = new CodexProvider({ binary: 'codex', model: '', env, timeoutMs: 10_000 });
    const reply = await p.send(req);
    expect(reply.text).toBe('Run `npm install zod`.');
    expect(reply.usage.outputTokens).toBeGreaterThan(0);
    const call = calls().at(-1);
    expect(call?.argv).toEqual([
      'exec',
      '--json',
      '--skip-git-repo-check',
      '--sandbox',
      'read-only',
      '--color',
      'never',
      '-',
    ]);
    expect(call?.stdin).toContain('You are a coding agent.');
  });

  it('an auth failure is classified as auth, a missing binary names the config key', async () => {
    const authEnv = { ...env, FAKE_AGENT_AUTH_FAIL: '1' };
    for (const p of [
      new ClaudeCodeProvider({ binary: 'claude', model: '', env: authEnv, timeoutMs: 10_000 }),
      new CodexProvider({ binary: 'codex', model: '', env: authEnv, timeoutMs: 10_000 }),
    ]) {
      const f = await failureOf(p.send(req));
      expect(f.kind, f.message).toBe('auth');
      expect(f.message).toMatch(/not authenticated/);
    }
    const missing = await failureOf(
      new ClaudeCodeProvider({
        binary: path.join(root, 'nope', 'claude'),
        model: '',
        env,
        timeoutMs: 1000,
      }).send(req),
    );
    expect(missing).toMatchObject({ kind: 'fatal' });
    expect(missing.message).toMatch(/not found.*claude_path/);
  });
});

describe('createProvider without an API key', () => {
  const config = configSchema.parse({ backend: 'anthropic' });
  const setup = roleSetup(config, 'target');

  it('refuses at once by default', () => {
    expect(() => createProvider(setup, config, {})).toThrow(/ANTHROPIC_API_KEY, which is not set/);
  });

  it('for a plan, builds the provider and reports the missing key only if a request is made', async () => {
    const provider = createProvider(setup, config, {}, { deferMissingKey: true });
    expect(provider).toMatchObject({ name: 'anthropic', model: DEFAULT_MODELS.anthropic, kind: 'api' });
    await expect(provider.send(req)).rejects.toThrow(/ANTHROPIC_API_KEY, which is not set/);
  });
});
