/** What an Anthropic Messages request and reply look like: shared by interactive requests and batches. */
import type {
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
} from '@anthropic-ai/sdk/resources/messages';
import { statedCallLine } from '../../../core/tool-calls.js';
import type { ChatMessage, ChatReply, ChatRequest } from '../chat.js';
import { callArgument, toolParameters } from './tool-body.js';

/** A message; a user message with images becomes image blocks followed by its text. */
function messageParam(m: ChatMessage): MessageParam {
  const images = m.images ?? [];
  if (m.role === 'assistant' || images.length === 0) return { role: m.role, content: m.content };
  return {
    role: 'user',
    content: [
      ...images.map((img) => ({
        type: 'image' as const,
        source: { type: 'base64' as const, media_type: img.mediaType, data: img.data },
      })),
      { type: 'text' as const, text: m.content },
    ],
  };
}

/** The Messages parameters of a request: the same interactively and in a batch. */
export function messageParams(model: string, req: ChatRequest): MessageCreateParamsNonStreaming {
  return {
    model,
    max_tokens: req.maxTokens,
    ...(req.system ? { system: req.system } : {}),
    messages: req.messages.map(messageParam),
    ...(req.tools && req.tools.length > 0
      ? {
          tools: req.tools.map((t) => ({
            name: t.name,
            description: t.description,
            input_schema: toolParameters(),
          })),
        }
      : {}),
  };
}

/**
 * A message's text and usage (interactive or a batch result). Its tool calls come first, as stated
 * calls (`TOOL_CALL: name argument`), so the reply a cache or a recording keeps holds them too.
 */
export function messageReply(message: Pick<Message, 'content' | 'usage'>): ChatReply {
  const calls = message.content.flatMap((block) =>
    block.type === 'tool_use' ? [statedCallLine(block.name, callArgument(block.input))] : [],
  );
  const answer = message.content
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('')
    .trim();
  return {
    text: [...calls, answer].filter((t) => t !== '').join('\n'),
    usage: { inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens },
  };
}
