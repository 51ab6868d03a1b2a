/**
 * IPv4 addresses and CIDR blocks, for virtual networks: the controller carves subnets out of its
 * pool and hands out addresses (networks/), the agent checks what it is told before it gives it
 * to `ip` (agent/src/network/). Strict: dotted quads of four decimal numbers 0-255 without
 * leading zeros, a prefix length 0-32, and (for a block) no host bits set.
 */

export class Ipv4Error extends Error {
  override readonly name = 'Ipv4Error';
}

export interface Cidr {
  /** The block's first address as an unsigned 32-bit number. */
  base: number;
  prefix: number;
}

const QUAD = /^(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})$/;

/** `10.1.2.3` as an unsigned 32-bit number; throws Ipv4Error otherwise. */
export function parseIpv4(text: string): number {
  const m = QUAD.exec(text);
  if (!m) throw new Ipv4Error(`"${text}" is not an IPv4 address`);
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) throw new Ipv4Error(`"${text}" is not an IPv4 address (a part is above 255)`);
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!;
}

export function formatIpv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** The mask of a prefix length, unsigned. */
export function prefixMask(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

/** `10.224.0.0/12`; throws Ipv4Error for a malformed block or one with host bits set. */
export function parseCidr(text: string): Cidr {
  const slash = text.indexOf('/');
  if (slash < 0) throw new Ipv4Error(`"${text}" is not a CIDR block (expected address/prefix, e.g. 10.224.0.0/12)`);
  const prefixText = text.slice(slash + 1);
  if (!/^(0|[1-9]\d?)$/.test(prefixText) || Number(prefixText) > 32) throw new Ipv4Error(`"${text}": the prefix length must be 0-32`);
  const prefix = Number(prefixText);
  const base = parseIpv4(text.slice(0, slash));
  if ((base & ~prefixMask(prefix)) >>> 0 !== 0) {
    throw new Ipv4Error(`"${text}" has host bits set (the block is ${formatCidr({ base: (base & prefixMask(prefix)) >>> 0, prefix })})`);
  }
  return { base, prefix };
}

export function formatCidr(c: Cidr): string {
  return `${formatIpv4(c.base)}/${c.prefix}`;
}

/** How many addresses the block holds. */
export function cidrSize(c: Cidr): number {
  return 2 ** (32 - c.prefix);
}

export function cidrContains(c: Cidr, address: number): boolean {
  return ((address & prefixMask(c.prefix)) >>> 0) === c.base;
}

export function cidrsOverlap(a: Cidr, b: Cidr): boolean {
  const prefix = Math.min(a.prefix, b.prefix);
  const mask = prefixMask(prefix);
  return ((a.base & mask) >>> 0) === ((b.base & mask) >>> 0);
}

/** A multicast block (224.0.0.0/4) or one inside it. */
export function isMulticastCidr(c: Cidr): boolean {
  return c.prefix >= 4 && c.base >>> 28 === 0xe;
}
