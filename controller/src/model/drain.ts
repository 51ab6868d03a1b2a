/**
 * Log drains (cluster-api.md: Drain, DrainConfig): where a job's log lines are also sent.
 *
 *   { url: "syslog://<host>:<port>", conf: { priority, protocol: "tcp" | "udp" }, max_size }
 *
 * `drainInputSchema` and `parseDrainUrl` are the one check of a drain, used by the job body
 * (`drains`), POST /jobs/{uuid}/logs/drains and the manifests: the scheme is `syslog` only; the
 * host is a name or an address (IPv6 in brackets); the port 1-65535 is required; nothing else
 * (no user, path, query or fragment). A host name that does not resolve is accepted (DNS may
 * come later); the controller logs it and the drain counts its failed connections.
 */
import { parseDrainUrl } from '@platform/proto/common';
import { z } from 'zod';
import { int, str } from './validate.js';

export type Drain = {
  uuid: string;
  url: string;
  conf: { priority: number; protocol: 'tcp' | 'udp' };
  max_size: number;
};

export const DRAIN_DEFAULTS = { priority: 14, protocol: 'tcp', maxSize: 2048 } as const;
/** Bounds of `max_size`: a syslog message over TCP may be long, over UDP it must fit a datagram. */
export const DRAIN_MAX_SIZE = { min: 64, max: 64 * 1024 } as const;

export { parseDrainUrl, type DrainTarget } from '@platform/proto/common';

export const drainInputSchema = z.object({
  url: str(1024).superRefine((url, ctx) => {
    const r = parseDrainUrl(url);
    if ('error' in r) ctx.addIssue({ code: 'custom', message: r.error });
  }),
  conf: z.object({ priority: int(0, 191).optional(), protocol: z.enum(['tcp', 'udp']).optional() }).optional(),
  max_size: int(DRAIN_MAX_SIZE.min, DRAIN_MAX_SIZE.max).optional(),
});
export type DrainInput = z.output<typeof drainInputSchema>;

/** A drain as the API shows it (GET /jobs/{uuid}/logs/drains): defaults filled in, with its uuid. */
export const drainViewSchema = z.object({
  uuid: z.string(),
  url: z.string(),
  conf: z.object({ priority: z.number().int(), protocol: z.enum(['tcp', 'udp']) }),
  max_size: z.number().int(),
});

/** A drain with its defaults filled in. */
export function normalizeDrain(input: DrainInput, uuid: string): Drain & z.input<typeof drainViewSchema> {
  return {
    uuid,
    url: input.url,
    conf: { priority: input.conf?.priority ?? DRAIN_DEFAULTS.priority, protocol: input.conf?.protocol ?? DRAIN_DEFAULTS.protocol },
    max_size: input.max_size ?? DRAIN_DEFAULTS.maxSize,
  };
}

/** The drains of a job body: at most 64, one per url. */
export const drainsSchema = z
  .array(drainInputSchema)
  .max(64)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((d, i) => {
      if (seen.has(d.url)) ctx.addIssue({ code: 'custom', message: `${d.url} is given twice`, path: [i, 'url'] });
      seen.add(d.url);
    });
  });

/** A job's drains as the agents are told them (InstanceSpec.drains, JobDrains). */
export function drainSpecs(drains: readonly Drain[]): { uuid: string; url: string; priority: number; protocol: string; maxSize: number }[] {
  return drains.map((d) => ({ uuid: d.uuid, url: d.url, priority: d.conf.priority, protocol: d.conf.protocol, maxSize: d.max_size }));
}
