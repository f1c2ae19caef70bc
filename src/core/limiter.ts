/** The one concurrency limit of the tool: at most `workers` tasks in flight, the rest wait their turn in order. */
export class Limiter {
  private active = 0;
  private readonly queue: Array<() => void> = [];

  /** At least 1: a zero, negative or non-numeric setting still lets work through one at a time. */
  readonly workers: number;
  constructor(workers: number) {
    this.workers = Math.max(1, Math.floor(workers) || 1);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.workers) {
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else {
      this.active += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.queue.shift();
      // The slot passes straight to the next waiter, so `active` stays the same.
      if (next) next();
      else this.active -= 1;
    }
  }
}
