/**
 * Reading logs over HTTP: the last lines as text, or (with `tail`, or `Accept:
 * text/event-stream`) a stream of Server-Sent Events whose ids are the lines' sequence
 * numbers, so that a client resumes with `Last-Event-ID` (or `?lastEventId=`) after a
 * disconnect and receives exactly the lines it missed.
 *
 * The text form starts each line of an instance with its short id, `[1a2b3c4d] hello`; the
 * `instance` query (a uuid or short id) keeps the lines of one instance.
 *
 * Event format:   id: 42
 *                 event: log
 *                 data: {"seq":42,"time":"2026-11-21T22:01:02.345Z","instance_uuid":"...","stream":"stdout","line":"hello"}
 */
import { PassThrough } from 'node:stream';
import type { ApiContext, Endpoint } from '../api/endpoint.js';
import { queryValue } from '../api/endpoint.js';
import { requireUuid } from '../model/validate.js';
import { authorizeFound } from '../policy/access.js';
import { queryBool, queryInt } from '../api/query.js';
import { InvalidRequestError, NotFoundError } from '../errors.js';
import type { LogLine, LogStore } from './log-store.js';

const DEFAULT_LINES = 100;
const MAX_LINES = 10_000;
const KEEPALIVE_MS = 15_000;

function lastEventId(ctx: ApiContext): number | undefined {
  const raw = ctx.get('Last-Event-ID') || queryValue(ctx, 'lastEventId');
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw new InvalidRequestError(`Last-Event-ID "${raw}" is not an event id of this log`);
  return Number(raw);
}

function event(line: LogLine): string {
  const data = { seq: line.seq, time: new Date(line.time_ms).toISOString(), instance_uuid: line.instance, stream: line.stream, line: line.text };
  return `id: ${line.seq}\nevent: log\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The length of an instance's short id: the first characters of its uuid. */
export const SHORT_ID_LENGTH = 8;

/** The `instance` query: a filter on lines by instance uuid or short id; undefined without one. */
function instanceFilter(ctx: ApiContext): ((line: LogLine) => boolean) | undefined {
  const raw = queryValue(ctx, 'instance');
  if (raw === undefined || raw === '') return undefined;
  const wanted = raw.toLowerCase();
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(wanted)) return (l) => l.instance === wanted;
  if (new RegExp(`^[0-9a-f]{${SHORT_ID_LENGTH}}$`).test(wanted)) return (l) => l.instance.startsWith(wanted);
  throw new InvalidRequestError(`query instance: "${raw}" is neither an instance uuid nor a short id (its first ${SHORT_ID_LENGTH} characters)`);
}

/** A line of the text form: `[<short id>] text` for an instance's line; staging lines have no instance. */
export function textLine(l: LogLine): string {
  return l.instance ? `[${l.instance.slice(0, SHORT_ID_LENGTH)}] ${l.text}\n` : `${l.text}\n`;
}

/** Answers a logs request for `owner` (a job uuid, or a package uuid for staging output). */
export async function serveLogs(ctx: ApiContext, logs: LogStore, owner: string): Promise<void> {
  const count = queryInt(ctx, 'lines', 0, MAX_LINES) ?? DEFAULT_LINES;
  const since = lastEventId(ctx);
  const tail = queryBool(ctx, 'tail');
  const filter = instanceFilter(ctx);
  const sse = tail || (ctx.get('Accept') ?? '').includes('text/event-stream');
  const backlog = () => (since !== undefined ? logs.after(owner, since, MAX_LINES, filter) : logs.last(owner, count, filter));

  if (!sse) {
    const lines = await backlog();
    ctx.status = 200;
    ctx.type = (ctx.get('Accept') ?? '').includes('text/plain') ? 'text/plain; charset=utf-8' : 'application/octet-stream';
    ctx.body = lines.map(textLine).join('');
    return;
  }

  const stream = new PassThrough();
  let lastSent = since ?? 0;
  let pending: LogLine[] | undefined = [];
  const send = (lines: readonly LogLine[]) => {
    for (const l of lines) {
      if (l.seq <= lastSent || (filter && !filter(l))) continue;
      lastSent = l.seq;
      stream.write(event(l));
    }
  };
  // Subscribe before reading the backlog, and hold what arrives meanwhile: no line falls between.
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(keepalive);
    unsubscribe();
    stream.end();
  };
  const unsubscribe = logs.subscribe(owner, (lines) => (pending ? pending.push(...lines) : send(lines)), end);
  const keepalive = setInterval(() => stream.write(': keepalive\n\n'), KEEPALIVE_MS);
  keepalive.unref();
  ctx.req.on('close', end);
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);

  ctx.status = 200;
  ctx.type = 'text/event-stream';
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('X-Accel-Buffering', 'no');
  ctx.body = stream;
  stream.write(': log stream\n\n');
  try {
    send(await backlog());
    const held = pending;
    pending = undefined;
    send(held);
  } catch (err) {
    end();
    throw err;
  }
}

/** GET /packages/{uuid}/logs: the output of the package's staging, as lines or a tail. */
export function packageLogEndpoints(
  find: (uuid: string) => Promise<{ fqn: string } | undefined>,
  logs: LogStore,
): Endpoint[] {
  return [
    {
      method: 'GET',
      path: '/packages/:uuid/logs',
      doc: { summary: 'A package\'s staging log', responseMedia: ['text/plain; charset=utf-8', 'application/octet-stream', 'text/event-stream'], query: { lines: 'how many of the last lines (default 100)', tail: 'presence flag: a live stream of Server-Sent Events', instance: 'one instance: uuid or short id', lastEventId: 'resume after this event id' } },
      handler: async (ctx) => {
        const uuid = requireUuid(ctx.params['uuid'] ?? '', 'package uuid');
        const pkg = await find(uuid);
        if (!pkg) throw new NotFoundError(`package ${uuid} not found`);
        await authorizeFound(ctx, pkg.fqn, 'read', `package ${uuid} not found`);
        await serveLogs(ctx, logs, uuid);
      },
    },
  ];
}
