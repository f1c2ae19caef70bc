/** At most `workers` model requests in flight at once; the rest wait their turn in order. */
export class Limiter {
  private active = 0;
  private readonly queue: Array<() => void> = [];

  readonly workers: number;
  constructor(workers: number) {
    this.workers = workers;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= Math.max(1, this.workers)) {
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
