/**
 * Server-Sent Events over fetch, for the logs' live tails (GET /jobs/{uuid}/logs?tail and
 * /packages/{uuid}/logs?tail). EventSource cannot send the Authorization header the API asks
 * for, so the stream is read here: events are parsed as the SSE format says, and a dropped
 * connection is opened again with `Last-Event-ID` (the last id received), after a pause that
 * grows to 10 s, so that no line is missed or shown twice.
 */

export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/** Splits a stream's text into events; keeps what is incomplete for the next chunk. */
export class SseParser {
  #buffer = '';
  #data: string[] = [];
  #event = '';
  #id: string | undefined;

  push(text: string): SseEvent[] {
    this.#buffer += text;
    const events: SseEvent[] = [];
    let nl: number;
    while ((nl = this.#buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.#buffer.slice(0, nl);
      const sep = this.#buffer[nl] === '\r' && this.#buffer[nl + 1] === '\n' ? 2 : 1;
      // A lone \r at the end of the buffer may be the first half of \r\n: wait for more.
      if (this.#buffer[nl] === '\r' && nl + 1 === this.#buffer.length) break;
      this.#buffer = this.#buffer.slice(nl + sep);
      if (line === '') {
        if (this.#data.length > 0) events.push({ ...(this.#id === undefined ? {} : { id: this.#id }), event: this.#event || 'message', data: this.#data.join('\n') });
        this.#data = [];
        this.#event = '';
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') this.#data.push(value);
      else if (field === 'event') this.#event = value;
      else if (field === 'id' && !value.includes('\0')) this.#id = value;
    }
    return events;
  }
}

export interface StreamOptions {
  /** Opens the stream: the response to read, given the last event id (undefined at first). */
  open: (lastEventId: string | undefined, signal: AbortSignal) => Promise<Response>;
  onEvent: (e: SseEvent) => void;
  /** Told when the connection is up, or down (with the error) and about to be tried again. */
  onStatus?: (status: { connected: boolean; error?: unknown; retryInMs?: number }) => void;
  /** A failure that trying again cannot mend (401, 403, 404): the stream stops. */
  isFatal?: (err: unknown) => boolean;
  signal: AbortSignal;
  /** Pauses between tries: doubled from `minRetryMs` up to `maxRetryMs`. */
  minRetryMs?: number;
  maxRetryMs?: number;
}

/** Reads the stream until `signal` aborts or a fatal error; resolves then (rejects with the fatal error). */
export async function followStream(o: StreamOptions): Promise<void> {
  let lastId: string | undefined;
  let pause = o.minRetryMs ?? 500;
  const maxPause = o.maxRetryMs ?? 10_000;
  while (!o.signal.aborted) {
    try {
      const res = await o.open(lastId, o.signal);
      if (!res.body) throw new Error('the stream has no body');
      o.onStatus?.({ connected: true });
      pause = o.minRetryMs ?? 500;
      const parser = new SseParser();
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          for (const e of parser.push(value)) {
            if (e.id !== undefined) lastId = e.id;
            o.onEvent(e);
          }
        }
      } finally {
        reader.releaseLock();
      }
      // The server ended the stream (a restart, a proxy's timeout): open it again.
      if (o.signal.aborted) return;
      o.onStatus?.({ connected: false, retryInMs: pause });
    } catch (err) {
      if (o.signal.aborted) return;
      if (o.isFatal?.(err)) throw err;
      o.onStatus?.({ connected: false, error: err, retryInMs: pause });
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, pause);
      o.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
    });
    pause = Math.min(maxPause, pause * 2);
  }
}
