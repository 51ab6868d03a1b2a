/** Formatting of sizes, times and durations for the pages. */

export function formatBytes(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/** `1d 2h`, `3h 4m`, `5m 6s`, `7s`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s % 60}s`;
  return `${s}s`;
}

/** A time as local `YYYY-MM-DD HH:MM:SS`. */
export function formatTime(t: string | number | undefined): string {
  if (t === undefined || t === '') return '';
  const d = typeof t === 'number' ? new Date(t * 1000) : new Date(t);
  if (Number.isNaN(d.getTime())) return String(t);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** The local name of an FQN (`job::/ns::web` -> `web`), or the FQN when it has none. */
export function localName(fqn: string): string {
  const parts = fqn.split('::');
  return parts.length >= 3 ? parts.slice(2).join('::') : fqn;
}

/** The namespace of an FQN (`job::/ns::web` -> `/ns`). */
export function namespaceOf(fqn: string): string {
  return fqn.split('::')[1] ?? '';
}
