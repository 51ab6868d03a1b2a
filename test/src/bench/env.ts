/** Benchmark settings from the environment: a positive whole number, or `fallback` when unset. */
export function envCount(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name}="${raw}" is not a positive integer`);
  return n;
}
