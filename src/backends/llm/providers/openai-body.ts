/** What an OpenAI Chat Completions request and reply look like: shared by interactive requests and batch lines. */
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { statedCallLine, type ToolSpec } from '../../../core/tool-calls.js';
import { callArgument, toolParameters } from './tool-body.js';
import { ProviderFailure, type ChatMessage, type ChatReply, type ChatRequest } from '../chat.js';

/**
 * OpenAI's reasoning models (o1, o3, o4-mini, gpt-5…) refuse `max_tokens` (the SDK documents it as
 * "not compatible with o-series models") and any `temperature` but the default; they take
 * `max_completion_tokens`. Other models, including OpenAI-compatible servers, keep the classic pair.
 */
export function isReasoningModel(model: string): boolean {
  const name = model.toLowerCase().split('/').at(-1) ?? '';
  return /^(o\d+|gpt-5)(\b|[-._])/.test(name);
}

/**
 * The most output tokens a request may bill. A reasoning model's `max_completion_tokens` also bounds
 * its hidden reasoning, so it gets room to think on top of the answer's cap (else a hard task can spend
 * it all thinking and answer nothing); the budget reserves the same bound.
 */
export function outputTokenCap(model: string, maxTokens: number): number {
  return isReasoningModel(model) ? maxTokens + Math.max(4096, 4 * maxTokens) : maxTokens;
}

function samplingParams(
  model: string,
  req: ChatRequest,
): { max_completion_tokens: number } | { max_tokens: number; temperature: number } {
  return isReasoningModel(model)
    ? { max_completion_tokens: outputTokenCap(model, req.maxTokens) }
    : { max_tokens: req.maxTokens, temperature: req.temperature };
}

/** The Chat Completions body of a request: the same for an interactive request and a batch line. */
export function chatCompletionBody(model: string, req: ChatRequest): ChatCompletionCreateParamsNonStreaming {
  return {
    model,
    messages: [
      ...(req.system ? [{ role: 'system' as const, content: req.system }] : []),
      ...req.messages.map(messageParam),
    ],
    ...samplingParams(model, req),
    ...(req.tools && req.tools.length > 0 ? { tools: req.tools.map(functionTool), tool_choice: 'auto' } : {}),
  };
}

/** A message; a user message with images becomes text and image parts (images as data URLs). */
function messageParam(m: ChatMessage): ChatCompletionMessageParam {
  const images = m.images ?? [];
  if (m.role === 'assistant' || images.length === 0) return { role: m.role, content: m.content };
  return {
    role: 'user',
    content: [
      { type: 'text', text: m.content },
      ...images.map((img) => ({
        type: 'image_url' as const,
        image_url: { url: `data:${img.mediaType};base64,${img.data}` },
      })),
    ],
  };
}

/** A declared tool as a function taking one string (`query`: what to ask it). */
function functionTool(tool: ToolSpec): ChatCompletionFunctionTool {
  return {
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: toolParameters(),
    },
  };
}

/** The calls of a completion, as stated-call lines (arguments arrive as JSON text). */
function statedCalls(message: ChatCompletionMessage | undefined): string[] {
  return (message?.tool_calls ?? []).flatMap((call) => {
    if (call.type !== 'function') return [];
    let input: unknown;
    try {
      input = JSON.parse(call.function.arguments) as unknown;
    } catch {
      input = call.function.arguments;
    }
    return [statedCallLine(call.function.name, typeof input === 'string' ? input : callArgument(input))];
  });
}

/** A completion's text and usage (interactive or from a batch's output file). */
export function completionReply(
  completion: Pick<ChatCompletion, 'choices' | 'usage'>,
  provider: string,
  model: string,
  /** The output cap the request had (named in the failure), when known. */
  cap?: number,
): ChatReply {
  const choice = completion.choices[0];
  // Calls first, then the answer: the attempt takes the call lines out again.
  const text = [...statedCalls(choice?.message), choice?.message.content ?? '']
    .filter((t) => t !== '')
    .join('\n');
  if (text === '' && choice?.finish_reason === 'length') {
    // Not an answer to score 0: the cap ran out (while reasoning, on reasoning models).
    throw new ProviderFailure(
      `${provider} model ${model} used its whole output cap${cap === undefined ? '' : ` (${cap} tokens)`} without answering`,
      'fatal',
    );
  }
  return {
    text,
    usage: {
      inputTokens: completion.usage?.prompt_tokens ?? 0,
      outputTokens: completion.usage?.completion_tokens ?? 0,
    },
  };
}
