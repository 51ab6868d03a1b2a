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
 *
 * `postBatch` lets messages of one kind that arrive while the mailbox is busy be handled as one
 * item: a value joins the last queued item when that item is a batch of the same kind that has
 * not started (so the order between kinds is kept), and the batch's work gets every value
 * in arrival order. An agent reports each instance through five states in quick succession:
 * applying the reports that queued up together costs one store write instead of one each.
 */
export class MailboxClosedError extends Error {
  override readonly name = 'MailboxClosedError';
}

interface Item {
  work: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
  /** A batch item (postBatch): its kind, the values it gathers until it starts, and their callers. */
  batch?: { kind: object; values: unknown[]; waiters: { resolve: () => void; reject: (reason: unknown) => void }[] };
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

  /**
   * Adds `value` to the batch of `kind` last in the queue when it has not started, or else
   * queues a new batch whose work is `run` of the values gathered. Resolves when the batch's
   * work has settled (every caller of one batch hears the same outcome).
   */
  postBatch<V>(kind: object, value: V, run: (values: V[]) => Promise<void>): Promise<void> {
    if (this.#closing) return Promise.reject(new MailboxClosedError('mailbox is closed'));
    const last = this.#queue[this.#queue.length - 1];
    return new Promise<void>((resolve, reject) => {
      if (last?.batch?.kind === kind) {
        last.batch.values.push(value);
        last.batch.waiters.push({ resolve, reject });
        return;
      }
      const batch = { kind, values: [value] as unknown[], waiters: [{ resolve, reject }] };
      this.#queue.push({
        work: () => run(batch.values as V[]),
        resolve: () => batch.waiters.forEach((w) => w.resolve()),
        reject: (err) => batch.waiters.forEach((w) => w.reject(err)),
        batch,
      });
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
