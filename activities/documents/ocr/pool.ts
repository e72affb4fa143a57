// Concurrency limits for page work: per call (mapLimited) and per process (PageSlots).

/**
 * Runs async jobs at most `limit` at a time, keeping results in input order. After a failure no
 * new job starts, and the call rejects with the first error once the running ones have settled,
 * so that the caller may clean up what they were using.
 */
export async function mapLimited<T, R>(items: readonly T[], limit: number, job: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (!failure && next < items.length) {
      const i = next++;
      try {
        results[i] = await job(items[i]!, i);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
  return results;
}

/**
 * A worker-wide limit on pages read at once (OCR_CONCURRENCY), shared by every document the
 * worker reads: eight one-page scans arriving together would otherwise run eight tesseracts on
 * two cores, each slower than two at a time and all finishing last. Waiters are served in
 * arrival order; a document asks for at most `size` slots at a time (mapLimited), so one long
 * document does not queue all its pages ahead of a short one arriving after it.
 */
export class PageSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {
    this.free = size;
  }

  async run<R>(job: () => Promise<R>): Promise<R> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await job();
    } finally {
      // The slot passes straight to the next waiter, so it cannot be taken out of turn.
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}

/** Each item's job in one of `slots`, a document's share at most all of them at once. */
export function mapInSlots<T, R>(items: readonly T[], slots: PageSlots, job: (item: T, index: number) => Promise<R>): Promise<R[]> {
  return mapLimited(items, slots.size, (item, index) => slots.run(() => job(item, index)));
}
