/**
 * The controller's state in etcd, for clusters that run several controllers (the etcd3 client,
 * the one Node.js client of etcd's v3 API that is kept up; it speaks gRPC through grpc-js).
 *
 * Layout: every key of the Store is one etcd key under `prefix` (default `/platform/`), its
 * value the same UTF-8 text. etcd orders keys by their bytes, as RocksDB does, so ranges and
 * limits are etcd's own range reads (reverse order too, paged as iterate() says); an iteration
 * reads pages at the revision of its first page, one consistent snapshot however long it takes
 * (until etcd compacts that revision: then the iteration fails and says so).
 *
 * A batch is one etcd transaction: all or nothing, acknowledged once etcd has it on a quorum's
 * disks. etcd bounds a transaction (its `--max-txn-ops`, 128 by default) and a request
 * (`--max-request-bytes`, 1.5 MiB by default): a batch past either is refused here, before it
 * is sent, naming the bound (set them as etcd is set: `maxTxnOps`, `maxRequestBytes`).
 * `maxBatchOps` tells callers that write many keys (the audit log's pruning) to cut their
 * batches to fit.
 *
 * A call that fails for a passing reason of etcd's (no answer within `timeoutMs`, no etcd member
 * reachable, etcd without a leader, its own request timeout, too many requests queued) is an
 * `EtcdUnavailableError`: answered 503 with `retry`, saying what etcd said, not 500. Under heavy
 * write load on a busy host (the scale benchmark's placement of 100,000 instances) etcd answered
 * slower than the deadline, and that reached clients as an internal error.
 *
 * Fencing: `guard`, when set, is a comparison every batch is conditioned on (the controller's
 * leadership, see the election): a batch whose guard no longer holds is refused with
 * `FencedError`, and nothing of it is written.
 *
 * A guarded batch whose answer is lost (a passing failure after it may have reached etcd) is
 * not simply refused: etcd may have written it, and the controller's memory must not disagree
 * with etcd. Each guarded batch writes a receipt of its own (`receipts/<lease>/<n>`, on the
 * term's lease) in the same transaction, only if the receipt is not there yet; when its outcome
 * is unknown, the receipt is settled (write-outcome.ts): the batch resolves when etcd has it,
 * is refused (503, retry) when etcd has not and never will, and when neither can be learnt
 * within `resolveMs` the controller is told to stand down (`setGuard`'s `onUnresolved`).
 * Receipts settled a minute ago are deleted in batches of their own; those left go with the
 * term's lease.
 */
import { Etcd3, GRPCResourceExhastedError, isRecoverableError, type IOptions, type IRangeResponse } from 'etcd3';
import { TooLargeError, UnavailableError } from '../errors.js';
import { SystemClock, type Clock } from '../util/clock.js';
import { resolveRange, type BatchOp, type Range, type Store } from './store.js';
import { AmbiguousWriteError, WriteOutcomes, type ReceiptedWrites, type UnresolvedWriteError, type WriteOutcomeOptions } from './write-outcome.js';

export interface EtcdStoreOptions {
  /** host:port of each etcd member. */
  endpoints: readonly string[];
  /** Where the cluster's keys live in etcd. Default `/platform/`. */
  prefix?: string;
  /** etcd's user and password (etcd's own authentication). */
  auth?: { username: string; password: string };
  /** TLS to etcd: the CA that signed its certificate, and a client certificate and key. */
  tls?: { ca?: Buffer; cert?: Buffer; key?: Buffer };
  /** etcd's --max-txn-ops. Default 128, etcd's default. */
  maxTxnOps?: number;
  /** etcd's --max-request-bytes. Default 1.5 MiB, etcd's default. */
  maxRequestBytes?: number;
  /**
   * Entries read per page by iterate() at most. Default 10,000; a page's size is bounded by
   * `pageBytes` too, and a first page (entries of unknown size) is of 1,000 at most.
   */
  pageSize?: number;
  /** Bytes (keys and values) a page of iterate() aims at, from the sizes of the entries read before. Default 2 MiB. */
  pageBytes?: number;
  /** Bound of one call to etcd. Default 10 s (PLATFORM_ETCD_TIMEOUT_MS). */
  timeoutMs?: number;
  /**
   * How long after a guarded batch's outcome became unknown (its answer lost) the controller
   * still tries to learn it before it stands down. Default: `timeoutMs`.
   */
  resolveMs?: number;
  /** Time (injected: tests drive it). */
  clock?: Clock;
}

/** A comparison that every batch must satisfy (etcd's txn compare), on a key of etcd's own. */
export interface Guard {
  key: string;
  /** The key's create revision must be this: it is the same key, not one made again since. */
  createRevision: string;
  /** The lease the key lives on (the term's): the batches' receipts live on it too. */
  lease: string;
}

/** What a term's guarded batches are told of (see setGuard). */
export interface GuardEvents {
  /** A batch's outcome could not be learnt: this controller's memory may disagree with etcd. */
  onUnresolved: (err: UnresolvedWriteError) => void;
  /** Each batch whose answer was lost, before its outcome is sought. */
  onSettling?: WriteOutcomeOptions['onSettling'];
  /** Each batch whose answer was lost, once settled (or not). */
  onAmbiguous?: WriteOutcomeOptions['onAmbiguous'];
}

/** Where the batches' receipts live, under the store's prefix. */
export const RECEIPTS = 'receipts/';
/** How long a receipt is kept after its batch's outcome is known: longer than any attempt of it can still reach etcd. */
const RECEIPT_KEEP_MS = 60_000;
const WRITTEN = 'written';
const VOID = 'void';

type TxnOp = { request_put: { key: Buffer; value: Buffer } } | { request_delete_range: { key: Buffer } };

/** The guard of a term, its receipts, and what settles its batches whose answer was lost. */
interface Fence {
  guard: Guard;
  outcomes: WriteOutcomes<TxnOp[]>;
  next: number;
  /** Receipts whose batch's outcome is known, oldest first, with when it became known. */
  settled: { key: Buffer; at: number }[];
  sweeping: boolean;
}

/**
 * A batch refused because its guard (the writer's leadership) no longer holds: the client is
 * told to try again (503), at the controller that leads now.
 */
export class FencedError extends UnavailableError {
  constructor(message: string) {
    super(message, 1000);
  }
}

/**
 * A batch too large for one etcd transaction: a request whose change does not fit (a job with
 * very many tags) is refused with 413 naming the bound, not answered 500.
 */
export class BatchTooLargeError extends TooLargeError {}

/** etcd did not answer in time or could not take the call now: the same call may succeed later (503, retry). */
export class EtcdUnavailableError extends UnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 1000, options);
  }
}

/** etcd's own answers that say "later" (its rpctypes' ErrTimeout, ErrTooManyRequests, ErrNoLeader, ErrLeaderChanged...). */
const ETCD_TRANSIENT = /etcdserver: (request timed out|too many requests|no leader|leader changed|not capable|server stopped|unhealthy cluster)/;

/** Whether `err`, from the etcd client, is of a passing condition rather than of the call itself. */
export function isTransientEtcdError(err: unknown): err is Error {
  if (!(err instanceof Error)) return false;
  // The client's own view (network and server faults its retries handle), and its circuit
  // breaker, open for 5 s after failures in a row on a member (cockatiel's BrokenCircuitError).
  if (isRecoverableError(err) || (err as { isBrokenCircuitError?: unknown }).isBrokenCircuitError === true) return true;
  return ETCD_TRANSIENT.test(err.message);
}

const DEFAULT_MAX_REQUEST_BYTES = 1.5 * 1024 * 1024;
/** The largest answer taken from etcd, besides one entry of the largest size etcd takes. */
const MAX_RECEIVE_BYTES = 32 * 1024 * 1024;
/** Entries of a page whose entries' size is not known yet (the first of an iteration). */
const FIRST_PAGE = 1000;
/** What a request carries besides the keys and values (its framing); kept out of the bound. */
const REQUEST_OVERHEAD = 4096;

export class EtcdStore implements Store {
  readonly client: Etcd3;
  /** How the client was made: the lease keeper's thread makes its own with them (lease-keeper.ts). */
  readonly clientOptions: IOptions;
  readonly prefix: string;
  readonly maxBatchOps: number;
  readonly #maxRequestBytes: number;
  readonly #pageSize: number;
  readonly #pageBytes: number;
  readonly #timeoutMs: number;
  readonly #resolveMs: number;
  readonly #clock: Clock;
  #fence: Fence | undefined;
  #closed: Promise<void> | undefined;
  /** Batches sent and not answered yet. */
  readonly #pending = new Set<Promise<void>>();

  constructor(o: EtcdStoreOptions) {
    if (o.endpoints.length === 0) throw new Error('etcd store: no endpoints');
    if (o.tls && !o.tls.ca) throw new Error('etcd store: TLS needs the CA that signed etcd\'s certificate');
    const options: IOptions = {
      hosts: o.endpoints.map((e) => `${o.tls ? 'https' : 'http'}://${e}`),
      dialTimeout: o.timeoutMs ?? 10_000,
      // grpc-js refuses an answer over 4 MiB by default (RESOURCE_EXHAUSTED, which the client
      // takes for a failing member: it drops the connection, every call on it with it, and
      // retries). Pages aim at `pageBytes`; this leaves room for one that comes out larger.
      grpcOptions: { 'grpc.max_receive_message_length': MAX_RECEIVE_BYTES + (o.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES) },
      // The client's own fault handling stays: it retries a call on another member after a
      // transient failure, which is safe for batches (a batch written twice writes the same).
      ...(o.auth ? { auth: { username: o.auth.username, password: o.auth.password } } : {}),
      ...(o.tls?.ca ? { credentials: { rootCertificate: o.tls.ca, ...(o.tls.cert && o.tls.key ? { certChain: o.tls.cert, privateKey: o.tls.key } : {}) } } : {}),
    };
    this.clientOptions = options;
    this.client = new Etcd3(options);
    this.prefix = o.prefix ?? '/platform/';
    // One operation of each transaction is the batch's receipt.
    this.maxBatchOps = (o.maxTxnOps ?? 128) - 1;
    this.#maxRequestBytes = o.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
    this.#pageSize = o.pageSize ?? 10_000;
    this.#pageBytes = o.pageBytes ?? 2 * 1024 * 1024;
    this.#timeoutMs = o.timeoutMs ?? 10_000;
    this.#resolveMs = o.resolveMs ?? this.#timeoutMs;
    this.#clock = o.clock ?? new SystemClock();
  }

  /**
   * Conditions every later batch on `guard` (undefined: none), each with a receipt; `events`
   * hears of batches whose answer was lost (see the module's comment).
   */
  setGuard(guard: Guard | undefined, events?: GuardEvents): void {
    if (!guard) {
      this.#fence = undefined;
      return;
    }
    const writes: ReceiptedWrites<TxnOp[]> = {
      send: (ops, receipt, deadline) => this.#send(guard, ops, receipt, deadline),
      settle: (receipt, deadline) => this.#settle(guard, receipt, deadline),
    };
    const outcomes = new WriteOutcomes(writes, {
      clock: this.#clock,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      callTimeoutMs: this.#timeoutMs,
      boundMs: this.#resolveMs,
      onUnresolved: (err) => events?.onUnresolved(err),
      ...(events?.onSettling ? { onSettling: events.onSettling } : {}),
      ...(events?.onAmbiguous ? { onAmbiguous: events.onAmbiguous } : {}),
    });
    this.#fence = { guard, outcomes, next: 0, settled: [], sweeping: false };
  }

  #key(key: string): Buffer {
    return Buffer.from(this.prefix + key, 'utf8');
  }

  #unkey(key: Buffer): string {
    return key.toString('utf8').slice(this.prefix.length);
  }

  async #call<T>(fn: (deadline: Date) => Promise<T>): Promise<T> {
    if (this.#closed) throw new Error('store is closed');
    try {
      return await fn(new Date(Date.now() + this.#timeoutMs));
    } catch (err) {
      if (!isTransientEtcdError(err)) throw err;
      throw new EtcdUnavailableError(`etcd cannot take the request now (${err.message}); try again`, { cause: err });
    }
  }

  async get(key: string): Promise<string | undefined> {
    const r = await this.#call((deadline) => this.client.kv.range({ key: this.#key(key) }, { deadline }));
    return r.kvs[0]?.value.toString('utf8');
  }

  async getMany(keys: readonly string[]): Promise<(string | undefined)[]> {
    if (keys.length === 0) return [];
    // One transaction of reads: one round trip, one revision.
    const out: (string | undefined)[] = [];
    for (let i = 0; i < keys.length; i += this.maxBatchOps) {
      const part = keys.slice(i, i + this.maxBatchOps);
      const r = await this.#call((deadline) =>
        this.client.kv.txn({ compare: [], success: part.map((k) => ({ request_range: { key: this.#key(k) } })), failure: [] }, { deadline }),
      );
      for (const res of r.responses) out.push(res.response_range?.kvs[0]?.value.toString('utf8'));
    }
    return out;
  }

  batch(ops: readonly BatchOp[]): Promise<void> {
    if (ops.length === 0) return Promise.resolve();
    // Tracked from the call on: close() lets it finish.
    const write = this.#batch(ops);
    this.#pending.add(write);
    const done = () => this.#pending.delete(write);
    write.then(done, done);
    return write;
  }

  async #batch(input: readonly BatchOp[]): Promise<void> {
    // etcd refuses a transaction that names a key twice ("duplicate key given in txn request");
    // RocksDB applies a batch's operations in order, so the last one on a key is the one that counts.
    const last = new Map<string, BatchOp>();
    for (const op of input) {
      last.delete(op.key);
      last.set(op.key, op);
    }
    const ops = last.size === input.length ? input : [...last.values()];
    if (ops.length > this.maxBatchOps) {
      throw new BatchTooLargeError(`a batch of ${ops.length} operations: etcd takes at most ${this.maxBatchOps} in one transaction (etcd's --max-txn-ops, PLATFORM_ETCD_MAX_TXN_OPS, less one for the batch's receipt)`);
    }
    let bytes = REQUEST_OVERHEAD;
    const success: TxnOp[] = ops.map((op) => {
      const key = this.#key(op.key);
      if (op.type === 'del') {
        bytes += key.length;
        return { request_delete_range: { key } };
      }
      const value = Buffer.from(op.value, 'utf8');
      bytes += key.length + value.length;
      return { request_put: { key, value } };
    });
    if (bytes > this.#maxRequestBytes) {
      throw new BatchTooLargeError(`a batch of ${bytes} bytes: etcd takes at most ${this.#maxRequestBytes} in one request (etcd's --max-request-bytes, PLATFORM_ETCD_MAX_REQUEST_BYTES)`);
    }
    const fence = this.#fence;
    if (!fence) {
      await this.#call((deadline) => this.client.kv.txn({ compare: [], success, failure: [] }, { deadline }));
      return;
    }
    if (this.#closed) throw new Error('store is closed');
    const receipt = `${fence.guard.lease}/${fence.next++}`;
    await fence.outcomes.write(success, receipt);
    fence.settled.push({ key: this.#receiptKey(fence.guard, receipt), at: this.#clock.nowMs() });
    this.#sweep(fence);
  }

  #receiptKey(guard: Guard, receipt: string): Buffer {
    return this.#key(`${RECEIPTS}${receipt}`);
  }

  #guardCompare(guard: Guard) {
    return { key: Buffer.from(guard.key, 'utf8'), target: 'Create' as const, result: 'Equal' as const, create_revision: guard.createRevision };
  }

  /** A lost answer of a call that may have reached etcd; any other error as #call has it. */
  #ambiguous(err: unknown): unknown {
    if (!isTransientEtcdError(err)) return err;
    return new AmbiguousWriteError(`etcd did not answer a write (${err.message})`, { cause: err });
  }

  /** One transaction: the batch and its receipt, if the guard holds and the receipt is not there yet. */
  async #send(guard: Guard, success: TxnOp[], receipt: string, deadline: number): Promise<void> {
    const key = this.#receiptKey(guard, receipt);
    let r;
    try {
      r = await this.client.kv.txn(
        {
          compare: [this.#guardCompare(guard), { key, target: 'Create', result: 'Equal', create_revision: '0' }],
          success: [...success, { request_put: { key, value: Buffer.from(WRITTEN), lease: guard.lease } }],
          failure: [{ request_range: { key } }],
        },
        { deadline: new Date(deadline) },
      );
    } catch (err) {
      throw this.#ambiguous(err);
    }
    if (r.succeeded) return;
    // The receipt is there: an earlier attempt of this transaction (the client's own retry) wrote it.
    if (r.responses[0]?.response_range?.kvs[0]?.value.toString('utf8') === WRITTEN) return;
    throw new FencedError(`this controller is no longer the active one (${guard.key} changed): the batch was not written`);
  }

  /** Reads the receipt, or takes it when it is absent: then no attempt of the batch can land any more. */
  async #settle(guard: Guard, receipt: string, deadline: number): Promise<'written' | 'void'> {
    const key = this.#receiptKey(guard, receipt);
    let r;
    try {
      r = await this.client.kv.txn(
        {
          compare: [this.#guardCompare(guard), { key, target: 'Create', result: 'Equal', create_revision: '0' }],
          success: [{ request_put: { key, value: Buffer.from(VOID), lease: guard.lease } }],
          failure: [{ request_range: { key } }],
        },
        { deadline: new Date(deadline) },
      );
    } catch (err) {
      throw this.#ambiguous(err);
    }
    if (r.succeeded) return 'void';
    const value = r.responses[0]?.response_range?.kvs[0]?.value.toString('utf8');
    if (value === WRITTEN) return 'written';
    if (value === VOID) return 'void'; // taken by an earlier try whose answer was lost
    // The guard's key is gone, and the receipts with its lease: what was written cannot be learnt.
    throw new FencedError(`this controller is no longer the active one (${guard.key} changed): whether the batch was written cannot be learnt`);
  }

  /** Deletes receipts whose batch's outcome has been known for a while, in batches of their own (one at a time). */
  #sweep(fence: Fence): void {
    const due = this.#clock.nowMs() - RECEIPT_KEEP_MS;
    if (fence.sweeping || this.#closed || fence !== this.#fence || !(fence.settled[0] && fence.settled[0].at <= due)) return;
    let n = 0;
    while (n < fence.settled.length && n < this.maxBatchOps && fence.settled[n]!.at <= due) n++;
    const keys = fence.settled.splice(0, n);
    fence.sweeping = true;
    const sweep = this.#call((deadline) =>
      this.client.kv.txn({ compare: [this.#guardCompare(fence.guard)], success: keys.map(({ key }) => ({ request_delete_range: { key } })), failure: [] }, { deadline }),
    ).then(
      () => undefined,
      () => undefined, // left to the term's lease
    );
    this.#pending.add(sweep);
    void sweep.finally(() => {
      this.#pending.delete(sweep);
      fence.sweeping = false;
    });
  }

  async *iterate(range: Range): AsyncIterable<[string, string]> {
    const r = resolveRange(range);
    // Lower and upper bounds as etcd's half-open [key, range_end).
    const from = r.gt !== undefined ? `${r.gt}\0` : (r.gte ?? '');
    const to: string | undefined = r.lte !== undefined ? `${r.lte}\0` : r.lt;
    const limit = r.limit ?? Infinity;
    if (limit <= 0) return;
    yield* r.reverse ? this.#descending(from, to, limit) : this.#ascending(from, to, limit);
  }

  #rangeEnd(to: string | undefined): Buffer {
    return to === undefined ? prefixEndOf(this.prefix) : this.#key(to);
  }

  /**
   * Pages in key order: each one reads only its own entries (`limit` with etcd's natural order).
   * The next page is asked for as soon as a page arrives, before its entries are handed out: etcd
   * reads it while the caller works through this one (one after the other, a term's load
   * waited on etcd for half its time). A page's size follows the bytes of the entries read so
   * far: about `pageBytes`, at most `pageSize` entries.
   */
  async *#ascending(from: string, to: string | undefined, left: number, revision?: string): AsyncIterable<[string, string]> {
    let entries = 0;
    let bytes = 0;
    let next: Promise<IRangeResponse> | undefined = this.#page(from, to, Math.min(left, this.#pageSize, FIRST_PAGE), revision);
    while (next) {
      const res: IRangeResponse = await next;
      next = undefined;
      revision ??= res.header.revision;
      left -= res.kvs.length;
      const last = res.kvs[res.kvs.length - 1];
      if (left > 0 && res.more && last) {
        for (const kv of res.kvs) bytes += kv.key.length + kv.value.length;
        entries += res.kvs.length;
        const want = Math.min(left, this.#pageSize, Math.max(1, Math.floor((this.#pageBytes * entries) / bytes)));
        // The next page starts after the last key of this one.
        next = this.#page(`${this.#unkey(last.key)}\0`, to, want, revision);
        // Its failure is the iteration's when it is reached; not one of its own if the caller stops first.
        next.catch(() => undefined);
      }
      for (const kv of res.kvs) yield [this.#unkey(kv.key), kv.value.toString('utf8')];
    }
  }

  /** One page of [from, to): an answer too large to take is asked again in halves. */
  async #page(from: string, to: string | undefined, limit: number, revision: string | undefined): Promise<IRangeResponse> {
    for (;;) {
      try {
        return await this.#call((deadline) =>
          this.client.kv.range({ key: this.#key(from), range_end: this.#rangeEnd(to), limit: String(limit), ...(revision ? { revision } : {}) }, { deadline }),
        );
      } catch (err) {
        if (limit > 1 && err instanceof EtcdUnavailableError && err.cause instanceof GRPCResourceExhastedError) {
          limit = Math.ceil(limit / 2);
          continue;
        }
        throw err;
      }
    }
  }

  /**
   * Pages in reverse key order. etcd sorts a descending read itself, and to sort it reads every
   * key of the range whatever the limit (3.4 and 3.5 alike): paging that way read the whole
   * rest of the range for each page, quadratic in its size. So one descending read gives the
   * first page (what callers that want the last few entries need: the range read once); for
   * the rest, ascending reads of keys alone find where each page starts, and the pages are
   * read in ascending order from the last one back and handed out backwards: each entry is
   * read about three times in all, and every read is at the first page's revision.
   */
  async *#descending(from: string, to: string | undefined, left: number): AsyncIterable<[string, string]> {
    const first = await this.#call((deadline) =>
      this.client.kv.range(
        { key: this.#key(from), range_end: this.#rangeEnd(to), limit: String(Math.min(left, this.#pageSize, FIRST_PAGE)), sort_order: 'Descend', sort_target: 'Key' },
        { deadline },
      ),
    );
    const revision = first.header.revision;
    for (const kv of first.kvs) yield [this.#unkey(kv.key), kv.value.toString('utf8')];
    left -= first.kvs.length;
    if (left <= 0 || !first.more || first.kvs.length === 0) return;
    // What is left: [from, the first page's smallest key).
    const end = this.#unkey(first.kvs[first.kvs.length - 1]!.key);
    const starts: string[] = [];
    for (let cursor = from; ; ) {
      const res = await this.#call((deadline) =>
        this.client.kv.range({ key: this.#key(cursor), range_end: this.#key(end), limit: String(this.#pageSize), keys_only: true, revision }, { deadline }),
      );
      if (res.kvs.length === 0) break;
      starts.push(this.#unkey(res.kvs[0]!.key));
      if (!res.more) break;
      cursor = `${this.#unkey(res.kvs[res.kvs.length - 1]!.key)}\0`;
    }
    for (let i = starts.length - 1; i >= 0; i--) {
      const page: [string, string][] = [];
      for await (const entry of this.#ascending(starts[i]!, starts[i + 1] ?? end, Infinity, revision)) page.push(entry);
      for (let j = page.length - 1; j >= 0; j--) {
        yield page[j]!;
        if (--left <= 0) return;
      }
    }
  }

  async scan(range: Range): Promise<[string, string][]> {
    const out: [string, string][] = [];
    for await (const entry of this.iterate(range)) out.push(entry);
    return out;
  }

  /** Batches already made finish (or fail) first; later calls are refused. */
  close(): Promise<void> {
    this.#closed ??= Promise.allSettled([...this.#pending]).then(() => this.client.close());
    return this.#closed;
  }
}

/** The byte string right after every key that starts with `prefix` (etcd's range_end for a prefix). */
function prefixEndOf(prefix: string): Buffer {
  const end = Buffer.from(prefix, 'utf8');
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]! += 1;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]);
}
