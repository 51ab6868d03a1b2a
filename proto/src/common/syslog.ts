/**
 * Log drains' urls (syslog://<host>:<port>), RFC 5424 syslog messages and a sender to one collector over TCP (RFC 6587 octet-counting
 * framing: `<length> <message>`) or UDP (one message per datagram).
 *
 * No npm package was taken for this: the well-known ones (glossy, syslog-client) are unmaintained
 * and do not do octet-counting over TCP; the format is a single line of fields.
 *
 * The sender never blocks its caller: `send()` queues (at most `maxQueued` messages; beyond it the
 * oldest is dropped and counted) and returns. Over TCP it connects, writes while the socket takes
 * more (a full socket buffer pauses the writes, so a slow collector fills the queue, not memory),
 * and reconnects after an error with a doubling delay (250 ms up to 30 s). Messages written into
 * a socket that then fails are lost with it (TCP does not say which were read).
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { connect, isIP, type Socket } from 'node:net';
import type { DestinationPolicy } from './destinations.js';

const HOST_NAME = /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

export interface DrainTarget {
  host: string;
  port: number;
}

/** The host and port of a drain url, or the reason it is not one. */
export function parseDrainUrl(url: string): DrainTarget | { error: string } {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(.*)$/.exec(url);
  if (!m) return { error: `"${url}" is not a url: expected syslog://<host>:<port>` };
  if (m[1]!.toLowerCase() !== 'syslog') return { error: `scheme "${m[1]}" is not supported: expected syslog://<host>:<port>` };
  const rest = m[2]!;
  const hp = /^(\[[0-9A-Fa-f:.]+\]|[^/?#@:[\]]+)(?::(\d{1,5}))?$/.exec(rest);
  if (!hp) return { error: `"${url}" must be syslog://<host>:<port>, without user, path, query or fragment` };
  if (hp[2] === undefined) return { error: `"${url}" has no port: expected syslog://<host>:<port>` };
  const port = Number(hp[2]);
  if (port < 1 || port > 65535) return { error: `port ${hp[2]} is not 1-65535` };
  const host = hp[1]!.startsWith('[') ? hp[1]!.slice(1, -1) : hp[1]!;
  if (hp[1]!.startsWith('[') ? isIP(host) !== 6 : !(isIP(host) === 4 || (HOST_NAME.test(host) && !/^[\d.]+$/.test(host)))) {
    return { error: `"${hp[1]}" is not a host name or address` };
  }
  return { host, port };
}

/** The NILVALUE of RFC 5424, and its printable-ASCII fields cut to their length. */
const field = (v: string, max: number): string => {
  const printable = v.replace(/[^\x21-\x7e]/g, '_').slice(0, max);
  return printable === '' ? '-' : printable;
};
const sdValue = (v: string) => v.replace(/[\\"\]]/g, (c) => `\\${c}`);

export interface SyslogFields {
  /** 0-191: facility * 8 + severity. */
  priority: number;
  timeMs: number;
  hostname: string;
  appName: string;
  procId: string;
  msgId: string;
  /** Structured data: one element, id `platform@32473` (the RFC's example enterprise number). */
  data?: Record<string, string>;
  message: string;
  /** The message's whole length in bytes is cut to this (the text loses its end). */
  maxBytes: number;
}

/** One RFC 5424 message (without framing), at most `maxBytes` bytes. */
export function formatSyslog(f: SyslogFields): Buffer {
  const sd = f.data ? `[platform@32473${Object.entries(f.data).map(([k, v]) => ` ${k}="${sdValue(v)}"`).join('')}]` : '-';
  const head = `<${f.priority}>1 ${new Date(f.timeMs).toISOString()} ${field(f.hostname, 255)} ${field(f.appName, 48)} ${field(f.procId, 128)} ${field(f.msgId, 32)} ${sd} `;
  const whole = Buffer.from(head + f.message, 'utf8');
  if (whole.length <= f.maxBytes) return whole;
  // Cut on a character boundary.
  let end = f.maxBytes;
  while (end > 0 && (whole[end]! & 0xc0) === 0x80) end--;
  return whole.subarray(0, end);
}

export interface SenderEvents {
  sent(n: number): void;
  dropped(n: number): void;
  connected(up: boolean): void;
  error(err: Error): void;
}

export class SyslogSender {
  readonly #queue: Buffer[] = [];
  #tcp: Socket | undefined;
  #udp: UdpSocket | undefined;
  #connected = false;
  #delayMs = 250;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    readonly host: string,
    readonly port: number,
    readonly protocol: 'tcp' | 'udp',
    private readonly events: SenderEvents,
    private readonly maxQueued = 10_000,
    /**
     * The rule the collector's address must pass (destinations.ts), judged at each connection
     * (TCP) or datagram (UDP) on the address connected to: a refused one fails like an
     * unreachable collector (`error`, messages queued then dropped, retried with the delay).
     */
    private readonly destinations?: DestinationPolicy,
  ) {
    if (protocol === 'tcp') this.#connect();
  }

  get queued(): number {
    return this.#queue.length;
  }

  send(message: Buffer): void {
    if (this.#closed) return;
    if (this.protocol === 'udp') {
      this.#sendUdp(message);
      return;
    }
    this.#queue.push(message);
    if (this.#queue.length > this.maxQueued) {
      this.#queue.shift();
      this.events.dropped(1);
    }
    this.#pump();
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#tcp?.destroy();
    this.#udp?.close();
    if (this.#queue.length) this.events.dropped(this.#queue.length);
    this.#queue.length = 0;
  }

  #sendUdp(message: Buffer): void {
    const family = isIP(this.host) === 6 ? 6 : 4;
    if (!this.#udp) {
      this.#udp = createSocket(family === 6 ? 'udp6' : 'udp4');
      this.#udp.on('error', (err) => this.events.error(err));
      this.#udp.unref();
    }
    const udp = this.#udp;
    const failed = (err: Error) => {
      this.events.dropped(1);
      this.events.error(err);
    };
    const send = (address: string) =>
      udp.send(message, this.port, address, (err) => {
        if (err) failed(err);
        else this.events.sent(1);
      });
    if (!this.destinations) {
      send(this.host);
      return;
    }
    // Each datagram's destination is resolved and judged here, and the datagram sent to the
    // address judged (not through dgram's own lookup, which also serves its bind to 0.0.0.0).
    this.destinations
      .check(this.host, this.port)
      .then((addresses) => {
        const address = addresses.find((a) => isIP(a) === family);
        if (!address) throw new Error(`${this.host} has no IPv${family} address`);
        if (this.#closed) this.events.dropped(1);
        else send(address);
      })
      .catch(failed);
  }

  #connect(): void {
    if (this.#closed) return;
    let socket: Socket;
    try {
      socket = connect({ host: this.host, port: this.port, ...this.destinations?.connectOptions(this.host, this.port) });
    } catch (err) {
      // A refused address: as a connection that failed (told after the caller's turn, as a
      // socket's error would be: the constructor may be running).
      process.nextTick(() => {
        if (this.#closed) return;
        this.events.error(err as Error);
        this.#retry();
      });
      return;
    }
    socket.setNoDelay(true);
    socket.unref();
    this.#tcp = socket;
    socket.on('connect', () => {
      this.#connected = true;
      this.#delayMs = 250;
      this.events.connected(true);
      this.#pump();
    });
    socket.on('drain', () => this.#pump());
    socket.on('error', (err) => this.events.error(err));
    socket.on('close', () => {
      if (this.#tcp !== socket) return;
      this.#tcp = undefined;
      if (this.#connected) this.events.connected(false);
      this.#connected = false;
      this.#retry();
    });
  }

  /** Connects again after the delay, doubled each time (250 ms up to 30 s). */
  #retry(): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => this.#connect(), this.#delayMs);
    this.#timer.unref();
    this.#delayMs = Math.min(this.#delayMs * 2, 30_000);
  }

  #pump(): void {
    const socket = this.#tcp;
    if (!socket || !this.#connected) return;
    let n = 0;
    while (this.#queue.length > 0) {
      const m = this.#queue.shift()!;
      n++;
      if (!socket.write(Buffer.concat([Buffer.from(`${m.length} `), m]))) break;
    }
    if (n) this.events.sent(n);
  }
}
