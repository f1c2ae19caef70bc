import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatProvider, ChatRequest } from '../llm/chat.js';
import { ExchangeWriter, readExchanges } from './exchange-log.js';
import { RecordingProvider } from './recording-provider.js';
import { ReplayProvider, ReplaySource } from './replay-provider.js';

const ask = (role: ChatRequest['role'], content: string): ChatRequest => ({
  role,
  system: 'sys',
  messages: [{ role: 'user', content }],
  maxTokens: 100,
  temperature: 0,
});

/** A scripted model: answers "reply to <prompt>", with token counts from the prompt's length. */
const scripted: ChatProvider = {
  name: 'openai',
  model: 'gpt-test',
  kind: 'api',
  send: (req) =>
    Promise.resolve({
      text: `reply to ${req.messages[0]?.content ?? ''} key sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6`,
      usage: { inputTokens: req.messages[0]?.content.length ?? 0, outputTokens: 3 },
    }),
};

async function record(requests: ChatRequest[]): Promise<string> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sos-rec-')), 'deep', 'night.jsonl');
  const rec = new RecordingProvider(scripted, new ExchangeWriter(file));
  for (const r of requests) await rec.send(r);
  return file;
}

describe('Recording and Replay providers', () => {
  it('record to a private file with redacted replies, and replay them in order with their usage', async () => {
    const file = await record([ask('target', 'a'), ask('optimizer', 'b')]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain('sk-proj-');
    const source = new ReplaySource(readExchanges(file), 'order');
    const target = new ReplayProvider(source, 'target', { name: 'x', model: 'y' });
    expect([target.name, target.model, target.kind]).toEqual(['openai', 'gpt-test', 'api']);
    const first = await target.send(ask('target', 'a'));
    expect(first.text).toMatch(/^reply to a key \[REDACTED:/);
    expect(first.usage).toEqual({ inputTokens: 1, outputTokens: 3 });
    await expect(target.send(ask('optimizer', 'c'))).rejects.toThrow(/request 2 \(optimizer\) differs/);
  });

  it('a role the recording never asked stands for the recorded backend, and cannot be answered', async () => {
    const file = await record([ask('optimizer', 'a')]);
    const source = new ReplaySource(readExchanges(file), 'hash');
    const target = new ReplayProvider(source, 'target', { name: 'handoff', model: '' });
    expect([target.name, target.model, target.kind]).toEqual(['openai', 'gpt-test', 'api']);
    await expect(target.send(ask('target', 'b'))).rejects.toThrow(
      /no \(further\) reply to this target request/,
    );
    const empty = new ReplayProvider(new ReplaySource([], 'hash'), 'target', { name: 'x', model: 'y' });
    expect([empty.name, empty.model]).toEqual(['x', 'y']);
  });

  it('order mode refuses requests out of order; hash mode answers them', async () => {
    const file = await record([ask('target', 'a'), ask('target', 'b')]);
    const ordered = new ReplayProvider(new ReplaySource(readExchanges(file), 'order'), 'target', scripted);
    await expect(ordered.send(ask('target', 'b'))).rejects.toThrow(/request 1 \(target\) differs/);
    const hashed = new ReplayProvider(new ReplaySource(readExchanges(file), 'hash'), 'target', scripted);
    expect((await hashed.send(ask('target', 'b'))).text).toMatch(/^reply to b/);
    expect((await hashed.send(ask('target', 'a'))).text).toMatch(/^reply to a/);
    await expect(hashed.send(ask('target', 'a'))).rejects.toThrow(/no \(further\) reply/);
  });

  it("hash mode gives a handoff recording's reply again to the same request (its queue answered it once)", async () => {
    const file = await record([ask('target', 'a')]);
    const exchanges = readExchanges(file).map((e) => ({ ...e, provider: 'handoff' }));
    const hashed = new ReplayProvider(new ReplaySource(exchanges, 'hash'), 'target', scripted);
    const first = await hashed.send(ask('target', 'a'));
    expect((await hashed.send(ask('target', 'a'))).text).toBe(first.text);
    await expect(hashed.send(ask('target', 'b'))).rejects.toThrow(/no \(further\) reply/);
  });

  it('a role the recording never answered keeps the configured name', () => {
    const source = new ReplaySource([], 'hash');
    const p = new ReplayProvider(source, 'optimizer', { name: 'anthropic', model: 'm' });
    expect([p.name, p.model]).toEqual(['anthropic', 'm']);
  });
});
