/**
 * The metric query language (cluster-api.md, Metrics):
 *
 *   <target>,<metric name>[:<function>-<interval>][,<from>[,<until>]]
 *
 * Times: relative (`-` number unit: s, min, h, d, w, mon = 30 d, y = 365 d), `now`, absolute
 * (`HH:MM_YYMMDD`, `YYYYMMDD`, `MM/DD/YY`), or the at(1) forms below. No parser on npm covers
 * at(1)'s grammar (teatime, `now + 2 hours`, `noon tomorrow`), so this is a small hand parser,
 * in UTC (the controller's clock), of these forms:
 *
 *   [time] [date] [+ N unit]     time: HH:MM, HHMM, H[am|pm], HH:MM[am|pm], noon, midnight, teatime
 *                                date: today, tomorrow, YYYY-MM-DD, MM/DD/YY[YY], DD.MM.YY[YY],
 *                                      <month name> DD [YYYY]
 *                                unit: minute(s), hour(s), day(s), week(s), month(s), year(s)
 *   now [+ N unit]
 *
 * As in at(1), a time of day without a date that has already passed today means tomorrow.
 * An error names the part that could not be read (QueryError).
 */
export class QueryError extends Error {
  override readonly name = 'QueryError';
}

export const FUNCTIONS = ['avg', 'last', 'max', 'min', 'sum'] as const;
export type DownsampleFn = (typeof FUNCTIONS)[number];

const REL_UNITS: Record<string, number> = { s: 1, min: 60, h: 3600, d: 86_400, w: 604_800, mon: 30 * 86_400, y: 365 * 86_400 };
const AT_UNITS: Record<string, number> = {
  minute: 60, minutes: 60, min: 60, mins: 60, hour: 3600, hours: 3600, day: 86_400, days: 86_400, week: 604_800, weeks: 604_800,
  month: 30 * 86_400, months: 30 * 86_400, year: 365 * 86_400, years: 365 * 86_400,
};
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A duration such as `1h`, `30s`, `5min`, `2d` (the relative units): seconds. */
export function parseInterval(text: string): number {
  const m = /^(\d+)(s|min|h|d|w|mon|y)$/.exec(text);
  if (!m) throw new QueryError(`"${text}" is not an interval: a number and one of s, min, h, d, w, mon, y`);
  const s = Number(m[1]) * REL_UNITS[m[2]!]!;
  if (s <= 0) throw new QueryError(`interval "${text}" must be positive`);
  return s;
}

const utc = (y: number, mo: number, d: number, h = 0, mi = 0): number => {
  const ms = Date.UTC(y, mo - 1, d, h, mi);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59) {
    throw new QueryError(`${y}-${mo}-${d} ${h}:${mi} is not a date and time`);
  }
  return ms / 1000;
};
const year2 = (yy: number): number => (yy < 70 ? 2000 + yy : 1900 + yy);

/** A time of the language: UNIX seconds. */
export function parseTime(raw: string, nowS: number): number {
  const text = raw.trim();
  if (text === '') throw new QueryError('empty time');
  if (text === 'now') return nowS;
  let m = /^-(\d+)(s|min|h|d|w|mon|y)$/.exec(text);
  if (m) return nowS - Number(m[1]) * REL_UNITS[m[2]!]!;
  m = /^(\d{2}):(\d{2})_(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (m) return utc(year2(Number(m[3])), Number(m[4]), Number(m[5]), Number(m[1]), Number(m[2]));
  m = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (m) return utc(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{2})$/.exec(text);
  if (m) return utc(year2(Number(m[3])), Number(m[1]), Number(m[2]));
  return parseAt(text, nowS);
}

/** The at(1) forms. */
function parseAt(text: string, nowS: number): number {
  const fail = (why: string): never => {
    throw new QueryError(`"${text}" is not a time: ${why}`);
  };
  // Tokens: words, numbers with : . / - inside, '+'.
  const tokens = text.toLowerCase().replace(/\+/g, ' + ').split(/\s+/).filter(Boolean);
  let i = 0;
  const now = new Date(nowS * 1000);
  const today = utc(now.getUTCFullYear(), now.getUTCMonth() + 1, now.getUTCDate());
  let timeOfDay: number | undefined;
  let date: number | undefined;
  let base: number | undefined;
  const tok = () => tokens[i];
  // time or `now`
  const t = tok();
  if (t === 'now') {
    base = nowS;
    i++;
  } else if (t === 'noon') {
    timeOfDay = 12 * 3600;
    i++;
  } else if (t === 'midnight') {
    timeOfDay = 0;
    i++;
  } else if (t === 'teatime') {
    timeOfDay = 16 * 3600;
    i++;
  } else if (t !== undefined) {
    const m = /^(\d{1,2})(?::?(\d{2}))?(am|pm)?$/.exec(t);
    if (m && (m[2] !== undefined || m[3] !== undefined || (tokens[i + 1] === 'am' || tokens[i + 1] === 'pm'))) {
      let h = Number(m[1]);
      const mi = Number(m[2] ?? 0);
      let suffix = m[3];
      i++;
      if (!suffix && (tok() === 'am' || tok() === 'pm')) suffix = tokens[i++];
      if (suffix) {
        if (h < 1 || h > 12) fail(`hour ${h} with ${suffix}`);
        h = (h % 12) + (suffix === 'pm' ? 12 : 0);
      }
      if (h > 23 || mi > 59) fail(`${t} is not a time of day`);
      timeOfDay = h * 3600 + mi * 60;
    } else if (/^\d{4}$/.test(t)) {
      const h = Number(t.slice(0, 2));
      const mi = Number(t.slice(2));
      if (h > 23 || mi > 59) fail(`${t} is not a time of day`);
      timeOfDay = h * 3600 + mi * 60;
      i++;
    }
  }
  // date
  if (base === undefined) {
    const d = tok();
    if (d === 'today') {
      date = today;
      i++;
    } else if (d === 'tomorrow') {
      date = today + 86_400;
      i++;
    } else if (d !== undefined && d !== '+') {
      let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(d);
      if (m) {
        date = utc(Number(m[1]), Number(m[2]), Number(m[3]));
        i++;
      } else if ((m = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(d))) {
        date = utc(m[3]!.length === 2 ? year2(Number(m[3])) : Number(m[3]), Number(m[1]), Number(m[2]));
        i++;
      } else if ((m = /^(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})$/.exec(d))) {
        date = utc(m[3]!.length === 2 ? year2(Number(m[3])) : Number(m[3]), Number(m[2]), Number(m[1]));
        i++;
      } else if (MONTHS.includes(d.slice(0, 3)) && /^[a-z]+$/.test(d)) {
        const month = MONTHS.indexOf(d.slice(0, 3)) + 1;
        i++;
        const day = Number(tok()?.replace(/,$/, ''));
        if (!Number.isInteger(day)) fail(`a day of the month must follow ${d}`);
        i++;
        let y = now.getUTCFullYear();
        if (/^\d{4}$/.test(tok() ?? '')) y = Number(tokens[i++]);
        date = utc(y, month, day);
      }
    }
    if (timeOfDay === undefined && date === undefined) fail('expected now, a time of day (HH:MM, noon, midnight, teatime) or a date');
    if (date === undefined) {
      date = today;
      // at(1): a time already past today is tomorrow's.
      if (today + timeOfDay! <= nowS) date += 86_400;
    }
    base = date + (timeOfDay ?? 0);
  }
  // increment
  if (tok() === '+') {
    i++;
    const n = Number(tok());
    if (!Number.isInteger(n) || n < 0) fail('a whole number must follow "+"');
    i++;
    const unit = tok();
    const secs = unit === undefined ? undefined : AT_UNITS[unit];
    if (secs === undefined) fail(`"${unit ?? ''}" is not a unit (minutes, hours, days, weeks, months, years)`);
    i++;
    base += n * secs!;
  }
  if (i < tokens.length) fail(`unexpected "${tokens[i]}"`);
  return base;
}

export type Aggregate = 'sum' | 'mean' | 'count' | 'value';

export interface MetricQuery {
  /** The query as given: the key of its answer. */
  text: string;
  target: string;
  field: string;
  aggregate: Aggregate;
  downsample?: { fn: DownsampleFn; intervalS: number };
  fromS: number;
  untilS: number;
}

export const JOB_METRICS = [
  'cpu', 'mem_total', 'mem_used', 'disk_total', 'disk_used', 'bandwidth_total', 'bandwidth_used', 'network_rx', 'network_tx',
  'requests_per_second', 'request_errors_per_second', 'request_latency',
];
export const MANAGER_METRICS = ['bandwidth_total', 'bandwidth_used', 'cpu', 'disk_total', 'disk_used', 'mem_total', 'mem_used'];

/**
 * Parses one `metric` parameter. `suffixed`: job and namespace metrics need `.sum`, `.mean` or
 * `.count`; instance manager metrics take none. An omitted `from` is 24 h ago, `until` now.
 */
export function parseMetricQuery(text: string, nowS: number, suffixed: boolean): MetricQuery {
  const parts = text.split(',');
  if (parts.length < 2 || parts.length > 4) throw new QueryError(`"${text}" is not <target>,<metric>[:<function>-<interval>][,<from>[,<until>]]`);
  const [target, metricPart, from, until] = parts.map((p) => p.trim()) as [string, string, string | undefined, string | undefined];
  if (target === '') throw new QueryError('the target is empty');
  const [name, down, extra] = metricPart.split(':');
  if (extra !== undefined) throw new QueryError(`"${metricPart}" has more than one ":"`);
  let field = name!;
  let aggregate: Aggregate = 'value';
  const names = suffixed ? JOB_METRICS : MANAGER_METRICS;
  if (suffixed) {
    const m = /^([a-z_]+)\.(sum|mean|count)$/.exec(name!);
    if (!m) throw new QueryError(`metric "${name}" must be one of ${names.join(', ')} followed by .sum, .mean or .count`);
    field = m[1]!;
    aggregate = m[2] as Aggregate;
  }
  if (!names.includes(field)) throw new QueryError(`"${field}" is not a metric: one of ${names.join(', ')}`);
  let downsample: MetricQuery['downsample'];
  if (down !== undefined) {
    const dash = down.indexOf('-');
    const fn = down.slice(0, dash);
    if (dash < 0 || !(FUNCTIONS as readonly string[]).includes(fn)) throw new QueryError(`"${down}" is not <function>-<interval> with a function of ${FUNCTIONS.join(', ')}`);
    downsample = { fn: fn as DownsampleFn, intervalS: parseInterval(down.slice(dash + 1)) };
  }
  const fromS = from === undefined || from === '' ? nowS - 86_400 : parseTime(from, nowS);
  const untilS = until === undefined || until === '' ? nowS : parseTime(until, nowS);
  if (fromS > untilS) throw new QueryError(`from (${new Date(fromS * 1000).toISOString()}) is after until (${new Date(untilS * 1000).toISOString()})`);
  return { text, target, field, aggregate, ...(downsample ? { downsample } : {}), fromS, untilS };
}

export interface Series {
  times: number[];
  values: number[];
}

/**
 * Down-samples `points` (time ascending) into buckets of `intervalS` rounded to the interval;
 * every bucket from `fromS` to `untilS` is present, empty ones (and null values) as 0.
 */
export function downsample(points: readonly { t: number; v: number | null }[], fn: DownsampleFn, intervalS: number, fromS: number, untilS: number): Series {
  const first = Math.floor(fromS / intervalS) * intervalS;
  const buckets = new Map<number, number[]>();
  for (const p of points) {
    const b = Math.floor(p.t / intervalS) * intervalS;
    const list = buckets.get(b) ?? [];
    list.push(p.v ?? 0);
    buckets.set(b, list);
  }
  const times: number[] = [];
  const values: number[] = [];
  for (let b = first; b <= untilS; b += intervalS) {
    const vs = buckets.get(b);
    times.push(b);
    if (!vs || vs.length === 0) {
      values.push(0);
      continue;
    }
    switch (fn) {
      case 'avg':
        values.push(vs.reduce((a, x) => a + x, 0) / vs.length);
        break;
      case 'sum':
        values.push(vs.reduce((a, x) => a + x, 0));
        break;
      case 'max':
        values.push(Math.max(...vs));
        break;
      case 'min':
        values.push(Math.min(...vs));
        break;
      case 'last':
        values.push(vs[vs.length - 1]!);
        break;
    }
  }
  return { times, values };
}
