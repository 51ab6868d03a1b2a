/**
 * The outbound network service (cluster-api.md, deploy step 10): a built-in service of type
 * `network`. Binding a job to it opens what the binding's parameters say, for the job's
 * instances in networks of their own (the agents refuse everything else outside them):
 *
 *   ipnet       a CIDR ("192.0.2.0/24", "198.51.100.7" = /32)     one of ipnet and domainname
 *   domainname  a host name, resolved by the agent and followed as its addresses change
 *   portrange   "all" (default), "443" or "8000-8100"
 *   protocol    "tcp", "udp" or "all" (default)
 *
 * The binding has no gateway behind it and puts nothing in the environment; it is not part of
 * the run shape: binding and unbinding change what the running instances reach, live (JobEgress).
 */
import type { EgressRule } from '@platform/proto';
import { Ipv4Error, parseCidr } from '@platform/proto/common';
import type { Job, JobBinding } from './job.js';

export const OUTBOUND_SERVICE_TYPE = 'network';
export const OUTBOUND_SERVICE_FQN = 'service::/platform::outbound-network';

/** The parameters a binding to the outbound network service takes. */
export const OUTBOUND_PARAMETERS = ['ipnet', 'domainname', 'portrange', 'protocol'] as const;

const HOST_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.?$/i;

/** Why `parameters` do not make an opening (undefined: they do), in the words of a 400. */
export function outboundParameterError(parameters: Record<string, unknown> | undefined): string | undefined {
  const p = parameters ?? {};
  for (const key of Object.keys(p)) {
    if (!(OUTBOUND_PARAMETERS as readonly string[]).includes(key)) return `parameters.${key}: the outbound network service takes ${OUTBOUND_PARAMETERS.join(', ')}`;
  }
  for (const key of OUTBOUND_PARAMETERS) if (p[key] !== undefined && typeof p[key] !== 'string') return `parameters.${key}: must be a string`;
  const ipnet = p['ipnet'] as string | undefined;
  const domainname = p['domainname'] as string | undefined;
  if ((ipnet === undefined) === (domainname === undefined)) return 'parameters: give one of ipnet (a CIDR) and domainname (a host name)';
  if (ipnet !== undefined) {
    try {
      parseCidr(ipnet.includes('/') ? ipnet : `${ipnet}/32`);
    } catch (err) {
      if (!(err instanceof Ipv4Error)) throw err;
      return `parameters.ipnet: "${ipnet}" is not an IPv4 CIDR (${err.message})`;
    }
  }
  if (domainname !== undefined && !HOST_NAME.test(domainname)) return `parameters.domainname: "${domainname}" is not a host name`;
  const range = p['portrange'] as string | undefined;
  if (range !== undefined && portRange(range) === undefined) return `parameters.portrange: "${range}" is not "all", a port (1-65535) or a range such as 8000-8100`;
  const protocol = p['protocol'] as string | undefined;
  if (protocol !== undefined && !['tcp', 'udp', 'all'].includes(protocol)) return `parameters.protocol: "${protocol}" is not tcp, udp or all`;
  return undefined;
}

/** [first, last] of a portrange ([0, 0]: all); undefined when it is not one. */
function portRange(text: string): [number, number] | undefined {
  if (text === 'all') return [0, 0];
  const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(text);
  if (!m) return undefined;
  const first = Number(m[1]);
  const last = m[2] === undefined ? first : Number(m[2]);
  return first >= 1 && last <= 65535 && first <= last ? [first, last] : undefined;
}

/** Whether a job's binding is one to the outbound network service. */
export function isOutboundBinding(b: JobBinding): boolean {
  return b.service_fqn === OUTBOUND_SERVICE_FQN;
}

/** The openings of `job`'s bindings to the outbound network service, as the agents apply them. */
export function egressRules(job: Pick<Job, 'bindings'>): EgressRule[] {
  const rules: EgressRule[] = [];
  for (const key of Object.keys(job.bindings).sort()) {
    const b = job.bindings[key]!;
    if (!isOutboundBinding(b) || outboundParameterError(b.parameters) !== undefined) continue;
    const p = (b.parameters ?? {}) as Record<string, string | undefined>;
    const [first, last] = portRange(p['portrange'] ?? 'all')!;
    rules.push({
      ...(p['ipnet'] !== undefined ? { ipnet: p['ipnet'].includes('/') ? p['ipnet'] : `${p['ipnet']}/32` } : {}),
      ...(p['domainname'] !== undefined ? { domainname: p['domainname'].toLowerCase().replace(/\.$/, '') } : {}),
      portFirst: first,
      portLast: last,
      protocol: p['protocol'] ?? 'all',
    });
  }
  return rules;
}
