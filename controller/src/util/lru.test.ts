import test from 'ava';
import { LruCache } from './lru.js';

test('lru: forgets the entry not read for longest once over capacity', (t) => {
  const cache = new LruCache<string, number>(4);
  for (const k of ['a', 'b', 'c', 'd']) cache.set(k, k.charCodeAt(0));
  cache.set('e', 1);
  t.is(cache.get('a'), undefined);
  t.is(cache.size, 4);
  t.is(cache.get('b'), 98);
});

test('lru: an entry read between insertions is never the one forgotten', (t) => {
  const cache = new LruCache<number, number>(10);
  cache.set(-1, -1);
  for (let i = 0; i < 1000; i++) {
    t.is(cache.get(-1), -1, `after ${i} insertions`);
    cache.set(i, i);
  }
  t.is(cache.size, 10);
  // The others went in insertion order: the 9 newest are there.
  for (let i = 991; i < 1000; i++) t.is(cache.get(i), i);
  t.is(cache.get(990), undefined);
});

test('lru: an entry read once every half capacity of insertions stays', (t) => {
  const cache = new LruCache<number, number>(10);
  cache.set(-1, -1);
  for (let i = 0; i < 1000; i++) {
    if (i % 5 === 0) t.is(cache.get(-1), -1, `after ${i} insertions`);
    cache.set(i, i);
  }
});

test('lru: without touchOnGet, eviction is by insertion order', (t) => {
  const cache = new LruCache<string, number>(2, false);
  cache.set('a', 1);
  cache.set('b', 2);
  t.is(cache.get('a'), 1);
  cache.set('c', 3);
  t.is(cache.get('a'), undefined);
  t.is(cache.get('b'), 2);
  cache.delete('b');
  t.is(cache.size, 1);
});
