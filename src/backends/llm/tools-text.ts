/** What the attempt prompt tells the target about its tools (the `{{tools}}` of `attempt.md`). */
import { STATED_CALL, type ToolSpec } from '../../core/tool-calls.js';

/** Without tools the prompt reads as it always did (its line break included), so its requests keep their keys. */
const NO_TOOLS = 'You have no tools: answer in\ntext only.';

/**
 * `native`: the tools are declared with the request and called through the provider's interface.
 * Otherwise the target states each call as a line of its own, which the attempt reads back.
 */
export function toolsText(tools: readonly ToolSpec[], native: boolean): string {
  if (tools.length === 0) return NO_TOOLS;
  const names = tools.map((t) => t.name).join(', ');
  const results =
    'A call is recorded, but its result is not returned in this exchange: make the calls you would make, then give your whole answer in the same reply.';
  if (native) return `You may call the tools declared with this request (${names}). ${results}`;
  const list = tools.map((t) => `- ${t.name}: ${t.description}`).join('\n');
  return `You have these tools:\n${list}\nCall one by writing a line of its own, \`${STATED_CALL} <tool> <argument>\`, before your answer (one line per call; nothing else on it). ${results}`;
}
