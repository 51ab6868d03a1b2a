/**
 * What instances on networks of their own are never opened to: the agent's own listening
 * sockets (its /metrics), whoever names them (a bound service's url, a gateway's back-end, a
 * link). The controller judges what users name; this holds on the host whatever it sends.
 */
import type { DestinationPolicy } from '@platform/proto/common';

/** `endpoints` ("host:port") without the agent's own sockets, and those taken out. */
export function withoutOwnSockets(endpoints: readonly string[], rule: Pick<DestinationPolicy, 'refusal'>): { kept: string[]; dropped: string[] } {
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const e of endpoints) {
    const at = e.lastIndexOf(':');
    const host = e.slice(0, at).replace(/^\[(.*)\]$/, '$1');
    const port = Number(e.slice(at + 1));
    if (at > 0 && Number.isInteger(port) && rule.refusal(host === 'localhost' ? '127.0.0.1' : host, port) === 'own-listener') dropped.push(e);
    else kept.push(e);
  }
  return { kept, dropped };
}
