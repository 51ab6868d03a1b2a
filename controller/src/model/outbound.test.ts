import test from 'ava';
import type { JobBinding } from './job.js';
import { egressRules, isOutboundBinding, OUTBOUND_SERVICE_FQN, outboundParameterError } from './outbound.js';

test('outbound: parameters that make an opening, and the 400 message of those that do not', (t) => {
  for (const ok of [
    { ipnet: '198.51.100.0/24' },
    { ipnet: '198.51.100.7' },
    { ipnet: '0.0.0.0/0', portrange: 'all', protocol: 'all' },
    { domainname: 'api.example.com', portrange: '443', protocol: 'tcp' },
    { domainname: 'example.com.', portrange: '8000-8100', protocol: 'udp' },
  ]) {
    t.is(outboundParameterError(ok), undefined, JSON.stringify(ok));
  }
  const bad: [Record<string, unknown> | undefined, RegExp][] = [
    [undefined, /one of ipnet .* and domainname/],
    [{ ipnet: '198.51.100.0/24', domainname: 'x.example' }, /one of ipnet/],
    [{ ipnet: '198.51.100.1/24' }, /host bits/],
    [{ ipnet: '300.1.1.1' }, /not an IPv4 CIDR/],
    [{ ipnet: 7 }, /parameters.ipnet: must be a string/],
    [{ domainname: 'no spaces.example' }, /not a host name/],
    [{ domainname: '-bad.example' }, /not a host name/],
    [{ ipnet: '10.0.0.0/8', portrange: '0' }, /portrange/],
    [{ ipnet: '10.0.0.0/8', portrange: '9-8' }, /portrange/],
    [{ ipnet: '10.0.0.0/8', portrange: '70000' }, /portrange/],
    [{ ipnet: '10.0.0.0/8', protocol: 'icmp' }, /protocol/],
    [{ ipnet: '10.0.0.0/8', colour: 'red' }, /parameters.colour: the outbound network service takes ipnet, domainname, portrange, protocol/],
  ];
  for (const [parameters, message] of bad) t.regex(outboundParameterError(parameters) ?? '', message, JSON.stringify(parameters));
});

test('outbound: a job\'s openings come from its bindings to the outbound network service alone, in binding order', (t) => {
  const b = (fqn: string, service: string, parameters: Record<string, string>): [string, JobBinding] => [fqn, { name: fqn, uuid: fqn, fqn, job_fqn: 'job::/a::j', env_var: [], parameters, service_fqn: service }];
  const job = {
    bindings: Object.fromEntries([
      b('binding::/a::2', OUTBOUND_SERVICE_FQN, { domainname: 'API.Example.com.', portrange: '443', protocol: 'tcp' }),
      b('binding::/a::1', OUTBOUND_SERVICE_FQN, { ipnet: '198.51.100.7' }),
      b('binding::/a::3', 'service::/a::db', { ipnet: '10.0.0.0/8' }),
      b('binding::/a::4', OUTBOUND_SERVICE_FQN, { ipnet: '10.0.0.0/8', portrange: '8000-8100', protocol: 'udp' }),
    ]),
  };
  t.deepEqual(egressRules(job), [
    { ipnet: '198.51.100.7/32', portFirst: 0, portLast: 0, protocol: 'all' },
    { domainname: 'api.example.com', portFirst: 443, portLast: 443, protocol: 'tcp' },
    { ipnet: '10.0.0.0/8', portFirst: 8000, portLast: 8100, protocol: 'udp' },
  ]);
  t.true(isOutboundBinding(job.bindings['binding::/a::1']!));
  t.false(isOutboundBinding(job.bindings['binding::/a::3']!));
});
