/**
 * A service gateway for the controller's tests, run as a job (plain Node, no dependencies): it
 * speaks the gateway API (three-tier, or two-tier with TIER=2), keeps nothing but what the state
 * headers bring back (so a restart loses nothing), and can be told to misbehave.
 *
 * Control endpoints (on the instance's address; a gateway's public routes are removed):
 *   POST /_mode   {"<operation>": "<behaviour>"}, operation one of create_provider,
 *                 create_service, create_binding, delete_provider, delete_service, delete_binding,
 *                 describe; behaviour: ok, 400, 404, 409, 500, slow (answers after SLOW_MS,
 *                 default 3000), hang (never answers), malformed (a 2xx that is not the API).
 *                 A create makes its object first, then answers (the cluster must delete it
 *                 again): badstate (a state header that is not URL-safe Base64), bigstate (one
 *                 of more than 4 KB), badfields (JSON with the id, "name" a number), noid (JSON
 *                 without "id"), notjson (a text naming the id), madehang (never answers)
 *                 {"close": "now"} stops listening while the process keeps running
 *   GET  /_calls  every call so far: {method, path, states: {provider, service, binding}, body}
 *   GET  /_live   the objects it made and has not deleted: ["binding:<id>", ...] (shared through
 *                 the file LIVE_FILE when set, so that it survives a restart)
 *   GET  /_made   every object it made, in order: ["provider:<id>", ...]
 */
import { tarGz } from './apps.js';

export const GATEWAY_APP = `
const http = require('node:http');
const fs = require('node:fs');
const crypto = require('node:crypto');
const tier = process.env.TIER === '2' ? 2 : 3;
const slowMs = Number(process.env.SLOW_MS || 3000);
const liveFile = process.env.LIVE_FILE || '';
const modes = {};
const calls = [];
const made = [];
let live = new Set();
if (liveFile && fs.existsSync(liveFile)) live = new Set(JSON.parse(fs.readFileSync(liveFile, 'utf8')));
const save = () => { if (liveFile) fs.writeFileSync(liveFile, JSON.stringify([...live])); };
const enc = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
// A state it cannot read (what badstate issued) is kept as such: deletes then go by the id alone.
const dec = (h) => {
  if (!h) return undefined;
  try { return JSON.parse(Buffer.from(h, 'base64url').toString()); } catch { return { undecodable: h }; }
};
const map = {
  '/services': { POST: {} }, '/services/:id': { DELETE: {} },
  '/bindings': { POST: {} }, '/bindings/:id': { DELETE: {} },
};
if (tier === 3) { map['/providers'] = { POST: { params: { url: 'scripted://admin@host' } } }; map['/providers/:id'] = { DELETE: {} }; }
function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body));
}
function misbehave(op, res) {
  const m = modes[op] || 'ok';
  if (['ok', 'slow', 'badstate', 'bigstate', 'badfields', 'noid', 'notjson', 'madehang'].includes(m)) return false;
  if (m === 'hang') return true;
  if (m === 'malformed') { send(res, 200, 'this is not json'); return true; }
  send(res, Number(m), { code: Number(m), message: 'scripted refusal of ' + op, details: { op } });
  return true;
}
function stateHeader(op, value) {
  if (modes[op] === 'badstate') return 'not base64!';
  if (modes[op] === 'bigstate') return enc({ ...value, pad: 'x'.repeat(4000) });
  return enc(value);
}
// The answer to a create whose object is made: as the mode of the operation has it.
function created(res, op, object, headers) {
  const m = modes[op];
  if (m === 'madehang') return;
  if (m === 'notjson') return send(res, 201, 'created ' + object.id);
  if (m === 'noid') { const { id, ...rest } = object; return send(res, 201, { ...rest, ref: id }, headers); }
  if (m === 'badfields') return send(res, 201, { ...object, name: 42 }, headers);
  send(res, 201, object, headers);
}
function make(kind, id) { live.add(kind + ':' + id); made.push(kind + ':' + id); save(); }
const server = http.createServer((req, res) => {
  let text = '';
  req.on('data', (c) => (text += c));
  req.on('end', () => {
    const url = new URL(req.url, 'http://x');
    const states = { provider: dec(req.headers['x-provider-state']), service: dec(req.headers['x-service-state']), binding: dec(req.headers['x-binding-state']) };
    const body = text ? JSON.parse(text) : undefined;
    if (url.pathname === '/_mode') {
      Object.assign(modes, body);
      send(res, 200, modes);
      // "close": stop listening but keep running, so that calls find the port closed (unreachable).
      if (modes.close === 'now') { server.close(); server.closeAllConnections(); }
      return;
    }
    if (url.pathname === '/_calls') return send(res, 200, calls);
    if (url.pathname === '/_live') return send(res, 200, [...live]);
    if (url.pathname === '/_made') return send(res, 200, made);
    calls.push({ method: req.method, path: url.pathname + url.search, states, body });
    const [, kind, id] = url.pathname.split('/');
    const op = (req.method === 'GET' ? 'describe' : (req.method === 'POST' ? 'create_' : 'delete_') + (kind || '').replace(/s$/, ''));
    const run = () => {
      if (misbehave(op, res)) return;
      if (req.method === 'GET' && url.pathname === '/') return send(res, 200, map);
      if (req.method === 'POST' && kind === 'providers') {
        const pid = crypto.randomUUID(); make('provider', pid);
        return created(res, op, { ...body, id: pid }, { 'X-Provider-State': stateHeader(op, { id: pid, url: body.params.url }) });
      }
      if (req.method === 'POST' && kind === 'services') {
        if (tier === 3 && (!states.provider || states.provider.id !== body.provider_id)) return send(res, 400, { code: 400, message: 'unknown provider_id' });
        const sid = crypto.randomUUID(); make('service', sid);
        return created(res, op, { ...body, id: sid, name: body.name || 'svc' }, { 'X-Service-State': stateHeader(op, { id: sid, db: (body.params || {}).db || '0' }) });
      }
      if (req.method === 'POST' && kind === 'bindings') {
        if (!states.service || states.service.id !== body.service_id) return send(res, 404, { code: 404, message: 'unknown service id' });
        const bid = crypto.randomUUID(); make('binding', bid);
        const url = process.env.BINDING_URL || ('scripted://user-' + bid.slice(0, 8) + ':secret@127.0.0.1:0/' + states.service.db);
        return created(res, op, { ...body, id: bid, name: body.name || 'b', url, protocol: { scheme: 'scripted' } }, { 'X-Binding-State': stateHeader(op, { id: bid }) });
      }
      if (req.method === 'DELETE' && kind && id) {
        const key = kind.replace(/s$/, '') + ':' + id;
        const st = states[kind.replace(/s$/, '')];
        if (!st || (!st.undecodable && st.id !== id) || !live.has(key)) return send(res, 404, { code: 404, message: 'unknown ' + key });
        live.delete(key); save();
        return send(res, 200);
      }
      send(res, 404, { code: 404, message: 'no such path' });
    };
    if (modes[op] === 'slow') setTimeout(run, slowMs); else run();
  });
});
server.listen(Number(process.env.PORT), () => console.log('gateway listening on ' + process.env.PORT));
process.on('SIGTERM', () => { server.close(); process.exit(0); });
`;

export function gatewayAppArchive(): Buffer {
  return tarGz({ 'app/gateway.js': GATEWAY_APP });
}

/** A job body that runs the scripted gateway with one port chosen by the agent. */
export function gatewayAppJob(fqn: string, pkg: string, env: Record<string, string> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    fqn,
    num_instances: 1,
    packages: [{ uuid: pkg }],
    processes: { app: { start_command: 'node /app/gateway.js', start_command_timeout: 30, stop_timeout: 5, environment: env } },
    ports: [{ number: 0, optional: false }],
    resources: { memory: 64 * 1024 * 1024, disk: 64 * 1024 * 1024 },
    ...extra,
  };
}

/**
 * A three-tier gateway written for the original platform (plain Node, run as a job): it keeps
 * its providers, services and bindings in memory (the earlier, stateful form of the API: no
 * state headers), describes each verb at `GET /` as the original gateways did (an array for
 * GET, `{params}` or an array for POST), answers creates with 200 and the object, refusals
 * with `{"error": ...}`, deletes with 200 and the object deleted.
 *   GET /_objects   {"providers": [ids], "services": [ids], "bindings": [ids]}
 *   GET /_calls     every call so far: {method, path, headers: [state headers received]}
 *   POST /_describe {"without": [endpoints left out of GET /], "notjson": true|false}: what
 *                   GET / answers from now on (a gateway the cluster cannot work with)
 */
export const ORIGINAL_GATEWAY_APP = `
const http = require('node:http');
const crypto = require('node:crypto');
const store = { providers: new Map(), services: new Map(), bindings: new Map() };
const calls = [];
let describe = { without: [], notjson: false };
const map = {
  '/providers': { GET: [{}], POST: { params: { url: 'redis://host:6379' } } },
  '/providers/:id': { GET: [{}], DELETE: [{}] },
  '/services': { GET: [{}], POST: { params: { db: '0' } } },
  '/services/:id': { GET: [{}], DELETE: [{}] },
  '/bindings': { GET: [{}], POST: [{}] },
  '/bindings/:id': { GET: [{}], DELETE: [{}] },
  '/stats': 'requests served',
};
function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
http.createServer((req, res) => {
  let text = '';
  req.on('data', (c) => (text += c));
  req.on('end', () => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/_objects') return send(res, 200, Object.fromEntries(Object.entries(store).map(([k, m]) => [k, [...m.keys()]])));
    if (url.pathname === '/_calls') return send(res, 200, calls);
    if (url.pathname === '/_describe') { describe = { without: [], notjson: false, ...JSON.parse(text) }; return send(res, 200, describe); }
    calls.push({ method: req.method, path: url.pathname + url.search, headers: Object.keys(req.headers).filter((h) => h.endsWith('-state')) });
    let body = {};
    try { body = text ? JSON.parse(text) : {}; } catch { return send(res, 400, { error: 'body is not JSON' }); }
    const [, kind, id] = url.pathname.split('/');
    if (req.method === 'GET' && url.pathname === '/') {
      if (describe.notjson) { res.writeHead(200, { 'content-type': 'text/html' }); return res.end('<html>endpoints: /providers /services /bindings</html>'); }
      return send(res, 200, Object.fromEntries(Object.entries(map).filter(([k]) => !describe.without.includes(k))));
    }
    const objects = store[kind];
    if (!objects) return send(res, 404, { error: 'no such path' });
    if (req.method === 'GET' && !id) return send(res, 200, [...objects.values()]);
    if (req.method === 'GET') return objects.has(id) ? send(res, 200, objects.get(id)) : send(res, 404, { error: 'not found' });
    if (req.method === 'DELETE') {
      const o = objects.get(id);
      if (!o) return send(res, 404, { error: kind + ' ' + id + ' not found' });
      const using = kind === 'providers' ? [...store.services.values()].some((s) => s.provider_id === id) : kind === 'services' ? [...store.bindings.values()].some((b) => b.service_id === id) : false;
      if (using && url.searchParams.get('force') !== 'true') return send(res, 409, { error: kind + ' ' + id + ' is in use' });
      objects.delete(id);
      return send(res, 200, o);
    }
    if (req.method !== 'POST' || id) return send(res, 405, { error: 'method not allowed' });
    const oid = crypto.randomBytes(8).toString('hex');
    if (kind === 'providers') {
      if (!body.params || !body.params.url) return send(res, 400, { error: 'params.url is required' });
      const o = { id: oid, name: body.name || 'provider-' + oid, description: body.description || '', type: body.type, params: body.params };
      store.providers.set(oid, o);
      return send(res, 200, o);
    }
    if (kind === 'services') {
      if (!store.providers.has(body.provider_id)) return send(res, 400, { error: 'unknown provider_id ' + body.provider_id });
      const o = { id: oid, name: body.name || 'service-' + oid, description: body.description || '', provider_id: body.provider_id, params: body.params || {} };
      store.services.set(oid, o);
      return send(res, 200, o);
    }
    const service = store.services.get(body.service_id);
    if (!service) return send(res, 404, { error: 'unknown service_id ' + body.service_id });
    const db = service.params.db || '0';
    const o = { id: oid, name: body.name || 'binding-' + oid, service_id: service.id, url: 'redis://user-' + oid + ':pw@127.0.0.1:6379/' + db, protocol: { scheme: 'redis' } };
    store.bindings.set(oid, o);
    send(res, 200, o);
  });
}).listen(Number(process.env.PORT), () => console.log('original gateway listening on ' + process.env.PORT));
`;

export function originalGatewayAppArchive(): Buffer {
  return tarGz({ 'app/original-gateway.js': ORIGINAL_GATEWAY_APP });
}

/** An HTTP server on $PORT that answers its environment as JSON (what a bound job gets). */
export const ENV_APP = `
const http = require('node:http');
http.createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ instance: process.env.PLATFORM_INSTANCE_UUID, env: process.env }));
}).listen(Number(process.env.PORT));
`;

export function envAppArchive(): Buffer {
  return tarGz({ 'app/env.js': ENV_APP });
}

/** A started job running ENV_APP (with a shell start command, as users write them). */
export function envAppJob(fqn: string, pkg: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    fqn,
    num_instances: 1,
    packages: [{ uuid: pkg }],
    processes: { app: { start_command: 'node /app/env.js', start_command_timeout: 30, stop_timeout: 2 } },
    ports: [{ number: 0, optional: false }],
    resources: { memory: 64 * 1024 * 1024, disk: 64 * 1024 * 1024 },
    state: 'started',
    ...extra,
  };
}
