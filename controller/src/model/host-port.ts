/** A listen or dial address. */
export interface HostPort {
  host: string;
  port: number;
}

/** Parses `host:port`, `[v6]:port` or `:port` (all interfaces). */
export function parseHostPort(text: string, what: string): HostPort {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) throw new Error(`${what}: "${text}" is not host:port`);
  return { host: m[1] ?? (m[2] || '0.0.0.0'), port };
}
