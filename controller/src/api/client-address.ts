/**
 * The client's address on a request a standby controller sent on to the active one.
 *
 * The active controller's TCP peer for such a request is the standby, so what is counted or
 * recorded per client address (wrong passwords, the device flow's limits, refusal records, log
 * lines) would lump together every client of that standby. The standby therefore names the
 * client in the header CLIENT_ADDRESS_HEADER, with a proof that only a controller of the
 * cluster can make: an HMAC-SHA256, keyed with a secret the controllers share through etcd
 * (`meta/client-address-key`), over the address, the request's X-Request-Id and the time it
 * was made:
 *
 *   x-platform-client-address: address=10.1.2.3;at=1764400000000;proof=<base64url>
 *
 * The active controller takes the address only when the proof is right for this request id
 * and was made within PROOF_WINDOW_MS of its own clock (either way: the hosts' clocks differ a
 * little), compared in constant time, and only once: a proof seen before within the window
 * (the same header sent again by whoever could read it on its way) is refused as replayed.
 * Anything else (no key, a malformed value, another address or request id than the proof was
 * made for, a stale or replayed proof) is ignored: the request
 * keeps its TCP peer as its address. The header is removed from the request either way, so
 * nothing after the check reads a client's claim.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** The header a standby names the client's address in, with its proof. */
export const CLIENT_ADDRESS_HEADER = 'x-platform-client-address';

/** How far from the checking controller's clock a proof's time may be (ms), either way. */
export const PROOF_WINDOW_MS = 30_000;

/** Bytes of the shared key. */
export const CLIENT_ADDRESS_KEY_BYTES = 32;

/** Longest header value looked at: an IPv6 address with a zone, the time and the proof fit well within. */
const MAX_VALUE_LENGTH = 256;

/** Separates what the proof covers from any other use of an HMAC under the same key. */
const CONTEXT = 'platform client address v1';

/** Why a header was not taken (for a log line: the request goes on with its TCP peer). */
export type ProofRefusal = 'malformed' | 'forged' | 'stale' | 'replayed';

export type ProofCheck = { address: string } | { refused: ProofRefusal };

export class ClientAddressProof {
  readonly #key: Buffer;
  /**
   * The proofs taken within the window (proof -> its time), oldest first: each is taken once.
   * Only proofs a controller made get here, so its size follows the requests the standbys
   * sent on in one window, not what anyone sends.
   */
  readonly #taken = new Map<string, number>();

  /** `nowMs`: the wall clock (the standby's and the active controller's are compared). */
  constructor(key: Buffer, private readonly nowMs: () => number = Date.now) {
    if (key.length < 16) throw new Error(`the client address key must have at least 16 bytes (it has ${key.length})`);
    this.#key = key;
  }

  /** The header's value naming `address` as the client of the request `requestId`, made now. */
  sign(address: string, requestId: string): string {
    const at = Math.floor(this.nowMs());
    return `address=${address};at=${at};proof=${this.#mac(address, requestId, at).toString('base64url')}`;
  }

  /** The address `value` names, when its proof is right for `requestId` and recent; else why not. */
  check(value: string, requestId: string): ProofCheck {
    if (value.length > MAX_VALUE_LENGTH) return { refused: 'malformed' };
    const fields = new Map<string, string>();
    for (const part of value.split(';')) {
      const eq = part.indexOf('=');
      if (eq <= 0 || fields.has(part.slice(0, eq).trim())) return { refused: 'malformed' };
      fields.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
    }
    const address = fields.get('address');
    const atText = fields.get('at');
    const proofText = fields.get('proof');
    if (fields.size !== 3 || !address || !atText || !proofText || isIP(address) === 0 || !/^\d{1,15}$/.test(atText) || !/^[A-Za-z0-9_-]{43}$/.test(proofText)) {
      return { refused: 'malformed' };
    }
    const at = Number(atText);
    const proof = Buffer.from(proofText, 'base64url');
    // The proof first, in constant time: a stale one is reported only for a proof a controller made.
    if (proof.length !== 32 || !timingSafeEqual(proof, this.#mac(address, requestId, at))) return { refused: 'forged' };
    const now = this.nowMs();
    if (Math.abs(now - at) > PROOF_WINDOW_MS) return { refused: 'stale' };
    // Those past the window would be stale now: forgotten (in the order they were taken).
    for (const [seen, seenAt] of this.#taken) {
      if (now - seenAt <= PROOF_WINDOW_MS) break;
      this.#taken.delete(seen);
    }
    if (this.#taken.has(proofText)) return { refused: 'replayed' };
    this.#taken.set(proofText, at);
    return { address };
  }

  /** How many proofs are remembered as taken (for tests: the window forgets them). */
  get remembered(): number {
    return this.#taken.size;
  }

  #mac(address: string, requestId: string, at: number): Buffer {
    // Newline-separated: none of the three can hold one (an address, a header value, digits).
    return createHmac('sha256', this.#key).update(`${CONTEXT}\n${address}\n${requestId}\n${at}`).digest();
  }
}
