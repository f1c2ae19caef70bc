/**
 * Replay: answers a night from an exchange log instead of a model. `order` hands out the recorded
 * replies strictly in sequence and stops the night when a request differs from the recorded one;
 * `hash` answers each request with the next recorded reply of the identical request (role, prompt,
 * parameters), whatever order concurrent requests arrive in. Either way a request the log cannot
 * answer stops the night with a clear message (nothing is ever sent anywhere).
 */
import {
  ProviderFailure,
  type ChatProvider,
  type ChatReply,
  type ChatRequest,
  type ChatRole,
} from '../llm/chat.js';
import { exchangeHash, type Exchange } from './exchange-log.js';
import { outputTokenCap } from '../llm/providers/openai.js';

import type { ReplayMatch } from './replay-match.js';

/** The providers that declare tools to their model (see `ChatProvider.nativeTools`). */
const NATIVE_TOOL_PROVIDERS: ReadonlySet<string> = new Set(['openai', 'azure-openai', 'anthropic']);

export { REPLAY_MATCHES, type ReplayMatch } from './replay-match.js';

/** The recorded exchanges of one night, shared by both roles (order mode keeps one global position). */
export class ReplaySource {
  readonly match: ReplayMatch;
  private readonly exchanges: Exchange[];
  private position = 0;
  private readonly byHash = new Map<string, Exchange[]>();
  /** The last reply given to each request (a handoff recording's is given again: see `next`). */
  private readonly given = new Map<string, Exchange>();
  constructor(exchanges: Exchange[], match: ReplayMatch) {
    this.exchanges = exchanges;
    this.match = match;
    for (const e of exchanges) {
      const list = this.byHash.get(e.hash) ?? [];
      list.push(e);
      this.byHash.set(e.hash, list);
    }
  }

  /** The first recorded exchange of a role: whose name, model and kind the replay stands in for. */
  firstOf(role: ChatRole): Exchange | undefined {
    return this.exchanges.find((e) => e.role === role);
  }

  /** The first recorded exchange of any role: the recorded night's backend. */
  first(): Exchange | undefined {
    return this.exchanges[0];
  }

  next(req: ChatRequest): Exchange {
    const hash = exchangeHash(req);
    if (this.match === 'hash') {
      // A handoff queue answers each distinct request once: a request asked twice at once (two tasks
      // with the same prompt, in flight before the response cache holds either) is recorded once, so a
      // handoff recording gives the same request the same reply again.
      const again = this.given.get(hash);
      const found = this.byHash.get(hash)?.shift() ?? (again?.provider === 'handoff' ? again : undefined);
      if (found) this.given.set(hash, found);
      if (!found)
        throw new ProviderFailure(
          `replay: the recording has no (further) reply to this ${req.role} request (hash ${hash.slice(0, 12)})`,
          'fatal',
        );
      return found;
    }
    const found = this.exchanges[this.position];
    if (!found)
      throw new ProviderFailure(
        `replay: the recording ends after ${this.position} exchanges, but the night sent another ${req.role} request`,
        'fatal',
      );
    if (found.hash !== hash) {
      throw new ProviderFailure(
        `replay: request ${this.position + 1} (${req.role}) differs from the recorded one (${found.role}); replay with --replay-match hash if only the order changed`,
        'fatal',
      );
    }
    this.position += 1;
    return found;
  }
}

export class ReplayProvider implements ChatProvider {
  readonly name: string;
  readonly model: string;
  readonly kind: ChatProvider['kind'];
  /** As the recorded provider did: the prompts it saw told of tools the same way. */
  readonly nativeTools: boolean;
  /** As the recorded provider did: it was shown the images (the log keeps their digests). */
  readonly images: boolean;
  private readonly source: ReplaySource;
  constructor(source: ReplaySource, role: ChatRole, fallback: { name: string; model: string }) {
    this.source = source;
    // A role the recorded night never asked (one that only mined, e.g. on a project folder that is
    // gone) stands for the recorded backend too: a replay cannot answer it, so it is never priced as
    // an unknown API model that would refuse the whole replay.
    const first = source.firstOf(role) ?? source.first();
    this.name = first?.provider ?? fallback.name;
    this.model = first?.model ?? fallback.model;
    this.kind = first?.kind ?? 'api';
    this.nativeTools = NATIVE_TOOL_PROVIDERS.has(this.name);
    this.images = NATIVE_TOOL_PROVIDERS.has(this.name);
  }

  /** The recorded model's cap, so a replay reserves the budget as the recorded night did. */
  outputTokenCap(maxTokens: number): number {
    return this.name === 'openai' || this.name === 'azure-openai'
      ? outputTokenCap(this.model, maxTokens)
      : maxTokens;
  }

  send(req: ChatRequest): Promise<ChatReply> {
    // Taken from the log when asked (a thrown ProviderFailure rejects the promise, as a provider's would).
    return Promise.resolve().then(() => {
      const e = this.source.next(req);
      return {
        text: e.reply.text,
        usage: { inputTokens: e.reply.input_tokens, outputTokens: e.reply.output_tokens },
        ...(e.reply.reported_cost_usd === undefined ? {} : { reportedCostUsd: e.reply.reported_cost_usd }),
      };
    });
  }
}
