/** Token and call accounting for model calls, summed across a night's stages (the mock reports zero tokens). */
export interface Usage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

export const zeroUsage = (): Usage => ({ calls: 0, inputTokens: 0, outputTokens: 0 });

export function addUsage(into: Usage, more: Usage): void {
  into.calls += more.calls;
  into.inputTokens += more.inputTokens;
  into.outputTokens += more.outputTokens;
}
