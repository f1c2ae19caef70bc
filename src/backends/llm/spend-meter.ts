/**
 * The night's hard budget. Every request is reserved BEFORE it is sent: one call, an upper bound of its
 * tokens (prompt bytes, since a token is at least one byte, plus per-message overhead, plus the
 * `max_tokens` the reply is capped at) and that bound's cost. A request whose reservation would cross
 * `max_calls`, `max_tokens` or `max_cost_usd` is not sent; the meter then refuses everything else too,
 * so the night unwinds. Settling replaces the reservation by what the provider reported, also for
 * replies that arrive after the budget tripped (`whenIdle` lets the night wait for them before it
 * reports its spend). Retries are requests like any other; cache hits never reach the meter.
 */
import { BudgetExhaustedError } from '../../core/errors.js';
import { costUsd, type Price } from './prices.js';

export interface BudgetLimits {
  maxCalls: number | null;
  maxTokens: number | null;
  maxCostUsd: number | null;
}

export interface SpendSummary {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  cache_hits: number;
  retries: number;
  redactions: number;
  invalid_replies: number;
  repaired_replies: number;
  /** Answers left out of a score because the judge never gave a valid reply (not scored 0/0). */
  unjudged_answers: number;
  /** The limit that stopped the night, or ''. */
  stopped_by: string;
  limits: { max_calls: number | null; max_tokens: number | null; max_cost_usd: number | null };
}

export interface Reservation {
  tokens: number;
  cost: number;
  settled: boolean;
}

const MESSAGE_OVERHEAD_TOKENS = 16;

/** An upper bound of the tokens a request can bill. */
export function tokenBound(texts: string[], maxOutputTokens: number): number {
  const input = texts.reduce((n, t) => n + Buffer.byteLength(t, 'utf8') + MESSAGE_OVERHEAD_TOKENS, 0);
  return input + maxOutputTokens;
}

export class SpendMeter {
  calls = 0;
  inputTokens = 0;
  outputTokens = 0;
  cost = 0;
  cacheHits = 0;
  retries = 0;
  redactions = 0;
  invalidReplies = 0;
  repairedReplies = 0;
  unjudgedAnswers = 0;
  stoppedBy = '';
  /** Set after an auth or fatal failure: nothing more is sent this night. */
  haltedBy: Error | null = null;
  private reservedTokens = 0;
  /** Reservations of requests waiting for their batch (`hold`). */
  private held = 0;
  private reservedCost = 0;
  /** Requests reserved and not yet settled (in flight), and who waits for there to be none. */
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];

  readonly limits: BudgetLimits;
  constructor(limits: BudgetLimits) {
    this.limits = limits;
  }

  /** Reserve one request or throw `BudgetExhaustedError` (and refuse every later request). */
  reserve(input: { texts: string[]; maxOutputTokens: number; price: Price | null }): Reservation {
    if (this.haltedBy) throw this.haltedBy;
    if (this.stoppedBy) throw this.exhausted(this.stoppedBy);
    const tokens = tokenBound(input.texts, input.maxOutputTokens);
    const inputBound = tokens - input.maxOutputTokens;
    const cost = costUsd(input.price, inputBound, input.maxOutputTokens);
    const { maxCalls, maxTokens, maxCostUsd } = this.limits;
    if (maxCalls !== null && this.calls + 1 > maxCalls) this.stop('max_calls');
    if (maxTokens !== null && this.totalTokens() + this.reservedTokens + tokens > maxTokens)
      this.stop('max_tokens');
    if (maxCostUsd !== null && this.cost + this.reservedCost + cost > maxCostUsd) this.stop('max_cost_usd');
    this.calls += 1;
    this.reservedTokens += tokens;
    this.reservedCost += cost;
    this.inFlight += 1;
    return { tokens, cost, settled: false };
  }

  /** Replace a reservation by what the request really used (zero for a request that failed). */
  settle(r: Reservation, used: { inputTokens: number; outputTokens: number; costUsd: number }): void {
    if (r.settled) return;
    r.settled = true;
    this.reservedTokens -= r.tokens;
    this.reservedCost -= r.cost;
    this.inputTokens += used.inputTokens;
    this.outputTokens += used.outputTokens;
    this.cost += used.costUsd;
    this.inFlight -= 1;
    if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /**
   * Wait until every request in flight has settled, at most `timeoutMs`; true when none is left. A
   * night stopped by its budget waits here, so the replies still arriving are in its spend.
   */
  async whenIdle(timeoutMs: number): Promise<boolean> {
    if (this.inFlight === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const idle = await Promise.race([
      new Promise<boolean>((resolve) => this.idleWaiters.push(() => resolve(true))),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
    ]);
    clearTimeout(timer);
    return idle;
  }

  /**
   * Keep the reservation of a request that waits for its batch: the rest of its round is checked with
   * it, so a round that would cross a limit is never submitted. It is not in flight (nothing to wait
   * for) and not a call of the spend (`summary` leaves it out): the invocation stops without its answer.
   */
  hold(r: Reservation): void {
    if (r.settled) return;
    this.held += 1;
    this.inFlight -= 1;
    if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /** Undo a reservation whose request got no answer (it waits in the handoff queue): it was no call. */
  refund(r: Reservation): void {
    if (r.settled) return;
    this.settle(r, { inputTokens: 0, outputTokens: 0, costUsd: 0 });
    this.calls -= 1;
  }

  /**
   * Start from what an earlier part of the same night spent (a handoff night resumed after its mining,
   * which is not re-run): the budget bounds the whole night, however many invocations it took.
   */
  restore(s: SpendSummary): void {
    this.calls = s.calls;
    this.inputTokens = s.input_tokens;
    this.outputTokens = s.output_tokens;
    this.cost = s.cost_usd;
    this.cacheHits = s.cache_hits;
    this.retries = s.retries;
    this.redactions = s.redactions;
    this.invalidReplies = s.invalid_replies;
    this.repairedReplies = s.repaired_replies;
    this.unjudgedAnswers = s.unjudged_answers;
  }

  totalTokens(): number {
    return this.inputTokens + this.outputTokens;
  }

  summary(): SpendSummary {
    return {
      calls: this.calls - this.held,
      input_tokens: this.inputTokens,
      output_tokens: this.outputTokens,
      cost_usd: Math.round(this.cost * 1e6) / 1e6,
      cache_hits: this.cacheHits,
      retries: this.retries,
      redactions: this.redactions,
      invalid_replies: this.invalidReplies,
      repaired_replies: this.repairedReplies,
      unjudged_answers: this.unjudgedAnswers,
      stopped_by: this.stoppedBy,
      limits: {
        max_calls: this.limits.maxCalls,
        max_tokens: this.limits.maxTokens,
        max_cost_usd: this.limits.maxCostUsd,
      },
    };
  }

  private stop(limit: string): never {
    this.stoppedBy = limit;
    throw this.exhausted(limit);
  }

  private exhausted(limit: string): BudgetExhaustedError {
    return new BudgetExhaustedError(
      `the budget is spent (${limit}: ${this.calls} calls, ${this.totalTokens()} tokens, $${this.cost.toFixed(4)} so far)`,
      limit,
    );
  }
}
