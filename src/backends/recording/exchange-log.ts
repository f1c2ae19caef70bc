/**
 * The JSONL log of a night's model exchanges (request as sent, reply, role), one object a line. The
 * Recording provider writes it; the Replay provider answers a night from it. Requests reach it already
 * redacted by the guarded chat; replies are redacted again on the way to disk, like every stored text.
 */
import { appendFileSync, chmodSync, mkdirSync, openSync, closeSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { InputError, errnoCode } from '../../core/errors.js';
import { withImageDigests } from '../../core/chat-image.js';
import { sha256Hex } from '../../core/hash.js';
import { redactText } from '../../core/redact-user.js';
import type { ChatProvider, ChatReply, ChatRequest } from '../llm/chat.js';

export const EXCHANGE_FORMAT = 'skillopt_sleep.exchange.v1';

const exchangeSchema = z.object({
  format: z.literal(EXCHANGE_FORMAT),
  seq: z.number().int().nonnegative(),
  role: z.enum(['target', 'optimizer']),
  provider: z.string(),
  model: z.string(),
  kind: z.enum(['api', 'agent-cli']),
  hash: z.string(),
  request: z.object({
    system: z.string(),
    messages: z.array(
      z.object({
        role: z.enum(['user', 'assistant']),
        content: z.string(),
        /** Images sent with the message, as their digests (`imageDigest`): never their bytes. */
        images: z.array(z.string()).optional(),
      }),
    ),
    max_tokens: z.number(),
    temperature: z.number(),
    sample: z.number(),
    tools: z.array(z.object({ name: z.string(), description: z.string() })).optional(),
  }),
  reply: z.object({
    text: z.string(),
    input_tokens: z.number().nonnegative(),
    output_tokens: z.number().nonnegative(),
    reported_cost_usd: z.number().nonnegative().optional(),
  }),
});
export type Exchange = z.infer<typeof exchangeSchema>;

/** What identifies a request, whoever answers it: role, prompt and parameters (not provider or model). */
export function exchangeHash(req: ChatRequest): string {
  return sha256Hex(
    JSON.stringify({
      v: 1,
      role: req.role,
      system: req.system,
      messages: withImageDigests(req.messages),
      max_tokens: req.maxTokens,
      temperature: req.temperature,
      sample: req.sample ?? 0,
      ...(req.tools && req.tools.length > 0 ? { tools: req.tools } : {}),
    }),
  );
}

export function toExchange(
  seq: number,
  provider: Pick<ChatProvider, 'name' | 'model' | 'kind'>,
  req: ChatRequest,
  reply: ChatReply,
): Exchange {
  return {
    format: EXCHANGE_FORMAT,
    seq,
    role: req.role,
    provider: provider.name,
    model: provider.model,
    kind: provider.kind,
    hash: exchangeHash(req),
    request: {
      system: req.system,
      messages: withImageDigests(req.messages),
      max_tokens: req.maxTokens,
      temperature: req.temperature,
      sample: req.sample ?? 0,
      ...(req.tools && req.tools.length > 0 ? { tools: [...req.tools] } : {}),
    },
    reply: {
      text: reply.text,
      input_tokens: reply.usage.inputTokens,
      output_tokens: reply.usage.outputTokens,
      ...(reply.reportedCostUsd === undefined ? {} : { reported_cost_usd: reply.reportedCostUsd }),
    },
  };
}

/** Appends exchanges to a private file (0600 in a 0700 folder), redacting every text once more. */
export class ExchangeWriter {
  readonly file: string;
  private seq = 0;
  constructor(file: string) {
    this.file = file;
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    closeSync(openSync(file, 'a', 0o600));
    chmodSync(file, 0o600);
  }

  /** The next sequence number (the order requests were sent in). */
  nextSeq(): number {
    return this.seq++;
  }

  append(exchange: Exchange): void {
    const scrub = redactText;
    const safe: Exchange = {
      ...exchange,
      request: {
        ...exchange.request,
        system: scrub(exchange.request.system),
        messages: exchange.request.messages.map((m) => ({ ...m, content: scrub(m.content) })),
      },
      reply: { ...exchange.reply, text: scrub(exchange.reply.text) },
    };
    appendFileSync(this.file, `${JSON.stringify(safe)}\n`, { mode: 0o600 });
  }
}

/** Every exchange of a log, in the order they were sent; a bad line is a clear input error. */
export function readExchanges(file: string): Exchange[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(`cannot read the recording ${file}: ${errnoCode(err) ?? 'error'}`);
  }
  const out: Exchange[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new InputError(`the recording ${file}, line ${i + 1}: not JSON`);
    }
    const parsed = exchangeSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InputError(
        `the recording ${file}, line ${i + 1}: not a ${EXCHANGE_FORMAT} exchange (${issue ? `${issue.path.join('.') || 'value'}: ${issue.message}` : 'bad shape'})`,
      );
    }
    out.push(parsed.data);
  });
  return out.sort((a, b) => a.seq - b.seq);
}
