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

/** Orders keys as the stores do: by their UTF-8 bytes, which is the order of their code points. */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * The smallest key after every key that starts with `prefix` (undefined: there is none, every
 * key from the prefix on starts with it). The prefix's last code point is raised by one, as
 * etcd raises a prefix's last byte: `prefix + '\uffff'` was not it, since a character past the
 * Basic Multilingual Plane (U+10000 and up, 4 bytes in UTF-8) sorts after U+FFFF.
 */
export function prefixEnd(prefix: string): string | undefined {
  const points = [...prefix];
  while (points.length > 0) {
    const last = points.pop()!.codePointAt(0)!;
    if (last >= 0x10ffff) continue;
    // Surrogates are no characters: the one after U+D7FF is U+E000.
    const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
    return points.join('') + String.fromCodePoint(next);
  }
  return undefined;
}

/** Turns a Range with a prefix into plain bounds. */
export function resolveRange(range: Range): Omit<Range, 'prefix'> {
  const { prefix, ...rest } = range;
  if (prefix === undefined) return rest;
  const out: Omit<Range, 'prefix'> = { ...rest };
  // A bound outside the prefix gives way to the prefix's own.
  if (out.gt !== undefined && compareKeys(out.gt, prefix) < 0) delete out.gt;
  if (out.gt === undefined && (out.gte === undefined || compareKeys(out.gte, prefix) < 0)) out.gte = prefix;
  const end = prefixEnd(prefix);
  if (end === undefined) return out;
  if (out.lte !== undefined && compareKeys(out.lte, end) >= 0) delete out.lte;
  if (out.lte === undefined && (out.lt === undefined || compareKeys(out.lt, end) > 0)) out.lt = end;
  return out;
}

export async function getJson<T>(store: Store, key: string): Promise<T | undefined> {
  const raw = await store.get(key);
  return raw === undefined ? undefined : (JSON.parse(raw) as T);
}
