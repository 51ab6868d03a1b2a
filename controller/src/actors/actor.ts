import { Mailbox } from './mailbox.js';

/**
 * Base of the entity actors (JobActor, PackageActor). An actor owns one entity:
 * every change to it is a message through `mailbox`, and the actor persists a
 * change before the message settles.
 *
 * `holds` counts long operations that run outside the mailbox but still need the
 * actor to stay in memory (a streaming upload): an actor with holds or queued
 * messages is never passivated.
 */
export abstract class Actor {
  protected readonly mailbox = new Mailbox();
  #holds = 0;
  lastActiveMs: number;

  constructor(
    readonly id: string,
    nowMs: number,
  ) {
    this.lastActiveMs = nowMs;
  }

  get mailboxDepth(): number {
    return this.mailbox.depth;
  }

  get busy(): boolean {
    return this.#holds > 0 || this.mailbox.depth > 0;
  }

  /** Keeps the actor in memory until the returned release function is called. */
  hold(): () => void {
    this.#holds++;
    let released = false;
    return () => {
      if (!released) {
        released = true;
        this.#holds--;
      }
    };
  }

  /** Settles after every message posted before it; later messages are refused. */
  stop(): Promise<void> {
    return this.mailbox.close();
  }

  get stopped(): boolean {
    return this.mailbox.closed;
  }
}
