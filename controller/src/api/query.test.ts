import test from 'ava';
import { parse } from 'node:querystring';
import { rawListValues } from './query.js';

test('query: a list parameter is read in every form, in order, and mixed', (t) => {
  t.deepEqual(rawListValues(parse('tag=a,b'), 'tag'), ['a,b']);
  t.deepEqual(rawListValues(parse('tag=a&tag=b'), 'tag'), ['a', 'b']);
  t.deepEqual(rawListValues(parse('tag[]=a&tag[]=b'), 'tag'), ['a', 'b']);
  t.deepEqual(rawListValues(parse('tag%5B%5D=a&tag%5B%5D=b'), 'tag'), ['a', 'b']);
  t.deepEqual(rawListValues(parse('tag[10]=c&tag[2]=b&tag[0]=a'), 'tag'), ['a', 'b', 'c']);
  t.deepEqual(rawListValues(parse('tag=a&tag[]=b&tag[0]=c'), 'tag'), ['a', 'b', 'c']);
  t.deepEqual(rawListValues(parse('tag='), 'tag'), ['']);
  t.deepEqual(rawListValues(parse('tag[]='), 'tag'), ['']);
  t.is(rawListValues(parse('tags=a&xtag[]=b&tag[x]=c'), 'tag'), undefined);
  t.is(rawListValues(parse(''), 'tag'), undefined);
});
