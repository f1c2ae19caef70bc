import { describe, expect, it } from 'vitest';
import { ALL_HOSTILE, UNSAFE_RE } from '../../../test/helpers/hostile-text.js';
import { silentLogger } from '../../core/logger.js';
import { memoryResponseCache } from '../../store/response-cache-repo.js';
import type { ChatProvider, ChatReply } from './chat.js';
import { GuardedChat } from './guarded-chat.js';
import { Limiter } from '../../core/limiter.js';
import { defaultRetryPolicy } from './retry.js';
import { SpendMeter } from './spend-meter.js';

const SECRET = ['gh', 'p_', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'].join('');

/** A model whose reply carries every hostile sequence and a secret. */
class HostileProvider implements ChatProvider {
  readonly name = 'hostile';
  readonly model = 'm';
  readonly kind = 'api' as const;
  send(): Promise<ChatReply> {
    return Promise.resolve({
      text: `Add the rule ${ALL_HOSTILE} and use ${SECRET}`,
      usage: { inputTokens: 1, outputTokens: 1 },
    });
  }
}

describe('GuardedChat replies', () => {
  it('a reply reaches the caller and the cache without escape sequences or secrets', async () => {
    const cache = memoryResponseCache();
    const chat = new GuardedChat(new HostileProvider(), {
      meter: new SpendMeter({ maxCalls: null, maxTokens: null, maxCostUsd: null }),
      cache,
      limiter: new Limiter(1),
      retry: defaultRetryPolicy(0, { sleep: () => Promise.resolve(), random: () => 0.5 }),
      price: null,
      logger: silentLogger,
    });
    const req = {
      role: 'target' as const,
      system: 's',
      messages: [{ role: 'user' as const, content: 'q' }],
      maxTokens: 10,
      temperature: 0,
    };
    for (const reply of [await chat.complete(req), await chat.complete(req)]) {
      expect(reply.text).not.toMatch(UNSAFE_RE);
      expect(reply.text).not.toContain(SECRET);
      expect(reply.text).toMatch(/^Add the rule /);
      expect(reply.text).toContain('[REDACTED:github-token]');
    }
  });
});
