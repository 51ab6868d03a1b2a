import test from 'ava';
import { parseDrainUrl } from './drain.js';

test('drains: urls: syslog://host:port only', (t) => {
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
