/**
 * The one typed wrapper around @nxtedition/rocksdb, which ships no types.
 * Only what the store uses is declared.
 */
import { createRequire } from 'node:module';

export interface RocksIteratorOptions {
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
  reverse?: boolean;
  limit?: number;
}

export interface RocksBatchOp {
  type: 'put' | 'del';
  key: string;
  value?: string;
}

export interface RocksDb {
  open(): Promise<void>;
  close(): Promise<void>;
  getMany(keys: string[]): Promise<(string | undefined)[]>;
  batch(ops: RocksBatchOp[], options?: { sync?: boolean }): Promise<void>;
  iterator(options: RocksIteratorOptions): AsyncIterable<[string, string]> & { close(): Promise<void> };
  getProperty(name: string): string;
}

interface RocksModule {
  RocksLevel: new (location: string, options: { keyEncoding: 'utf8'; valueEncoding: 'utf8' }) => RocksDb;
}

const require = createRequire(import.meta.url);

export function openRocksDb(location: string): RocksDb {
  const mod = require('@nxtedition/rocksdb') as RocksModule;
  return new mod.RocksLevel(location, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
}
