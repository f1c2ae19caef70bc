/** What an Anthropic Messages request and reply look like: shared by interactive requests and batches. */
import type { Message, MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { ChatReply, ChatRequest } from '../chat.js';

/** The Messages parameters of a request: the same interactively and in a batch. */
export function messageParams(model: string, req: ChatRequest): MessageCreateParamsNonStreaming {
  return {
    model,
    max_tokens: req.maxTokens,
    ...(req.system ? { system: req.system } : {}),
    messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
  };
}

/** A message's text and usage (interactive or a batch result). */
export function messageReply(message: Pick<Message, 'content' | 'usage'>): ChatReply {
  const text = message.content
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('')
    .trim();
  return {
    text,
    usage: { inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens },
  };
}
