import test from 'ava';
import { HostPortError, formatHostPort, parseHostPort } from './host-port.js';

test('host:port: a host, an IPv6 host in brackets, or only a port (all interfaces)', (t) => {
  t.deepEqual(parseHostPort('127.0.0.1:8080', '--listen'), { host: '127.0.0.1', port: 8080 });
  t.deepEqual(parseHostPort('[::1]:0', '--listen'), { host: '::1', port: 0 });
  t.deepEqual(parseHostPort(':7070', '--grpc-listen'), { host: '0.0.0.0', port: 7070 });
  t.deepEqual(parseHostPort(' controller.local:7070 ', '--controller'), { host: 'controller.local', port: 7070 });
  t.is(formatHostPort({ host: '::1', port: 9 }), '[::1]:9');
  t.is(formatHostPort({ host: 'a', port: 9 }), 'a:9');
});

test('host:port: a missing or out-of-range port is refused with the name of what was parsed', (t) => {
  for (const bad of ['127.0.0.1', '127.0.0.1:65536', 'a:b', '::1:80', '[::1]', 'host:123456']) {
    const err = t.throws(() => parseHostPort(bad, '--listen'), { instanceOf: HostPortError });
    t.is(err?.message, `--listen: "${bad}" is not host:port`);
  }
});
