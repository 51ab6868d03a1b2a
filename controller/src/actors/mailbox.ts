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
/**
 * Time slices: the work of every mailbox shares the event loop's turn. Once the work started in
 * one turn has taken SLICE_MS, a mailbox starts its next background item (postBatch, or post
 * with `background`: agents' reports, reconciles) only in a later turn, after the event loop has
 * read the sockets, so that thousands of actors woken by one store commit do not hold an API
 * request for hundreds of milliseconds. Other items (an API request's change) start at once, as
 * before. An item once started runs to its end.
 */
export const SLICE_MS = 10;
let sliceStart = 0;
let sliceOpen = false;

function closeSlice(): void {
  sliceOpen = false;
}

/** True when the work of this turn of the event loop has run for SLICE_MS already. */
function sliceSpent(): boolean {
  const now = performance.now();
  if (!sliceOpen) {
    sliceOpen = true;
    sliceStart = now;
    // Runs in the next check phase: the slice of the next turn starts afresh.
    setImmediate(closeSlice);
    return false;
  }
  return now - sliceStart >= SLICE_MS;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class MailboxClosedError extends Error {
  override readonly name = 'MailboxClosedError';
}

interface Item {
  work: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
  /** Waits for a time slice (see SLICE_MS). */
  background: boolean;
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

  /** `background`: work nobody waits on to answer a request, which waits for a time slice (SLICE_MS). */
  post<T>(work: () => Promise<T>, background = false): Promise<T> {
    if (this.#closing) return Promise.reject(new MailboxClosedError('mailbox is closed'));
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (v: unknown) => void, reject, background });
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
        background: true,
        batch,
      });
      if (!this.#running) void this.#drain();
    });
  }

  /** Refuses new work and resolves once everything posted before has settled. */
  close(): Promise<void> {
    if (!this.#closing) {
      this.#closing = new Promise<void>((resolve) => {
        this.#queue.push({ work: async () => undefined, resolve: () => resolve(), reject: () => resolve(), background: false });
        if (!this.#running) void this.#drain();
      });
    }
    return this.#closing;
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      for (;;) {
        // Left in the queue while it waits for a turn: reports may still join its batch.
        while (this.#queue[0]?.background && sliceSpent()) await nextTurn();
        const item = this.#queue.shift();
        if (!item) break;
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
