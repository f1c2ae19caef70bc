import { describe, expect, it } from 'vitest';
import { BudgetExhaustedError } from '../../core/errors.js';
import { priceFor } from './prices.js';
import { SpendMeter, tokenBound } from './spend-meter.js';

const req = (text = 'hello', maxOutputTokens = 10) => ({ texts: [text], maxOutputTokens, price: null });
const used = (inputTokens: number, outputTokens: number, costUsd = 0) => ({
  inputTokens,
  outputTokens,
  costUsd,
});

describe('SpendMeter', () => {
  it('meters replies that arrive after the budget tripped, and whenIdle waits for them', async () => {
    const meter = new SpendMeter({ maxCalls: 2, maxTokens: null, maxCostUsd: null });
    const a = meter.reserve(req());
    const b = meter.reserve(req());
    expect(() => meter.reserve(req())).toThrow(BudgetExhaustedError);
    expect(await meter.whenIdle(1)).toBe(false);
    const idle = meter.whenIdle(5_000);
    meter.settle(a, used(10, 5));
    setTimeout(() => meter.settle(b, used(7, 3)), 5);
    expect(await idle).toBe(true);
    expect(meter.summary()).toMatchObject({ calls: 2, input_tokens: 17, output_tokens: 8 });
    expect(await meter.whenIdle(1)).toBe(true);
  });

  it('holds the reservations of requests waiting for their batch: the round is checked whole, the spend leaves them out', async () => {
    const bound = tokenBound(['hello'], 10);
    const meter = new SpendMeter({ maxCalls: null, maxTokens: 2 * bound, maxCostUsd: null });
    meter.settle(meter.reserve(req()), used(3, 2));
    meter.hold(meter.reserve(req()));
    // Answered tokens + the held bound + this bound would cross max_tokens: refused before it is batched.
    expect(() => meter.reserve(req())).toThrow(/max_tokens/);
    expect(await meter.whenIdle(1)).toBe(true);
    expect(meter.summary()).toMatchObject({ calls: 1, input_tokens: 3, output_tokens: 2 });
  });

  it('allows exactly max_calls requests, then refuses every later one', () => {
    const meter = new SpendMeter({ maxCalls: 3, maxTokens: null, maxCostUsd: null });
    for (let i = 0; i < 3; i++) meter.settle(meter.reserve(req()), used(1, 1));
    expect(() => meter.reserve(req())).toThrow(BudgetExhaustedError);
    expect(meter.calls).toBe(3);
    expect(meter.stoppedBy).toBe('max_calls');
    expect(() => meter.reserve(req())).toThrow(/max_calls/);
  });

  it('reserves an upper bound of tokens so max_tokens is never crossed', () => {
    const bound = tokenBound(['x'.repeat(100)], 50);
    expect(bound).toBe(100 + 16 + 50);
    const meter = new SpendMeter({ maxCalls: null, maxTokens: 2 * bound, maxCostUsd: null });
    const a = meter.reserve({ texts: ['x'.repeat(100)], maxOutputTokens: 50, price: null });
    const b = meter.reserve({ texts: ['x'.repeat(100)], maxOutputTokens: 50, price: null });
    // Two reservations in flight fill the budget: a third cannot start before they settle.
    expect(() => meter.reserve({ texts: ['x'], maxOutputTokens: 1, price: null })).toThrow(
      BudgetExhaustedError,
    );
    meter.settle(a, used(30, 20));
    meter.settle(b, used(30, 20));
    expect(meter.totalTokens()).toBe(100);
    expect(meter.totalTokens()).toBeLessThanOrEqual(2 * bound);
  });

  it('checks the cost bound before sending and adds the real cost after', () => {
    const price = { input_per_mtok: 1_000_000, output_per_mtok: 1_000_000 }; // $1 per token
    const meter = new SpendMeter({ maxCalls: null, maxTokens: null, maxCostUsd: 40 });
    const r = meter.reserve({ texts: ['abcd'], maxOutputTokens: 5, price }); // bound 4+16+5 = $25
    meter.settle(r, used(3, 2, 5));
    expect(meter.cost).toBe(5);
    // $5 spent + a bound of 4+16+16 = $36 would cross $40.
    expect(() => meter.reserve({ texts: ['abcd'], maxOutputTokens: 16, price })).toThrow(/max_cost_usd/);
    expect(meter.summary().stopped_by).toBe('max_cost_usd');
  });

  it('counts a failed request as a call with no tokens', () => {
    const meter = new SpendMeter({ maxCalls: 5, maxTokens: null, maxCostUsd: null });
    meter.settle(meter.reserve(req()), used(0, 0));
    expect(meter.summary()).toMatchObject({ calls: 1, input_tokens: 0, output_tokens: 0 });
  });

  it('refunds a request that waits for a handoff answer, and restores an earlier part of the night', () => {
    const meter = new SpendMeter({ maxCalls: 2, maxTokens: null, maxCostUsd: null });
    meter.settle(meter.reserve(req()), used(4, 2));
    const waiting = meter.reserve(req());
    meter.refund(waiting);
    meter.refund(waiting);
    expect(meter.summary()).toMatchObject({ calls: 1, input_tokens: 4, output_tokens: 2 });
    // The refunded call left room for the answered one.
    meter.settle(meter.reserve(req()), used(1, 1));
    const resumed = new SpendMeter({ maxCalls: 2, maxTokens: null, maxCostUsd: null });
    resumed.restore(meter.summary());
    expect(resumed.summary()).toEqual(meter.summary());
    expect(() => resumed.reserve(req())).toThrow(/max_calls/);
  });
});

describe('priceFor', () => {
  it('prefers the user table, then exact names, then the longest prefix', () => {
    expect(priceFor('gpt-4o-mini', {})).toEqual({ input_per_mtok: 0.15, output_per_mtok: 0.6 });
    expect(priceFor('claude-sonnet-4-5-20250929', {})?.input_per_mtok).toBe(3);
    expect(
      priceFor('gpt-4o-mini', { 'gpt-4o-mini': { input_per_mtok: 9, output_per_mtok: 9 } })?.input_per_mtok,
    ).toBe(9);
    expect(priceFor('qwen2.5-coder', {})).toBeNull();
  });
});
