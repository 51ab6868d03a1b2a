/**
 * The controller's state lives behind this interface. RocksDB is the embedded
 * default (`RocksStore`); `MemoryStore` is its in-memory twin for unit tests;
 * etcd (`EtcdStore`) holds the cluster's records when several controllers share them,
 * while each controller keeps its high-volume data (metric series, log lines) in its
 * own RocksDB.
 *
 * Keys and values are strings. Keys sort by their UTF-8 bytes; the key layout
 * is in `keys.ts`.
 */
export type BatchOp = { type: 'put'; key: string; value: string } | { type: 'del'; key: string };

export interface Range {
  /** Only keys that start with this prefix. Combines with the bounds below. */
  prefix?: string;
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
  /** Descending key order. */
  reverse?: boolean;
  /** At most this many entries. */
  limit?: number;
}

export interface Store {
  /** The value under `key`, or undefined. Sees every batch that has resolved. */
  get(key: string): Promise<string | undefined>;

  /** Values for several keys, in the order given. */
  getMany(keys: readonly string[]): Promise<(string | undefined)[]>;

  /**
   * Applies every operation or none. When the promise resolves the batch is in
   * the write-ahead log: it survives the controller being killed (and, with
   * `sync` on, the host losing power). Callers acknowledge a change to a client
   * only after this resolves.
   */
  batch(ops: readonly BatchOp[]): Promise<void>;

  /** Entries in key order within the range, read from one consistent snapshot. */
  iterate(range: Range): AsyncIterable<[key: string, value: string]>;

  /**
   * Every entry of the range at once, in key order, from one consistent snapshot: for bounded
   * ranges read whole (a metric series), where handing out entries one at a time costs more
   * than reading them.
   */
  scan(range: Range): Promise<[key: string, value: string][]>;

  /**
   * The most operations one batch may hold (etcd's transaction bound); undefined: no bound.
   * Callers that write many keys at once (pruning) cut their batches to it.
   */
  readonly maxBatchOps?: number;

  /** Releases the store. Pending batches complete first. */
  close(): Promise<void>;
}

/** The key right after every key that starts with `prefix`. */
export function prefixEnd(prefix: string): string {
  return prefix + '\uffff';
}

/** Turns a Range with a prefix into plain bounds. */
export function resolveRange(range: Range): Omit<Range, 'prefix'> {
  const { prefix, ...rest } = range;
  if (prefix === undefined) return rest;
  const out: Omit<Range, 'prefix'> = { ...rest };
  if (out.gt === undefined && (out.gte === undefined || out.gte < prefix)) out.gte = prefix;
  const end = prefixEnd(prefix);
  if (out.lte === undefined && (out.lt === undefined || out.lt > end)) out.lt = end;
  return out;
}

export async function getJson<T>(store: Store, key: string): Promise<T | undefined> {
  const raw = await store.get(key);
  return raw === undefined ? undefined : (JSON.parse(raw) as T);
}
