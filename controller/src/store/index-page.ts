/**
 * Paging over a secondary index whose values are entity ids and whose key
 * order is the listing's order (the FQN indexes: `idx/job-fqn/<fqn>` sorts as
 * the FQNs do). A listing reads the index in order, loads the records a batch
 * at a time, keeps those the filter accepts, and stops once the page is full:
 * it costs the entries up to the end of the page, not the whole index.
 */
import type { Range, Store } from './store.js';

export interface IndexPage<R> {
  /** The index range to read, in listing order. */
  range: Range;
  /** The records of `ids` that exist, in the order given (a read cache may answer first). */
  load: (ids: readonly string[]) => Promise<R[]>;
  /** Which records belong in the listing (filters and policy). */
  accept: (record: R) => boolean;
  /**
   * Which index keys may belong in the listing, decided without the record (the
   * FQN is in the key); with `keyDecides`, it decides alone, so that entries
   * before the page are passed over without loading their records.
   */
  acceptKey?: (key: string) => boolean;
  keyDecides?: boolean;
  /** Accepted records to pass over before the page (`(page - 1) * count`). */
  skip: number;
  /** The page size; undefined: every accepted record. */
  take?: number;
  /** Ids read from the index per load. Default 256. */
  batchSize?: number;
}

/** The records of one page of an index listing, in index order. */
export async function readIndexPage<R>(store: Store, o: IndexPage<R>): Promise<R[]> {
  const batchSize = o.batchSize ?? 256;
  const out: R[] = [];
  let skip = o.skip;
  let ids: string[] = [];
  const drain = async (): Promise<boolean> => {
    const records = await o.load(ids);
    ids = [];
    for (const record of records) {
      if (!o.accept(record)) continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      out.push(record);
      if (o.take !== undefined && out.length >= o.take) return true;
    }
    return false;
  };
  // Small first batches: a first page of 20 should not load 256 records.
  let want = o.take === undefined ? batchSize : Math.min(batchSize, Math.max(16, o.skip + o.take));
  for await (const [key, id] of store.iterate(o.range)) {
    if (o.acceptKey && !o.acceptKey(key)) continue;
    if (o.keyDecides && skip > 0) {
      skip--;
      continue;
    }
    ids.push(id);
    if (ids.length >= want) {
      if (await drain()) return out;
      want = batchSize;
    }
  }
  if (ids.length > 0) await drain();
  return out;
}
