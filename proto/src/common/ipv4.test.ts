import test from 'ava';
import { Ipv4Error, cidrContains, cidrsOverlap, formatCidr, formatIpv4, isMulticastCidr, parseCidr, parseIpv4 } from './ipv4.js';

test('ipv4: addresses parse strictly and format back', (t) => {
  t.is(parseIpv4('10.224.1.2'), 0x0ae00102);
  t.is(parseIpv4('255.255.255.255'), 0xffffffff);
  t.is(formatIpv4(parseIpv4('192.168.0.1')), '192.168.0.1');
  for (const bad of ['10.0.0', '10.0.0.256', '010.0.0.1', '1.2.3.4 ', 'a.b.c.d', '', '1.2.3.4/8']) t.throws(() => parseIpv4(bad), { instanceOf: Ipv4Error }, bad);
});

test('ipv4: CIDR blocks refuse host bits and bad prefixes; overlap and containment', (t) => {
  const pool = parseCidr('10.224.0.0/12');
  t.deepEqual(pool, { base: 0x0ae00000, prefix: 12 });
  t.is(formatCidr(pool), '10.224.0.0/12');
  t.throws(() => parseCidr('10.224.0.1/12'), { message: /host bits set \(the block is 10\.224\.0\.0\/12\)/ });
  for (const bad of ['10.0.0.0', '10.0.0.0/33', '10.0.0.0/012', '10.0.0.0/', '10.0.0.0/x']) t.throws(() => parseCidr(bad), { instanceOf: Ipv4Error }, bad);
  t.true(cidrsOverlap(pool, parseCidr('10.230.5.0/24')));
  t.false(cidrsOverlap(pool, parseCidr('10.240.0.0/24')));
  t.true(cidrsOverlap(parseCidr('0.0.0.0/0'), parseCidr('1.2.3.4/32')));
  t.true(cidrContains(parseCidr('10.1.2.0/24'), parseIpv4('10.1.2.255')));
  t.false(cidrContains(parseCidr('10.1.2.0/24'), parseIpv4('10.1.3.0')));
  t.true(isMulticastCidr(parseCidr('239.1.0.0/16')));
  t.false(isMulticastCidr(parseCidr('224.0.0.0/3')));
  t.false(isMulticastCidr(parseCidr('10.0.0.0/8')));
});
