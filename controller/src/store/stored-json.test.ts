import test from 'ava';
import { mayHaveMember } from './stored-json.js';

test('stored json: a member is found at any depth, with the value it starts with', (t) => {
  t.true(mayHaveMember(JSON.stringify({ uuid: 'u', state: 'started' }), 'state', '"started"'));
  t.true(mayHaveMember(JSON.stringify({ a: { b: [{ state: 'started' }] } }), 'state', '"started"'));
  t.false(mayHaveMember(JSON.stringify({ state: 'stopped' }), 'state', '"started"'));
  t.false(mayHaveMember(JSON.stringify({ state: 'started-later' }), 'state', '"started"'));
  t.true(mayHaveMember(JSON.stringify({ ports: [{ number: 80, routes: [{ type: 'http', endpoint: 'a.b' }] }] }), 'routes', '[{'));
  t.false(mayHaveMember(JSON.stringify({ ports: [{ number: 80, routes: [] }, { number: 81, routes: [] }] }), 'routes', '[{'));
  t.false(mayHaveMember(JSON.stringify({ ports: [] }), 'routes', '[{'));
});

test('stored json: text inside strings (keys or values) never looks like the member', (t) => {
  // Strings that hold the member's own text, quotes and backslashes around it: JSON.stringify
  // escapes each quote, so none of them is a false "yes" ... nor hides a real member after it.
  const tricky = ['"state":"started"', '\\"state\\":\\"started\\"', '\\', '\\"', 'x\\', '"routes":[{', '{"routes":[{"type":"http"}]}', 'state', '":"'];
  for (const s of tricky) {
    t.false(mayHaveMember(JSON.stringify({ state: 'stopped', tags: { [s]: s }, env: [s, { k: s }] }), 'state', '"started"'), s);
    t.false(mayHaveMember(JSON.stringify({ ports: [{ routes: [] }], tags: { [s]: s } }), 'routes', '[{'), s);
    t.true(mayHaveMember(JSON.stringify({ tags: { [s]: s }, state: 'started' }), 'state', '"started"'), s);
    t.true(mayHaveMember(JSON.stringify({ note: s, ports: [{ routes: [{ endpoint: s }] }] }), 'routes', '[{'), s);
  }
});

test('stored json: never a false no where a parse finds the member (random records)', (t) => {
  // A seeded generator: the same records every run.
  let seed = 12345;
  const rnd = (n: number) => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) % n;
  };
  const atoms = ['state', 'started', 'routes', '"', '\\', ':', '[{', '{', '}', '"started"', 'stopped', ''];
  const str = () => Array.from({ length: rnd(4) }, () => atoms[rnd(atoms.length)]).join('');
  const value = (depth: number): unknown => {
    const k = rnd(depth > 3 ? 3 : 6);
    if (k === 0) return str();
    if (k === 1) return rnd(100);
    if (k === 2) return rnd(2) === 0 ? 'started' : null;
    if (k === 3) return Array.from({ length: rnd(3) }, () => (rnd(2) === 0 ? { routes: value(depth + 1) } : value(depth + 1)));
    const o: Record<string, unknown> = {};
    for (let i = rnd(4); i > 0; i--) o[rnd(2) === 0 ? atoms[rnd(3)]! : str()] = value(depth + 1);
    return o;
  };
  const has = (v: unknown, key: string, test: (x: unknown) => boolean): boolean => {
    if (Array.isArray(v)) return v.some((x) => has(x, key, test));
    if (v && typeof v === 'object') return Object.entries(v).some(([k, x]) => (k === key && test(x)) || has(x, key, test));
    return false;
  };
  let found = 0;
  let foundRoutes = 0;
  for (let n = 0; n < 5_000; n++) {
    const record = value(0);
    const json = JSON.stringify(record);
    const started = has(record, 'state', (x) => x === 'started');
    const routes = has(record, 'routes', (x) => Array.isArray(x) && x.length > 0 && typeof x[0] === 'object' && x[0] !== null && !Array.isArray(x[0]));
    // Never a false "no"; a "yes" without the member (a key ending in `\"routes`) only costs a parse.
    if (started) t.true(mayHaveMember(json, 'state', '"started"'), json);
    if (routes) t.true(mayHaveMember(json, 'routes', '[{'), json);
    if (started) found++;
    if (routes) foundRoutes++;
  }
  t.true(found > 50 && foundRoutes > 50, `the generator makes records with the members (${found}, ${foundRoutes})`);
});
