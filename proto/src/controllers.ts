/**
 * The controllers an agent or a standalone router may dial: those it was given
 * (`--controller a:7070,b:7070`, the controllers of one cluster on etcd), and the active one that
 * a standby named when it refused a call (the trailer `platform-active-controller` of an
 * UNAVAILABLE answer). One is dialed at a time: the named one once named, the next of the list
 * when the one dialed cannot be reached. One gRPC client per address, kept (its channel
 * reconnects by itself).
 */
import * as grpc from '@grpc/grpc-js';

/** The trailer of a standby's refusal that names the active controller's agents' address. */
export const ACTIVE_CONTROLLER_METADATA = 'platform-active-controller';

const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/;

/** The active controller's address named by a standby's refusal, if `err` is one. */
export function activeControllerOf(err: unknown): string | undefined {
  const e = err as { code?: number; metadata?: grpc.Metadata } | undefined;
  if (e?.code !== grpc.status.UNAVAILABLE || !(e.metadata instanceof grpc.Metadata)) return undefined;
  const [value] = e.metadata.get(ACTIVE_CONTROLLER_METADATA);
  const address = typeof value === 'string' ? value : value?.toString('utf8');
  return address && HOST_PORT.test(address) ? address : undefined;
}

/** `a:1,b:2` as addresses (blanks around commas dropped). */
export function controllerList(text: string): string[] {
  return text.split(',').map((a) => a.trim()).filter(Boolean);
}

export class ControllerAddresses<C extends { close(): void }> {
  readonly #configured: readonly string[];
  #named: string | undefined;
  #index = 0;
  readonly #clients = new Map<string, C>();

  constructor(
    configured: readonly string[],
    private readonly make: (address: string) => C,
  ) {
    if (configured.length === 0) throw new Error('no controller address');
    this.#configured = [...configured];
  }

  /** The address dialed now. */
  get address(): string {
    return this.#named ?? this.#configured[this.#index]!;
  }

  get configured(): readonly string[] {
    return this.#configured;
  }

  /** The client of the address dialed now. */
  client(): C {
    const address = this.address;
    let client = this.#clients.get(address);
    if (!client) {
      client = this.make(address);
      this.#clients.set(address, client);
    }
    return client;
  }

  /** A standby named the active controller: it is dialed next. */
  redirect(address: string): void {
    this.#named = address;
  }

  /** The address dialed could not be reached (or ended the stream): the next one is dialed. */
  failed(): void {
    if (this.#named !== undefined) {
      // The named one is gone too (a takeover under way): back to the list, where it was.
      this.#named = undefined;
      return;
    }
    this.#index = (this.#index + 1) % this.#configured.length;
  }

  close(): void {
    for (const client of this.#clients.values()) client.close();
    this.#clients.clear();
  }
}
