/** A listen or dial address. */
export interface HostPort {
  host: string;
  port: number;
}

/** Bad `host:port` text; the message names what was being parsed. */
export class HostPortError extends Error {
  override readonly name = 'HostPortError';
}

/**
 * Parses `host:port`, `[v6]:port` or `:port` (all interfaces, 0.0.0.0), with a port 0..65535.
 * `what` (a flag name, say) starts the error message.
 */
export function parseHostPort(text: string, what: string): HostPort {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) throw new HostPortError(`${what}: "${text}" is not host:port`);
  return { host: m[1] ?? (m[2] || '0.0.0.0'), port };
}

/** `host:port`, with brackets around an IPv6 host. */
export function formatHostPort(address: HostPort): string {
  return address.host.includes(':') ? `[${address.host}]:${address.port}` : `${address.host}:${address.port}`;
}
