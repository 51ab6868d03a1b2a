/**
 * What a leading controller does with a write whose outcome it does not know: etcd took the
 * request (or may have) but the answer was lost (the call's deadline passed, the connection
 * broke, etcd's leader changed under it). etcd may have committed it, or not, or may still.
 * Applying it to the controller's memory (its actors and tables) could show what etcd never
 * holds; leaving it out could hide what etcd holds (a client retrying would meet "already
 * exists" for a job the controller does not run). Neither is allowed: the outcome is settled.
 *
 * Every write of a term carries a receipt: a key of its own, written in the same transaction
 * and only if it does not exist yet (so a write sent twice, by etcd's client retrying it on
 * another member, lands once). When the outcome is unknown, the controller settles the receipt:
 * in one transaction it reads it, or, when it is absent, takes it ("void"), so that no attempt
 * of the write still under way in etcd can land any more. Then it knows: the write landed (the
 * caller goes on as after any write, and the client is answered) or it never will (503 with
 * retry; nothing changed). Settling is tried again until it succeeds or `boundMs` has passed
 * since the outcome became unknown: a passing trouble of etcd (its leader changed) costs a
 * delay, not the lead. Past the bound the outcome stays unknown: the write is answered 503,
 * every later write of the term is refused, and `onUnresolved` is told, so that the controller
 * stops serving from its memory and gives up the lead (it loads the state from etcd when it
 * leads again).
 */
import { UnavailableError } from '../errors.js';
import type { Clock } from '../util/clock.js';

/** The outcome of a write is unknown: it may be in the store, or not, or land later. */
export class AmbiguousWriteError extends Error {
  override readonly name = 'AmbiguousWriteError';
}

/**
 * The outcome of a write could not be learnt within the bound: the client is told to try again
 * (503); the controller that wrote it stops serving from its memory.
 */
export class UnresolvedWriteError extends UnavailableError {}

/** Writes with receipts (the etcd store's transactions; a fake in unit tests). */
export interface ReceiptedWrites<W> {
  /**
   * Sends `write` with receipt `receipt`; resolves once it is in the store (written now, or
   * by an earlier attempt of the same write). Throws AmbiguousWriteError when the outcome is
   * unknown; any other error says that it was not written.
   */
  send(write: W, receipt: string, deadline: number): Promise<void>;
  /**
   * 'written' when the write holds its receipt; 'void' once it never will (the receipt is
   * taken in its stead). Throws when the store could not answer.
   */
  settle(receipt: string, deadline: number): Promise<'written' | 'void'>;
}

export interface WriteOutcomeOptions {
  clock: Clock;
  /** Waits `ms` between two tries to settle. */
  sleep: (ms: number) => Promise<void>;
  /** Bound of one call to the store. */
  callTimeoutMs: number;
  /** How long after the outcome became unknown it may still be learnt. */
  boundMs: number;
  /** Wait between two tries to settle. Default 200 ms. */
  retryMs?: number;
  /** Told once, when an outcome is not learnt within the bound. */
  onUnresolved: (err: UnresolvedWriteError) => void;
  /** Told of each write whose answer was lost, before its outcome is sought. */
  onSettling?: (event: { receipt: string; cause: Error }) => void;
  /** Told of each write whose outcome is unknown, once it is known (or not). */
  onAmbiguous?: (event: { receipt: string; outcome: 'written' | 'void' | 'unknown'; tries: number; ms: number; cause: Error }) => void;
}

/**
 * Sends writes with receipts, and settles those whose outcome is unknown (see the module's
 * comment). One per term: once an outcome stays unknown, it refuses every later write.
 */
export class WriteOutcomes<W> {
  #unresolved: UnresolvedWriteError | undefined;

  constructor(
    private readonly writes: ReceiptedWrites<W>,
    private readonly o: WriteOutcomeOptions,
  ) {}

  /** The write whose outcome stayed unknown, once one did. */
  get unresolved(): UnresolvedWriteError | undefined {
    return this.#unresolved;
  }

  /** Resolves once `write` is in the store; throws when it is not and never will be (or its outcome stays unknown: UnresolvedWriteError). */
  async write(write: W, receipt: string): Promise<void> {
    if (this.#unresolved) throw this.#refused();
    try {
      await this.writes.send(write, receipt, this.o.clock.nowMs() + this.o.callTimeoutMs);
      return;
    } catch (err) {
      if (!(err instanceof AmbiguousWriteError)) throw err;
      await this.#settle(receipt, err);
    }
  }

  #refused(): UnresolvedWriteError {
    return new UnresolvedWriteError(`this controller no longer writes: the outcome of an earlier write is unknown (${this.#unresolved!.message}); it stands down and loads the state from etcd again`, 1000);
  }

  async #settle(receipt: string, cause: AmbiguousWriteError): Promise<void> {
    const { clock } = this.o;
    const start = clock.nowMs();
    const end = start + this.o.boundMs;
    this.o.onSettling?.({ receipt, cause });
    let tries = 0;
    let last: unknown = cause;
    while (clock.nowMs() < end && !this.#unresolved) {
      tries++;
      let outcome: 'written' | 'void' | undefined;
      try {
        outcome = await this.writes.settle(receipt, Math.min(end, clock.nowMs() + this.o.callTimeoutMs));
      } catch (err) {
        last = err;
      }
      if (outcome) {
        this.o.onAmbiguous?.({ receipt, outcome, tries, ms: clock.nowMs() - start, cause });
        if (outcome === 'written') return;
        throw new UnavailableError(`etcd did not answer the write in time, and it was not written (${cause.message}); try again`, 1000, { cause });
      }
      if (clock.nowMs() >= end) break;
      await this.o.sleep(this.o.retryMs ?? 200);
    }
    if (this.#unresolved) throw this.#refused();
    const why = last instanceof Error ? last.message : String(last);
    const err = new UnresolvedWriteError(
      `etcd did not answer a write, and whether it was written could not be learnt within ${this.o.boundMs} ms (${why}); try again: this controller stands down and loads the state from etcd again`,
      1000,
      { cause: last },
    );
    this.#unresolved = err;
    this.o.onAmbiguous?.({ receipt, outcome: 'unknown', tries, ms: clock.nowMs() - start, cause });
    this.o.onUnresolved(err);
    throw err;
  }
}
