/** What a declared tool looks like to the API providers, shared by the OpenAI and Anthropic bodies. */

/** Every declared tool takes one argument, what to ask it (as a JSON schema). */
export const toolParameters = () => ({
  type: 'object' as const,
  properties: { query: { type: 'string', description: 'what to look up or ask the tool' } },
  required: ['query'],
});

/** A native call's argument as a stated call carries it: its `query`, else its whole input as JSON. */
export function callArgument(input: unknown): string {
  if (typeof input === 'object' && input !== null && typeof (input as { query?: unknown }).query === 'string')
    return (input as { query: string }).query;
  return input === undefined ? '' : JSON.stringify(input);
}
