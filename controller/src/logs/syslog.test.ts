import test from 'ava';
import { parseDrainUrl } from '../model/drain.js';
import { formatSyslog } from './syslog.js';

const base = { priority: 14, timeMs: Date.UTC(2026, 10, 23, 12, 0, 0, 5), hostname: 'ctl', appName: 'job-uuid', procId: 'inst uuid', msgId: 'stdout', maxBytes: 2048 };

test('syslog: an RFC 5424 message with structured data; fields printable; cut to max bytes on a character boundary', (t) => {
  const m = formatSyslog({ ...base, data: { job: 'job::/a::"x"]' }, message: 'hello' }).toString();
  t.is(m, '<14>1 2026-11-23T12:00:00.005Z ctl job-uuid inst_uuid stdout [platform@32473 job="job::/a::\\"x\\"\\]"] hello');
  const plain = formatSyslog({ ...base, message: 'é'.repeat(100), maxBytes: 60 });
  t.true(plain.length <= 60);
  t.notThrows(() => new TextDecoder('utf-8', { fatal: true }).decode(plain), 'no broken character at the end');
  t.regex(formatSyslog({ ...base, appName: '', message: 'x' }).toString(), / ctl - inst_uuid /, 'an empty field is the NILVALUE');
});

test('syslog: drain urls: syslog://host:port only', (t) => {
  t.deepEqual(parseDrainUrl('syslog://logs.example.com:514'), { host: 'logs.example.com', port: 514 });
  t.deepEqual(parseDrainUrl('syslog://[::1]:6514'), { host: '::1', port: 6514 });
  t.deepEqual(parseDrainUrl('SYSLOG://10.0.0.1:1'), { host: '10.0.0.1', port: 1 });
  for (const [url, why] of [
    ['http://x:1', /scheme "http"/],
    ['syslog://x', /no port/],
    ['syslog://x:0', /1-65535/],
    ['syslog://x:65536', /1-65535/],
    ['syslog://u@x:1', /without user/],
    ['syslog://x:1/p', /without user, path/],
    ['syslog://999.1.1.1:1', /not a host/],
    ['syslog://[zz]:1', /without user|not a host/],
    ['syslog://-x:1', /not a host/],
  ] as const) {
    const r = parseDrainUrl(url);
    t.true('error' in r && why.test(r.error), `${url}: ${JSON.stringify(r)}`);
  }
});
