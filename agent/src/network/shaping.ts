/**
 * The `network` floors of the instances on networks of their own, with tc: the bandwidth they
 * share (the agent's --instance-bandwidth, a little under the host's uplink) is divided by an
 * HTB on each direction of the agent's bridge, a class per instance whose rate is its floor and
 * whose ceiling is its netmax (or the whole bandwidth); what one instance leaves unused the
 * others borrow, in equal parts.
 *
 *   to the instances    root HTB of the bridge itself (packets routed to an instance leave the
 *                       host through it), classified by destination address
 *   from the instances  the ingress of each instance's veth (host end) redirected to an ifb
 *                       device of the agent's (`plq<ag>own`), whose root HTB classifies by
 *                       source address: this is where what an instance sends (to the host, or
 *                       out through the uplink) queues, before NAT. The ifb device gives each
 *                       packet back to the veth, which passes it to the bridge as before (a
 *                       redirect from the bridge's own ingress would hand it back to the bridge
 *                       as the input device and lose the answers to connections the host makes
 *                       from its loopback to forwarded ports)
 *
 * Classification is a u32 hash on the address's last byte (one lookup whatever the number of
 * instances): the instance at offset o of the subnet gets class 1:<o + 16>, filter
 * 2:<its address's last byte>:<(o >> 8) + 1>. Class 1:1 holds the bandwidth, 1:2 what matches no instance
 * (ARP and the like). Each class has a FIFO leaf of about 50 ms of its ceiling.
 *
 * The host needs sch_htb, sch_ingress, cls_u32, act_mirred and ifb: the agent
 * tries them at start in a namespace of its own (probeShaping) and says when one is missing.
 */
import type { Cidr } from '@platform/proto/common';
import { formatIpv4, parseIpv4 } from '@platform/proto/common';
import { run, tool } from './commands.js';

/** The bytes a class may send each round when borrowing (the same for all: the excess is shared equally). */
const QUANTUM = 15_140;
/** The floor of the class of what matches no instance. */
const OTHER_RATE = 64_000;
/** The smallest rate HTB is given (bits per second). */
const MIN_RATE = 8_000;

/** A FIFO of about 50 ms at `ceil` (in 1514-byte frames), 32 to 1000 of them. */
function fifoLimit(ceil: number): number {
  return Math.min(1000, Math.max(32, Math.round((ceil * 0.05) / (1514 * 8))));
}

/** The class and filter handles of the instance at `address` in `subnet` (undefined: none fits). */
export function instanceHandles(subnet: Cidr, address: string): { minor: string; filter: string; bucket: string } | undefined {
  const offset = (parseIpv4(address) - subnet.base) >>> 0;
  const size = 2 ** (32 - subnet.prefix);
  if (offset < 1 || offset >= size || offset + 16 > 0xffff || (offset >> 8) + 1 > 0xfff) return undefined;
  // The hash key is the address's last byte (the bucket), whatever the subnet's size.
  const bucket = (parseIpv4(address) & 0xff).toString(16);
  return { minor: (offset + 16).toString(16), bucket, filter: `2:${bucket}:${((offset >> 8) + 1).toString(16)}` };
}

/** The two devices and what each classifies on (ip dst at byte 16, ip src at byte 12). */
function directions(bridge: string, ifb: string): { dev: string; match: 'dst' | 'src'; at: number }[] {
  return [
    { dev: bridge, match: 'dst', at: 16 },
    { dev: ifb, match: 'src', at: 12 },
  ];
}

/** tc batch lines that make the HTBs and their hash tables (both devices have no root qdisc of ours yet). */
export function shapingSetup(bridge: string, ifb: string, subnet: Cidr, bandwidth: number): string {
  const lines: string[] = [];
  const net = `${formatIpv4(subnet.base)}/${subnet.prefix}`;
  for (const d of directions(bridge, ifb)) {
    lines.push(
      `qdisc add dev ${d.dev} root handle 1: htb default 2`,
      ...shapingBandwidth(d.dev, bandwidth),
      `filter add dev ${d.dev} parent 1: prio 1 handle 2: protocol ip u32 divisor 256`,
      `filter add dev ${d.dev} parent 1: prio 1 handle 800::1 protocol ip u32 ht 800:: match ip ${d.match} ${net} hashkey mask 0x000000ff at ${d.at} link 2:`,
    );
  }
  return lines.join('\n') + '\n';
}

/** tc batch lines setting the shared bandwidth on `dev` (made or changed). */
function shapingBandwidth(dev: string, bandwidth: number): string[] {
  const rate = Math.max(MIN_RATE, Math.floor(bandwidth));
  return [
    `class replace dev ${dev} parent 1: classid 1:1 htb rate ${rate}bit ceil ${rate}bit quantum ${QUANTUM}`,
    `class replace dev ${dev} parent 1:1 classid 1:2 htb rate ${Math.min(OTHER_RATE, rate)}bit ceil ${rate}bit quantum ${QUANTUM}`,
    `qdisc replace dev ${dev} parent 1:2 handle 2: pfifo limit ${fifoLimit(rate)}`,
  ];
}

/** tc batch lines that set the shared bandwidth again (the HTBs are there: an agent restarted). */
export function shapingBandwidthChange(bridge: string, ifb: string, bandwidth: number): string {
  return directions(bridge, ifb).flatMap((d) => shapingBandwidth(d.dev, bandwidth)).join('\n') + '\n';
}

/**
 * tc batch lines giving the instance at `address` its class (rate: its floor, ceil) and filter on
 * both devices, replacing any, and sending what comes in on its veth `veth` (new) through the ifb.
 */
export function instanceShaping(bridge: string, ifb: string, subnet: Cidr, address: string, veth: string, rate: number, ceil: number): string | undefined {
  const h = instanceHandles(subnet, address);
  if (!h) return undefined;
  const c = Math.max(MIN_RATE, Math.floor(ceil));
  const r = Math.max(MIN_RATE, Math.min(Math.floor(rate), c));
  return directions(bridge, ifb)
    .flatMap((d) => [
      `class replace dev ${d.dev} parent 1:1 classid 1:${h.minor} htb rate ${r}bit ceil ${c}bit quantum ${QUANTUM}`,
      `qdisc replace dev ${d.dev} parent 1:${h.minor} handle ${h.minor}: pfifo limit ${fifoLimit(c)}`,
      `filter replace dev ${d.dev} parent 1: prio 1 handle ${h.filter} protocol ip u32 ht 2:${h.bucket}: match ip ${d.match} ${address}/32 flowid 1:${h.minor}`,
    ])
    .concat([`qdisc add dev ${veth} handle ffff: ingress`, `filter add dev ${veth} parent ffff: prio 1 handle 800::1 protocol all u32 match u32 0 0 action mirred egress redirect dev ${ifb}`])
    .join('\n') + '\n';
}

/** tc batch lines removing the instance's filters and classes (run with -force: what is not there is skipped). */
export function instanceUnshaping(bridge: string, ifb: string, subnet: Cidr, address: string): string | undefined {
  const h = instanceHandles(subnet, address);
  if (!h) return undefined;
  return directions(bridge, ifb)
    .flatMap((d) => [`filter del dev ${d.dev} parent 1: prio 1 handle ${h.filter} protocol ip u32`, `class del dev ${d.dev} classid 1:${h.minor}`])
    .join('\n') + '\n';
}

/**
 * Whether this host can shape as above: the same objects made in a network namespace `netns` of
 * the agent's own (deleted again). Answers what failed, undefined when all worked.
 */
export async function probeShaping(netns: string): Promise<string | undefined> {
  const ip = tool('ip');
  try {
    await run([ip, 'netns', 'add', netns]);
  } catch (err) {
    return (err as Error).message;
  }
  try {
    const subnet = { base: parseIpv4('10.0.0.0'), prefix: 24 };
    await run([ip, '-n', netns, '-batch', '-'], ['link add plprobeb type bridge', 'link add plprobe0 type veth peer name plprobe1', 'link set plprobe0 master plprobeb', 'link add plprobeq type ifb', 'link set plprobeq up', ''].join('\n'));
    await run([tool('tc'), '-n', netns, '-batch', '-'], shapingSetup('plprobeb', 'plprobeq', subnet, 10_000_000) + instanceShaping('plprobeb', 'plprobeq', subnet, '10.0.0.2', 'plprobe0', 1_000_000, 5_000_000)!);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await run([ip, 'netns', 'delete', netns]).catch(() => {});
  }
}
