import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnswerPendingError } from '../../core/errors.js';
import type { ChatRequest } from '../llm/chat.js';
import { HandoffProvider } from './handoff-provider.js';
import { HandoffQueue, MAX_ANSWER_BYTES, requestId } from './handoff-queue.js';

const ask = (content: string, role: ChatRequest['role'] = 'target'): ChatRequest => ({
  role,
  system: 'sys',
  messages: [{ role: 'user', content }],
  maxTokens: 100,
  temperature: 0,
});
const clock = { now: () => 1_700_000_000_000 };
const queueIn = (): HandoffQueue =>
  new HandoffQueue(mkdtempSync(path.join(os.tmpdir(), 'sos-handoff-')), '/work/project');

describe('the handoff queue and provider', () => {
  it('queues an unanswered request once, privately, and stops the caller to wait', async () => {
    const queue = queueIn();
    const provider = new HandoffProvider(queue, clock);
    await expect(provider.send(ask('a'))).rejects.toBeInstanceOf(AnswerPendingError);
    await expect(provider.send(ask('b', 'optimizer'))).rejects.toMatchObject({
      requestId: requestId(ask('b', 'optimizer')),
    });
    await expect(provider.send(ask('a'))).rejects.toBeInstanceOf(AnswerPendingError);
    expect(queue.requests().map((r) => [r.seq, r.role, r.messages[0]?.content])).toEqual([
      [0, 'target', 'a'],
      [1, 'optimizer', 'b'],
    ]);
    expect(statSync(queue.dir).mode & 0o777).toBe(0o700);
    const file = path.join(queue.dir, 'requests', `${requestId(ask('a'))}.json`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A queue reopened by the next invocation numbers on from where it was.
    const again = new HandoffQueue(path.dirname(path.dirname(queue.dir)), '/work/project');
    await expect(new HandoffProvider(again, clock).send(ask('c'))).rejects.toBeInstanceOf(AnswerPendingError);
    expect(again.requests().map((r) => r.seq)).toEqual([0, 1, 2]);
  });

  it('answers a request from its recorded answer, cleaned of control characters and secrets', async () => {
    const queue = queueIn();
    const provider = new HandoffProvider(queue, clock);
    await expect(provider.send(ask('a'))).rejects.toBeInstanceOf(AnswerPendingError);
    const id = requestId(ask('a'));
    queue.answer(
      id,
      'Run \u001b]52;c;ZXZpbA==\u0007`pnpm add zod`\r\nkey sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6',
      clock.now(),
    );
    const reply = await provider.send(ask('a'));
    expect(reply.text).toMatch(/^Run `pnpm add zod`\nkey \[REDACTED:/);
    for (const c of ['\u001b', '\u0007', '\r']) expect(reply.text).not.toContain(c);
    expect(reply.usage.outputTokens).toBeGreaterThan(0);
    expect(queue.open()).toEqual([]);
    expect(readFileSync(path.join(queue.dir, 'answers', `${id}.json`), 'utf8')).not.toContain('sk-proj-');
  });

  it('refuses answers that are not for an open request, empty or too large', async () => {
    const queue = queueIn();
    await expect(new HandoffProvider(queue, clock).send(ask('a'))).rejects.toBeInstanceOf(AnswerPendingError);
    const id = requestId(ask('a'));
    expect(() => queue.answer('../../etc', 'x', 0)).toThrow(/not a handoff request id/);
    expect(() => queue.answer('0123456789abcdef', 'x', 0)).toThrow(/no handoff request 0123456789abcdef/);
    expect(() => queue.answer(id, ' \n\u0000 ', 0)).toThrow(/the answer is empty/);
    expect(() => queue.answer(id, 'x'.repeat(MAX_ANSWER_BYTES + 1), 0)).toThrow(/larger than/);
    queue.answer(id, 'fine', 0);
    expect(() => queue.answer(id, 'again', 0)).toThrow(/answered already/);
  });

  it('treats a damaged answer file as an open question, never as an answer', async () => {
    const queue = queueIn();
    await expect(new HandoffProvider(queue, clock).send(ask('a'))).rejects.toBeInstanceOf(AnswerPendingError);
    const id = requestId(ask('a'));
    writeFileSync(
      path.join(queue.dir, 'answers', `${id}.json`),
      '{"format": "skillopt_sleep.handoff_answer.v1", "te',
    );
    expect(queue.answerFor(id)).toBeNull();
    expect(queue.open().map((r) => r.id)).toEqual([id]);
    queue.discard();
    expect(queue.exists()).toBe(false);
  });
});
