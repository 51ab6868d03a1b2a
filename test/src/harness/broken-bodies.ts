/**
 * Requests whose bodies break after the head, on raw connections: a malformed chunk, a reset
 * mid-body, a body that stalls, a body that never ends. What came back and whether (and when)
 * the server closed the connection, within a deadline.
 */
import { connect, type Socket } from 'node:net';
import { parseRawAnswer } from './raw-http.js';

export type BreakMode = 'malformed' | 'reset' | 'stall' | 'endless';

export const BREAK_MODES: readonly BreakMode[] = ['malformed', 'reset', 'stall', 'endless'];

export interface BrokenRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  mode: BreakMode;
  /** The body's first bytes (sent as one chunk before it breaks); a JSON start by default. */
  first?: string;
  /** malformed: the bad chunk on a later write rather than with the head. */
  later?: boolean;
  /** endless: the pause between chunks (0: as fast as the connection takes them). */
  dripMs?: number;
}

export interface BrokenAnswer {
  /** The status of the server's answer; 0 when none came (a reset). */
  status: number;
  headers: Map<string, string>;
  body: string;
  /** How long until the connection closed. */
  ms: number;
}

function chunk(text: string): string {
  return `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
}

/**
 * Sends `r` to host:port and resolves once the server closed the connection (or, for a reset,
 * once the client reset it); rejects when the connection is still open after `deadlineMs`.
 */
export function sendBroken(host: string, port: number, r: BrokenRequest, deadlineMs: number): Promise<BrokenAnswer> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, host);
    const parts: Buffer[] = [];
    let open = true;
    // What came, up to 64 KiB (an echo of an endless body would be endless too).
    let kept = 0;
    socket.on('data', (d: Buffer) => {
      if (kept >= 65_536) return;
      parts.push(d);
      kept += d.length;
    });
    // EPIPE or a reset from a server closing while the client still writes: what came is the answer.
    socket.on('error', () => undefined);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`${r.mode} ${r.method} ${r.path}: the connection is still open after ${deadlineMs} ms; received ${JSON.stringify(Buffer.concat(parts).toString('latin1').slice(0, 300))}`));
    }, deadlineMs);
    socket.once('close', () => {
      open = false;
      clearTimeout(timer);
      resolve({ ...parseRawAnswer(Buffer.concat(parts).toString('utf8')), ms: Date.now() - started });
    });
    const head =
      `${r.method} ${r.path} HTTP/1.1\r\nHost: ${r.headers['host'] ?? 'test'}\r\n` +
      Object.entries(r.headers)
        .filter(([k]) => k.toLowerCase() !== 'host')
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('') +
      'Transfer-Encoding: chunked\r\n\r\n';
    const first = chunk(r.first ?? '{"fqn":');
    switch (r.mode) {
      case 'malformed': {
        const bad = 'zz\r\n{}\r\n0\r\n\r\n';
        if (r.later) socket.write(head + first, () => setImmediate(() => open && socket.write(bad)));
        else socket.write(head + first + bad);
        return;
      }
      case 'reset':
        socket.write(head + first, () => setImmediate(() => socket.resetAndDestroy()));
        return;
      case 'stall':
        socket.write(head + first);
        return;
      case 'endless': {
        const piece = chunk('x'.repeat(r.dripMs ? 16 : 16 * 1024));
        socket.write(head + first);
        const more = (): void => {
          if (!open || socket.writableEnded) return;
          if (r.dripMs) {
            socket.write(piece, () => setTimeout(more, r.dripMs).unref());
            return;
          }
          while (open && socket.write(piece));
          if (open) socket.once('drain', more);
        };
        more();
        return;
      }
    }
  });
}
