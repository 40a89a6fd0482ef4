// How many raw message bytes this process works on at once. Parsing a message costs several times
// its size (its parts decoded, its text, its rows), so lanes share a budget: small messages run side
// by side, and a message bigger than what is left waits for the lanes to finish theirs, then runs
// alone. One process's peak memory then tracks its biggest message, not the sum of several.
// First come, first served: a big message is not starved by a stream of small ones.
export class MemoryBudget {
  private inFlight = 0;
  private queue: { size: number; start: () => void }[] = [];

  constructor(readonly bytes: number) {}

  private fits(size: number): boolean {
    return this.inFlight === 0 || this.inFlight + size <= this.bytes;
  }

  /** Resolves once `size` fits beside what is in flight (at once when nothing is) and it is its turn. */
  acquire(size: number): Promise<void> {
    if (this.queue.length === 0 && this.fits(size)) {
      this.inFlight += size;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.queue.push({ size, start: resolve }));
  }

  release(size: number): void {
    this.inFlight -= size;
    while (this.queue.length > 0 && this.fits(this.queue[0]!.size)) {
      const next = this.queue.shift()!;
      this.inFlight += next.size;
      next.start();
    }
  }
}

/** 16 MB of raw mail at once: four lanes of ordinary mail, or one month-end extract alone. */
export const defaultBudget = () => new MemoryBudget(16 * 1024 * 1024);
