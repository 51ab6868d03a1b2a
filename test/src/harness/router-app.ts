/**
 * An application for the router tests, run as a real job: it answers which instance served a
 * request and the headers it got, sets a session cookie on /login, streams /echo (request body
 * back as the response, never held whole), /bytes/<n> (n bytes; /progress says how many it has
 * written so far), /hold (an upload left unread until /release, then answered with its length
 * and digest), /status/<code> (that status), POST /crash (answers, then exits at once) and /reading (the
 * requests whose body has neither ended nor been cut off, other than itself), and echoes WebSocket text
 * frames on /ws. Plain Node.js, no dependencies, as users' apps are.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import { tarGz } from './apps.js';

export const ROUTER_APP = `
const http = require('node:http');
const crypto = require('node:crypto');
const port = Number(process.env.PORT);
const me = { instance: process.env.PLATFORM_INSTANCE_UUID, job: process.env.PLATFORM_JOB_UUID };
// Streaming checks: bytes handed to the last /bytes response so far; a /hold upload left unread until /release.
const progress = { written: 0 };
let held;
// Requests whose body has neither ended nor been cut off (their connection closed): what a router that
// left its requests hanging would keep here. (A request answered before its body ended gets no 'close'
// of its own when its connection closes later.)
const reading = new Set();
const server = http.createServer((req, res) => {
  reading.add(req);
  const socket = req.socket;
  const done = () => {
    reading.delete(req);
    socket.off('close', done);
  };
  req.once('end', done);
  req.once('close', done);
  socket.once('close', done);
  if (req.url === '/reading') {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ reading: [...reading].filter((r) => r !== req).map((r) => r.method + ' ' + r.url) }));
    return;
  }
  if (req.url === '/hold') {
    held = { req, res };
    return;
  }
  if (req.url === '/release') {
    const h = held;
    held = undefined;
    req.resume();
    if (!h) return res.writeHead(409).end('nothing held');
    const hash = crypto.createHash('sha256');
    let bytes = 0;
    h.req.on('data', (c) => { bytes += c.length; hash.update(c); });
    h.req.on('end', () => h.res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ bytes, sha: hash.digest('hex') })));
    res.writeHead(200, { 'content-type': 'text/plain' }).end('released');
    return;
  }
  if (req.url === '/crash' && req.method === 'POST') {
    // Answers, then ends at once (no graceful close: connections drop as when the process is killed).
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(me), () => process.exit(137));
    return;
  }
  if (req.url === '/progress') {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...me, ...progress }));
    return;
  }
  if (req.url === '/echo') {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    req.pipe(res);
    return;
  }
  if (req.url.startsWith('/bytes/')) {
    let left = Number(req.url.slice(7));
    progress.written = 0;
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': left });
    const chunk = Buffer.alloc(64 * 1024, 7);
    const more = () => {
      while (left > 0) {
        const n = Math.min(left, chunk.length);
        left -= n;
        progress.written += n;
        if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return res.once('drain', more);
      }
      res.end();
    };
    more();
    return;
  }
  req.resume();
  if (req.url.startsWith('/status/')) {
    res.writeHead(Number(req.url.slice(8)), { 'content-type': 'text/plain' });
    res.end('as asked');
    return;
  }
  const headers = { 'content-type': 'application/json' };
  if (req.url === '/login') headers['set-cookie'] = 'SESSIONID=' + crypto.randomUUID() + '; Path=/; Max-Age=3600';
  res.writeHead(200, headers);
  res.end(JSON.stringify({ ...me, url: req.url, headers: req.headers }));
});
server.on('upgrade', (req, socket) => {
  const accept = crypto.createHash('sha1').update(req.headers['sec-websocket-key'] + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
  socket.write('HTTP/1.1 101 Switching Protocols\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\nSec-WebSocket-Accept: ' + accept + '\\r\\n\\r\\n');
  let buf = Buffer.alloc(0);
  socket.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    while (buf.length >= 6) {
      const len = buf[1] & 0x7f;
      if (len > 125 || buf.length < 6 + len) return;
      const mask = buf.subarray(2, 6);
      const payload = Buffer.from(buf.subarray(6, 6 + len)).map((b, i) => b ^ mask[i % 4]);
      const opcode = buf[0] & 0x0f;
      buf = buf.subarray(6 + len);
      if (opcode === 8) { socket.end(Buffer.from([0x88, 0])); return; }
      const reply = Buffer.from('echo from ' + me.instance + ': ' + payload.toString());
      socket.write(Buffer.concat([Buffer.from([0x81, reply.length]), reply]));
    }
  });
  socket.on('error', () => socket.destroy());
});
server.listen(port);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

export function routerAppArchive(): Buffer {
  return tarGz({ 'app/server.js': ROUTER_APP });
}

export interface Served {
  status: number;
  instance?: string;
  job?: string;
  headers: Record<string, string | string[] | undefined>;
  /** What the app saw (JSON answers only). */
  seen?: Record<string, string>;
  text: string;
}

/** A request through a router at `address` for `host`, over a fresh connection unless `agent` is given. */
export function viaRouter(
  address: string,
  host: string,
  path = '/',
  o: { method?: string; headers?: Record<string, string>; agent?: http.Agent } = {},
): Promise<Served> {
  const [h, p] = splitAddress(address);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: h, port: p, path, method: o.method ?? 'GET', headers: { host, ...o.headers }, agent: o.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let body: { instance?: string; job?: string; headers?: Record<string, string> } = {};
        if ((res.headers['content-type'] ?? '').includes('json')) body = JSON.parse(text) as typeof body;
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text,
          ...(body.instance ? { instance: body.instance } : {}),
          ...(body.job ? { job: body.job } : {}),
          ...(body.headers ? { seen: body.headers } : {}),
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export function splitAddress(address: string): [string, number] {
  const colon = address.lastIndexOf(':');
  return [address.slice(0, colon).replace(/^\[|\]$/g, ''), Number(address.slice(colon + 1))];
}

/** Counts of each value. */
export function tally<T>(values: readonly T[]): Map<T, number> {
  const m = new Map<T, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return m;
}

/**
 * Opens a WebSocket through the router (raw, as the protocol is small), sends `messages` as
 * text frames and answers the text frames that come back, one per message.
 */
export function websocketEcho(address: string, host: string, messages: string[]): Promise<{ status: number; replies: string[] }> {
  const [h, p] = splitAddress(address);
  const key = randomBytes(16).toString('base64');
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: h,
      port: p,
      path: '/ws',
      agent: false,
      headers: { host, connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-key': key, 'sec-websocket-version': '13' },
    });
    req.on('response', (res) => resolve({ status: res.statusCode ?? 0, replies: [] }));
    req.on('error', reject);
    req.on('upgrade', (res, socket: Socket, head: Buffer) => {
      const expected = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
      if (res.headers['sec-websocket-accept'] !== expected) return reject(new Error('bad Sec-WebSocket-Accept'));
      const replies: string[] = [];
      let buf = head;
      const parse = () => {
        while (buf.length >= 2 && buf.length >= 2 + (buf[1]! & 0x7f)) {
          const len = buf[1]! & 0x7f;
          replies.push(buf.subarray(2, 2 + len).toString());
          buf = buf.subarray(2 + len);
        }
        if (replies.length === messages.length) {
          socket.end(Buffer.from([0x88, 0x80, 0, 0, 0, 0]));
          resolve({ status: 101, replies });
        }
      };
      socket.on('data', (d: Buffer) => {
        buf = Buffer.concat([buf, d]);
        parse();
      });
      socket.on('error', reject);
      for (const m of messages) {
        const payload = Buffer.from(m);
        const mask = randomBytes(4);
        const masked = payload.map((b, i) => b ^ mask[i % 4]!);
        socket.write(Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]));
      }
      parse();
    });
    req.end();
  });
}
