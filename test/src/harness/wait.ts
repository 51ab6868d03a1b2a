/** Waiting for conditions with deadlines: tests never sleep for a fixed time. */
export class DeadlineError extends Error {
  override readonly name = 'DeadlineError';
}

export interface EventuallyOptions {
  timeoutMs?: number;
  intervalMs?: number;
  what?: string;
}

/** Calls `probe` until it returns a value other than undefined/false, or the deadline passes. */
export async function eventually<T>(probe: () => Promise<T | undefined | false> | T | undefined | false, o: EventuallyOptions = {}): Promise<T> {
  const deadline = Date.now() + (o.timeoutMs ?? 15_000);
  let interval = o.intervalMs ?? 20;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      throw new DeadlineError(`timed out waiting for ${o.what ?? 'a condition'}`, { cause: lastError });
    }
    await new Promise((r) => setTimeout(r, interval));
    interval = Math.min(interval * 1.5, 250);
  }
}
