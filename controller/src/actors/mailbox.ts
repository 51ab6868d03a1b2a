/**
 * A mailbox runs the work given to it one item at a time, in the order given.
 *
 *   post(work) ──▶ [ queue ] ──▶ running ──▶ settled (the caller's promise)
 *                                   │
 *   close() ───────────────────────▶ queued behind earlier work; later posts are refused
 *
 * Contract: work never overlaps, and each item starts only after the previous
 * one settled, so an actor's state changes one message at a time. A failing item
 * rejects its own promise and does not disturb the items after it.
 */
export class MailboxClosedError extends Error {
  override readonly name = 'MailboxClosedError';
}

interface Item {
  work: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

export class Mailbox {
  readonly #queue: Item[] = [];
  #running = false;
  #closing: Promise<void> | undefined;

  /** Items waiting plus the one running. */
  get depth(): number {
    return this.#queue.length + (this.#running ? 1 : 0);
  }

  get closed(): boolean {
    return this.#closing !== undefined;
  }

  post<T>(work: () => Promise<T>): Promise<T> {
    if (this.#closing) return Promise.reject(new MailboxClosedError('mailbox is closed'));
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (v: unknown) => void, reject });
      if (!this.#running) void this.#drain();
    });
  }

  /** Refuses new work and resolves once everything posted before has settled. */
  close(): Promise<void> {
    if (!this.#closing) {
      this.#closing = new Promise<void>((resolve) => {
        this.#queue.push({ work: async () => undefined, resolve: () => resolve(), reject: () => resolve() });
        if (!this.#running) void this.#drain();
      });
    }
    return this.#closing;
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      for (let item = this.#queue.shift(); item; item = this.#queue.shift()) {
        try {
          item.resolve(await item.work());
        } catch (err) {
          item.reject(err);
        }
      }
    } finally {
      this.#running = false;
    }
  }
}
