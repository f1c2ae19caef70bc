/**
 * Prices in USD per million tokens. The built-in table covers a few common models and may be out of
 * date: the config key `prices` overrides or extends it (`{"my-model": {"input_per_mtok": 1,
 * "output_per_mtok": 2}}`). A model matches its exact name first, then the longest table key it starts
 * with, so dated versions (`claude-sonnet-4-5-20250929`) find their family.
 */
export interface Price {
  input_per_mtok: number;
  output_per_mtok: number;
}

export const BUILTIN_PRICES: Readonly<Record<string, Price>> = {
  'gpt-4o-mini': { input_per_mtok: 0.15, output_per_mtok: 0.6 },
  'gpt-4o': { input_per_mtok: 2.5, output_per_mtok: 10 },
  'gpt-4.1': { input_per_mtok: 2, output_per_mtok: 8 },
  'gpt-4.1-mini': { input_per_mtok: 0.4, output_per_mtok: 1.6 },
  'gpt-4.1-nano': { input_per_mtok: 0.1, output_per_mtok: 0.4 },
  'claude-sonnet-4': { input_per_mtok: 3, output_per_mtok: 15 },
  'claude-haiku-4-5': { input_per_mtok: 1, output_per_mtok: 5 },
  'claude-3-5-haiku': { input_per_mtok: 0.8, output_per_mtok: 4 },
  'claude-opus-4': { input_per_mtok: 15, output_per_mtok: 75 },
};

export function priceFor(model: string, overrides: Readonly<Record<string, Price>>): Price | null {
  for (const table of [overrides, BUILTIN_PRICES]) {
    const exact = table[model];
    if (exact) return exact;
  }
  for (const table of [overrides, BUILTIN_PRICES]) {
    const key = Object.keys(table)
      .filter((k) => model.startsWith(k))
      .sort((a, b) => b.length - a.length)[0];
    if (key !== undefined) return table[key] ?? null;
  }
  return null;
}

export function costUsd(price: Price | null, inputTokens: number, outputTokens: number): number {
  if (!price) return 0;
  return (inputTokens * price.input_per_mtok + outputTokens * price.output_per_mtok) / 1_000_000;
}

/**
 * What the providers' batch engines charge, as a share of the interactive price: the OpenAI Batch API
 * (Azure's global batch too) and Anthropic Message Batches both bill half. A `--batch` night's budget
 * and spend use these prices.
 */
export const BATCH_PRICE_FACTOR: Readonly<Record<'openai' | 'azure-openai' | 'anthropic', number>> = {
  openai: 0.5,
  'azure-openai': 0.5,
  anthropic: 0.5,
};

export function batchPrice(price: Price | null, factor: number): Price | null {
  return price
    ? { input_per_mtok: price.input_per_mtok * factor, output_per_mtok: price.output_per_mtok * factor }
    : null;
}
