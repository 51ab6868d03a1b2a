/**
 * Destinations: the one rule for every address a user can make the platform reach (the image
 * registries of pulls, their redirects and token services; log drains; autoscaling http_metric
 * urls). The controller and the agent both judge with it.
 *
 * Refused unless an entry of the operator's allow-list covers the address:
 *
 *   loopback       127.0.0.0/8, ::1
 *   unspecified    0.0.0.0/8, ::           (a connection to 0.0.0.0 reaches this host)
 *   link-local     169.254.0.0/16, fe80::/10 (169.254.169.254: the cloud metadata service)
 *   metadata       the other cloud metadata addresses: fd00:ec2::254 (AWS over IPv6),
 *                  100.100.100.200 (Alibaba), 192.0.0.192 (Oracle)
 *   multicast      224.0.0.0/4, ff00::/8
 *   reserved       240.0.0.0/4 (255.255.255.255 among them), ::/96 (IPv4-compatible)
 *   own-address    an address this process listens on (every address of this host when it
 *                  listens on a wildcard), or one of the platform's (`platformAddresses`: the
 *                  controller's, for an agent), at every port
 *   private        10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7: only with `refusePrivate`
 *                  (allowed by default: operators run internal registries and collectors)
 *   own-listener   one of this process's own listening sockets: only an entry that names its
 *                  port allows it (the harness allows 127.0.0.1 for its registries, never the
 *                  controller's API port)
 *
 * An IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) address is judged as its IPv4
 * address.
 *
 * Judged after DNS, at connection time: `connectOptions()` gives a socket (net.connect,
 * http.get, dgram) a `lookup` that resolves the name and refuses it when any of its addresses
 * is refused, so the address connected to is the one checked (a name that answers a public
 * address to a check and 127.0.0.1 to the connection gains nothing). A literal address is
 * judged by `connectOptions()` itself (Node connects to an IP without a lookup). `check()`
 * judges ahead of time (a request refused before anything is made), the same way.
 *
 * Allow-list entries (`parseAllowList`): a host name (`registry.internal`, `*.corp.example` for
 * its subdomains: matched against the name the user gave, whatever it resolves to), an IPv4 or
 * IPv6 address or CIDR block; each with an optional `:port` (IPv6 in brackets:
 * `[::1]:5000`, `[fd00::/8]:5000`).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { HostPort } from './host-port.js';

export type RefusalReason = 'loopback' | 'unspecified' | 'link-local' | 'metadata' | 'multicast' | 'reserved' | 'own-address' | 'private' | 'own-listener';

/** An IP address as a number: 32 bits for IPv4, 128 for IPv6. */
interface Ip {
  v: 4 | 6;
  n: bigint;
}

interface Block {
  ip: Ip;
  prefix: number;
}

/** An entry of an allow-list. */
export type AllowEntry = { kind: 'name'; name: string; subdomains: boolean; port?: number; text: string } | { kind: 'block'; block: Block; port?: number; text: string };

/** A malformed allow-list (an operator's mistake: the binary stops with it). */
export class DestinationListError extends Error {
  override readonly name = 'DestinationListError';
}

/**
 * A destination the rule refuses. `code` lets a socket error be told apart from the others
 * (ECONNREFUSED, ENOTFOUND); the message names the destination, the address and why.
 */
export class DestinationRefusedError extends Error {
  override readonly name = 'DestinationRefusedError';
  readonly code = 'EDESTINATIONREFUSED';
  constructor(
    message: string,
    /** The host as given (a name or an address). */
    readonly host: string,
    /** The address refused (`host` itself, or one it resolves to). */
    readonly address: string,
    readonly port: number,
    readonly reason: RefusalReason,
  ) {
    super(message);
  }
}

/** Whether `err` (a socket's, a request's, or its cause) is a refusal of the rule. */
export function destinationRefusal(err: unknown): DestinationRefusedError | undefined {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof DestinationRefusedError) return e;
  }
  return undefined;
}

// ---- addresses ------------------------------------------------------------------------------

const V4_MAX = (1n << 32n) - 1n;

function parseV4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((n, p) => (n << 8n) | BigInt(p), 0n);
}

function parseV6(text: string): bigint | undefined {
  if (isIP(text) !== 6) return undefined;
  let head = text;
  let tailV4: bigint | undefined;
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    tailV4 = parseV4(text.slice(lastColon + 1));
    if (tailV4 === undefined) return undefined;
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [left = '', right] = head.split('::');
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const l = groups(left);
  const r = right === undefined ? [] : groups(right);
  const all = right === undefined ? l : [...l, ...Array<string>(8 - l.length - r.length).fill('0'), ...r];
  if (all.length !== 8) return undefined;
  let n = all.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
  if (tailV4 !== undefined) n = (n & ~V4_MAX) | tailV4;
  return n;
}

/** An IP address (IPv6 possibly in brackets, with a zone); undefined when `text` is not one. */
function parseIp(text: string): Ip | undefined {
  const bare = text.replace(/^\[(.*)\]$/, '$1').replace(/%[^%]*$/, '');
  const v4 = parseV4(bare);
  if (v4 !== undefined) return { v: 4, n: v4 };
  const v6 = parseV6(bare);
  return v6 === undefined ? undefined : { v: 6, n: v6 };
}

const MAPPED = { ip: { v: 6, n: 0xffffn << 32n }, prefix: 96 } as const;
const NAT64 = { ip: { v: 6, n: 0x64ff9bn << 96n }, prefix: 96 } as const;

/** IPv4-mapped and NAT64 addresses as their IPv4 address; others as they are. */
function canonical(ip: Ip): Ip {
  if (ip.v === 6 && (inBlock(ip, MAPPED) || inBlock(ip, NAT64))) return { v: 4, n: ip.n & V4_MAX };
  return ip;
}

function inBlock(ip: Ip, block: Block): boolean {
  if (ip.v !== block.ip.v) return false;
  const bits = BigInt(ip.v === 4 ? 32 : 128);
  const shift = bits - BigInt(block.prefix);
  return ip.n >> shift === block.ip.n >> shift;
}

function block(text: string): Block {
  const [address = '', prefix = ''] = text.split('/');
  const ip = parseIp(address)!;
  return { ip, prefix: prefix === '' ? (ip.v === 4 ? 32 : 128) : Number(prefix) };
}

/** The address classes, most specific first. */
const CLASSES: { reason: RefusalReason; blocks: Block[] }[] = [
  { reason: 'metadata', blocks: ['fd00:ec2::254', '100.100.100.200', '192.0.0.192'].map(block) },
  { reason: 'loopback', blocks: ['127.0.0.0/8', '::1/128'].map(block) },
  { reason: 'unspecified', blocks: ['0.0.0.0/8', '::/128'].map(block) },
  { reason: 'link-local', blocks: ['169.254.0.0/16', 'fe80::/10'].map(block) },
  { reason: 'multicast', blocks: ['224.0.0.0/4', 'ff00::/8'].map(block) },
  { reason: 'reserved', blocks: ['240.0.0.0/4', '::/96'].map(block) },
  { reason: 'private', blocks: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7'].map(block) },
];

/** The class of an address that is refused by default or with `refusePrivate`; undefined for any other. */
function classOf(ip: Ip): RefusalReason | undefined {
  return CLASSES.find((c) => c.blocks.some((b) => inBlock(ip, b)))?.reason;
}

const REASON_TEXT: Record<RefusalReason, string> = {
  loopback: 'a loopback address',
  unspecified: 'an unspecified address (a connection to it reaches this host)',
  'link-local': 'a link-local address (the cloud metadata service is one)',
  metadata: 'the address of a cloud metadata service',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
  'own-address': 'an address of the platform itself',
  private: 'a private address, which this cluster refuses',
  'own-listener': 'a port the platform itself listens on',
};

// ---- allow-lists ----------------------------------------------------------------------------

const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

function parsePort(text: string, entry: string): number {
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port < 1 || port > 65535) throw new DestinationListError(`"${entry}": port "${text}" is not 1-65535`);
  return port;
}

function parseBlock(text: string, entry: string): Block {
  const slash = text.indexOf('/');
  const ip = parseIp(slash < 0 ? text : text.slice(0, slash));
  if (!ip || text.includes('%')) throw new DestinationListError(`"${entry}" is not a host name, an address or a CIDR block`);
  const bits = ip.v === 4 ? 32 : 128;
  const prefixText = slash < 0 ? String(bits) : text.slice(slash + 1);
  const prefix = Number(prefixText);
  if (!/^\d{1,3}$/.test(prefixText) || prefix > bits) throw new DestinationListError(`"${entry}": prefix length "${prefixText}" is not 0-${bits}`);
  const host = (1n << BigInt(bits - prefix)) - 1n;
  if ((ip.n & host) !== 0n) throw new DestinationListError(`"${entry}" has bits set past its prefix length (the block is ${formatBlock(ip, prefix, host)})`);
  // An IPv4-mapped block is the IPv4 block it maps (addresses are judged as IPv4 too).
  if (ip.v === 6 && prefix >= 96 && (inBlock(ip, MAPPED) || inBlock(ip, NAT64))) return { ip: canonical(ip), prefix: prefix - 96 };
  return { ip, prefix };
}

function formatBlock(ip: Ip, prefix: number, host: bigint): string {
  const n = ip.n & ~host;
  if (ip.v === 4) return `${[24n, 16n, 8n, 0n].map((s) => (n >> s) & 255n).join('.')}/${prefix}`;
  const groups = Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16));
  // The longest run of two or more zero groups becomes `::`.
  let best = { at: -1, length: 1 };
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > best.length) best = { at: i, length: j - i };
  }
  const text = best.at < 0 ? groups.join(':') : `${groups.slice(0, best.at).join(':')}::${groups.slice(best.at + best.length).join(':')}`;
  return `${text}/${prefix}`;
}

/** One entry: `host[:port]`, `*.domain[:port]`, `address[/len]`, `v4[/len]:port`, `[v6[/len]]:port`, `v6[/len]`. */
function parseEntry(text: string): AllowEntry {
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracket) {
    const b = parseBlock(bracket[1]!, text);
    if (b.ip.v !== 6) throw new DestinationListError(`"${text}": brackets are for IPv6 addresses`);
    return { kind: 'block', block: b, ...(bracket[2] !== undefined ? { port: parsePort(bracket[2], text) } : {}), text };
  }
  const colons = (text.match(/:/g) ?? []).length;
  if (colons > 1) return { kind: 'block', block: parseBlock(text, text), text }; // a bare IPv6 address or block
  const [host = '', portText] = text.split(':');
  const port = portText === undefined ? undefined : parsePort(portText, text);
  const withPort = port === undefined ? {} : { port };
  if (/^[\d./]+$/.test(host)) return { kind: 'block', block: parseBlock(host, text), ...withPort, text };
  const subdomains = host.startsWith('*.');
  const name = (subdomains ? host.slice(2) : host).toLowerCase().replace(/\.$/, '');
  if (!HOST_NAME.test(name)) throw new DestinationListError(`"${text}" is not a host name, an address or a CIDR block`);
  return { kind: 'name', name, subdomains, ...withPort, text };
}

/** An operator's allow-list: entries separated by commas or white space. Throws DestinationListError. */
export function parseAllowList(text: string): AllowEntry[] {
  return text
    .split(/[\s,]+/)
    .filter((e) => e !== '')
    .map(parseEntry);
}

// ---- the policy -----------------------------------------------------------------------------

export interface DestinationPolicyOptions {
  /** What the destinations are for, as a refusal says it: `image pulls`, `log drains`. */
  purpose: string;
  /** The operator's setting that allows more, as a refusal names it: `--allowed-registries (PLATFORM_ALLOWED_REGISTRIES)`. */
  setting: string;
  allow?: readonly AllowEntry[];
  /** Refuse private addresses (RFC 1918, shared 100.64/10, IPv6 ULA) too. Default false. */
  refusePrivate?: boolean;
  /**
   * This process's listening sockets, read at each check (ports bound later count): their
   * addresses are refused at every port, the sockets themselves unless listed with their port.
   * A wildcard host (0.0.0.0, ::) stands for every address of this host.
   */
  listeners?: () => readonly HostPort[];
  /** Other addresses of the platform, refused at every port (an agent: its controller's). */
  platformAddresses?: () => readonly string[];
  /**
   * Sockets of other parts of the platform (the controllers' etcd members), refused as this
   * process's own listeners are (unless listed with their port); their hosts stay reachable at
   * other ports. Hosts given as addresses (resolve names first).
   */
  platformSockets?: () => readonly HostPort[];
  /** This host's addresses, for wildcard listeners. Default: os.networkInterfaces(). */
  interfaces?: () => readonly string[];
  /** Every address of a name. Default: dns.lookup (the system resolver, /etc/hosts included). */
  resolve?: (name: string, family: number) => Promise<LookupAddress[]>;
}

/** The `lookup` option of net.connect and http.request (dgram.createSocket's too, with a cast: it passes the family as a number). */
export type { LookupFunction };

const WILDCARDS = new Set(['0.0.0.0', '::', '']);

function hostAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
}

function systemResolve(name: string, family: number): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(name, { all: true, family }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });
}

export class DestinationPolicy {
  readonly #allow: readonly AllowEntry[];

  constructor(private readonly options: DestinationPolicyOptions) {
    this.#allow = options.allow ?? [];
  }

  get purpose(): string {
    return this.options.purpose;
  }

  /** The allow-list as given (for the start log). */
  get allowed(): string[] {
    return this.#allow.map((e) => e.text);
  }

  /**
   * Why `address` (an IP) at `port` may not be reached, or undefined when it may. `name`: the
   * host name it was resolved from, for the allow-list's names.
   */
  refusal(address: string, port: number, name?: string): RefusalReason | undefined {
    const parsed = parseIp(address);
    if (!parsed) return 'reserved'; // not an address at all: never connected to
    const ip = canonical(parsed);
    const listed = (needPort: boolean) => this.#allow.some((e) => (needPort ? e.port === port : e.port === undefined || e.port === port) && this.#covers(e, ip, name));
    if (this.#isOwnListener(ip, port)) return listed(true) ? undefined : 'own-listener';
    const cls = classOf(ip);
    const reason = cls === 'private' ? (this.options.refusePrivate ? 'private' : undefined) : cls;
    if (reason) return listed(false) ? undefined : reason;
    if (this.#isOwnAddress(ip)) return listed(false) ? undefined : 'own-address';
    return undefined;
  }

  /**
   * Resolves `host` (a name or an address) and judges every address; answers them, or rejects
   * with DestinationRefusedError naming the first refused one. A name that does not resolve
   * (within `timeoutMs`, when given) rejects with the resolver's error (ENOTFOUND, ETIMEOUT):
   * the caller decides what that means.
   */
  async check(host: string, port: number, options: { timeoutMs?: number } = {}): Promise<string[]> {
    const bare = host.replace(/^\[(.*)\]$/, '$1');
    if (isIP(bare)) {
      this.#assert(bare, bare, port);
      return [bare];
    }
    const resolving = this.#resolve(bare, 0);
    let timer: NodeJS.Timeout | undefined;
    const addresses = await (options.timeoutMs === undefined
      ? resolving
      : Promise.race([
          resolving,
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(Object.assign(new Error(`${bare} did not resolve within ${options.timeoutMs} ms`), { code: 'ETIMEOUT' })), options.timeoutMs);
            timer.unref();
          }),
        ]).finally(() => clearTimeout(timer)));
    for (const a of addresses) this.#assert(bare, a.address, port);
    return addresses.map((a) => a.address);
  }

  /**
   * What a connection to `host:port` is given: a `lookup` that judges what the name resolves
   * to. A literal address is judged now: throws DestinationRefusedError when refused.
   */
  connectOptions(host: string, port: number): { lookup: LookupFunction } {
    const bare = host.replace(/^\[(.*)\]$/, '$1');
    if (isIP(bare)) this.#assert(bare, bare, port);
    return { lookup: this.lookupFor(port) };
  }

  /**
   * A `lookup` for sockets to `port`: every address of the name is judged and the whole name
   * refused (DestinationRefusedError) when one is. Also called by dgram for literal addresses.
   */
  lookupFor(port: number): LookupFunction {
    return (hostname, options: LookupOptions | number | undefined, callback) => {
      const o: LookupOptions = typeof options === 'number' ? { family: options } : (options ?? {});
      this.#resolve(hostname, typeof o.family === 'number' ? o.family : o.family === 'IPv6' ? 6 : o.family === 'IPv4' ? 4 : 0).then(
        (addresses) => {
          try {
            for (const a of addresses) this.#assert(hostname, a.address, port);
          } catch (err) {
            callback(err as DestinationRefusedError, '', 0);
            return;
          }
          if (o.all) callback(null, addresses);
          else callback(null, addresses[0]!.address, addresses[0]!.family);
        },
        (err: NodeJS.ErrnoException) => callback(err, '', 0),
      );
    };
  }

  async #resolve(name: string, family: number): Promise<LookupAddress[]> {
    if (isIP(name)) return [{ address: name, family: isIP(name) }];
    const addresses = await (this.options.resolve ?? systemResolve)(name, family);
    if (addresses.length === 0) throw Object.assign(new Error(`${name} has no address`), { code: 'ENOTFOUND' });
    return addresses;
  }

  #assert(host: string, address: string, port: number): void {
    const name = isIP(host) ? undefined : host;
    const reason = this.refusal(address, port, name);
    if (!reason) return;
    const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    const what = name ? `it resolves to ${address}, ${REASON_TEXT[reason]}` : `${address} is ${REASON_TEXT[reason]}`;
    const how =
      reason === 'private'
        ? `private addresses are refused here; an operator allows one by listing it in ${this.options.setting}`
        : reason === 'own-listener'
          ? `an operator allows it only by listing it with its port in ${this.options.setting}`
          : `an operator allows it by listing it in ${this.options.setting}`;
    throw new DestinationRefusedError(`${this.options.purpose} may not reach ${target}: ${what} (${how})`, host, address, port, reason);
  }

  #covers(entry: AllowEntry, ip: Ip, name: string | undefined): boolean {
    if (entry.kind === 'block') return inBlock(ip, entry.block);
    if (name === undefined) return false;
    const n = name.toLowerCase().replace(/\.$/, '');
    return entry.subdomains ? n.endsWith(`.${entry.name}`) : n === entry.name;
  }

  #isOwnListener(ip: Ip, port: number): boolean {
    if ((this.options.platformSockets?.() ?? []).some((s) => s.port === port && this.#isListenAddress(s.host, ip))) return true;
    return (this.options.listeners?.() ?? []).some((l) => l.port === port && this.#isListenAddress(l.host, ip));
  }

  #isOwnAddress(ip: Ip): boolean {
    if ((this.options.listeners?.() ?? []).some((l) => this.#isListenAddress(l.host, ip))) return true;
    return (this.options.platformAddresses?.() ?? []).some((a) => sameIp(a, ip));
  }

  /** Whether a listener on `host` is reached at `ip` (a wildcard: at any address of this host). */
  #isListenAddress(host: string, ip: Ip): boolean {
    const bare = host.replace(/^\[(.*)\]$/, '$1');
    if (!WILDCARDS.has(bare)) return sameIp(bare, ip);
    // 0.0.0.0 takes IPv4 only; :: takes both (dual stack).
    if (bare === '0.0.0.0' && ip.v !== 4) return false;
    const cls = classOf(ip);
    if (cls === 'loopback' || cls === 'unspecified') return true;
    return (this.options.interfaces ?? hostAddresses)().some((a) => sameIp(a, ip));
  }
}

function sameIp(text: string, ip: Ip): boolean {
  const other = parseIp(text);
  if (!other) return false;
  const c = canonical(other);
  return c.v === ip.v && c.n === ip.n;
}
