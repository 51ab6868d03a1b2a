/**
 * The quotas of the policy language: their names, what each limits, and how their values are
 * written. The parser checks a value with `parseQuotaValue` (a typo is a parse error, not a
 * quota that never holds); the engine answers which quotas apply to a namespace
 * (`PolicyEngine.quotasFor`); quotas/ enforces them.
 *
 *   total.memory, total.disk   bytes, summed over the started jobs of the namespace (and below):
 *                              num_instances x resources.memory (disk)
 *   total.cpu                  ms of CPU per second, summed the same way (resources.cpu)
 *   total.network              bits per second, summed the same way (resources.network)
 *   total.instances            instances, summed the same way (num_instances)
 *   max.memory, max.disk,      the largest resources.memory (disk, cpu) one instance of a job
 *   max.cpu                    in the namespace may have
 *   max.instances              the largest num_instances of one job in the namespace
 *
 * Sizes take B, K/KB/KiB, M/MB/MiB, G/GB/GiB, T/TB/TiB, all powers of 1024 (as the job's
 * resources are: 256 MiB is 268435456); rates bps, Kbps, Mbps, Gbps, powers of 1000; cpu plain
 * or with `ms`; instances a whole number.
 */
export const QUOTA_NAMES = [
  'total.memory',
  'total.disk',
  'total.cpu',
  'total.network',
  'total.instances',
  'max.memory',
  'max.disk',
  'max.cpu',
  'max.instances',
] as const;

export type QuotaName = (typeof QUOTA_NAMES)[number];

export function isQuotaName(name: string): name is QuotaName {
  return (QUOTA_NAMES as readonly string[]).includes(name);
}

/** The job figure a quota limits (per instance for memory, disk, cpu and network). */
export type QuotaMeasure = 'memory' | 'disk' | 'cpu' | 'network' | 'instances';

export function quotaMeasure(name: QuotaName): QuotaMeasure {
  return name.slice(name.indexOf('.') + 1) as QuotaMeasure;
}

/** `total.*` limits a namespace's sum; `max.*` one job. */
export function quotaKind(name: QuotaName): 'total' | 'max' {
  return name.startsWith('total.') ? 'total' : 'max';
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1024 ** 4,
  tib: 1024 ** 4,
};
const RATE_UNITS: Record<string, number> = { '': 1, bps: 1, kbps: 1e3, mbps: 1e6, gbps: 1e9 };
const CPU_UNITS: Record<string, number> = { '': 1, ms: 1 };

/** What a value of `name` should look like, for messages. */
export function quotaValueHint(name: QuotaName): string {
  switch (quotaMeasure(name)) {
    case 'memory':
    case 'disk':
      return 'a size such as 512MB, 2GB or 1.5GiB';
    case 'network':
      return 'a rate such as 100Mbps or 1Gbps';
    case 'cpu':
      return 'milliseconds of CPU per second such as 2000 (two cores)';
    case 'instances':
      return 'a whole number such as 5';
  }
}

/** The amount `text` stands for in the unit of `name` (bytes, bits per second, ms/s, instances); undefined when it is not one. */
export function parseQuotaValue(name: QuotaName, text: string): number | undefined {
  const m = /^\s*(\d{1,15}(?:\.\d{1,9})?)\s*([A-Za-z]*)\s*$/.exec(text);
  if (!m) return undefined;
  const measure = quotaMeasure(name);
  const units = measure === 'memory' || measure === 'disk' ? SIZE_UNITS : measure === 'network' ? RATE_UNITS : measure === 'cpu' ? CPU_UNITS : { '': 1 };
  const factor = units[m[2]!.toLowerCase()];
  if (factor === undefined) return undefined;
  const amount = Math.round(Number(m[1]) * factor);
  if (measure === 'instances' && !/^\d+$/.test(m[1]!)) return undefined;
  return Number.isSafeInteger(amount) ? amount : undefined;
}

/** An amount of `name` as people read it: `1.5 GiB`, `100 Mbps`, `2000 ms/s`, `5`. */
export function formatQuotaAmount(name: QuotaName, amount: number): string {
  switch (quotaMeasure(name)) {
    case 'memory':
    case 'disk': {
      const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
      let v = amount;
      let i = 0;
      while (Math.abs(v) >= 1024 && i < units.length - 1) {
        v /= 1024;
        i++;
      }
      return `${Number.isInteger(v) ? v : v.toFixed(2).replace(/\.?0+$/, '')} ${units[i]}`;
    }
    case 'network': {
      const units: [number, string][] = [[1e9, 'Gbps'], [1e6, 'Mbps'], [1e3, 'Kbps']];
      for (const [f, u] of units) if (Math.abs(amount) >= f) return `${(amount / f).toFixed(2).replace(/\.?0+$/, '')} ${u}`;
      return `${amount} bps`;
    }
    case 'cpu':
      return `${amount} ms/s`;
    case 'instances':
      return String(amount);
  }
}
