/** Raw HTTP exchanges: bytes as they are on a new connection, the answer read until the server closes it. */
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  /** The first answer's status; 0 when none came. */
  status: number;
  headers: Map<string, string>;
  /** The first answer's body (by its Content-Length when it has one). */
  body: string;
  /** Everything received. */
  text: string;
  /** How long until the connection closed. */
  ms: number;
}

export interface RawOptions {
  /** End the sending side after the bytes (true), or keep it open, as a client waiting for its answer (false). */
  halfClose?: boolean;
  /** Fails when the connection is still open after this long. Default 10 s. */
  deadlineMs?: number;
  /** Sent again every `dripMs` while the connection is open (a head or body that dribbles in). */
  drip?: string;
  dripMs?: number;
  /** Called once the first answer has come in whole (by its Content-Length): what the client sends next. */
  afterAnswer?: (socket: Socket) => void;
}

export function parseRawAnswer(text: string): Omit<RawAnswer, 'ms' | 'text'> {
  const at = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = (at < 0 ? text : text.slice(0, at)).split('\r\n');
  const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  let body = at < 0 ? '' : text.slice(at + 4);
  const length = headers.get('content-length');
  if (length !== undefined) body = Buffer.from(body).subarray(0, Number(length)).toString('utf8');
  return { status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1] ?? 0), headers, body };
}

export function rawExchange(host: string, port: number, bytes: string | Buffer, o: RawOptions = {}): Promise<RawAnswer> {
  const started = Date.now();
  const deadlineMs = o.deadlineMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const socket = connect(port, host);
    const parts: Buffer[] = [];
    let drip: NodeJS.Timeout | undefined;
    let answered = false;
    socket.on('data', (d: Buffer) => {
      parts.push(d);
      if (answered || !o.afterAnswer) return;
      const text = Buffer.concat(parts).toString('latin1');
      const at = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, at))?.[1];
      if (at >= 0 && length !== undefined && text.length >= at + 4 + Number(length)) {
        answered = true;
        o.afterAnswer(socket);
      }
    });
    // The server may close while the client still writes: the answer is what counts.
    socket.on('error', () => undefined);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the connection is still open after ${deadlineMs} ms; received ${JSON.stringify(Buffer.concat(parts).toString('latin1').slice(0, 300))}`));
    }, deadlineMs);
    socket.once('close', () => {
      clearTimeout(timer);
      clearInterval(drip);
      const text = Buffer.concat(parts).toString('utf8');
      resolve({ ...parseRawAnswer(text), text, ms: Date.now() - started });
    });
    if (o.halfClose ?? true) socket.end(bytes);
    else socket.write(bytes);
    if (o.drip !== undefined) drip = setInterval(() => socket.writable && socket.write(o.drip!), o.dripMs ?? 100);
    socket.once('close', () => clearInterval(drip));
  });
}
