/**
 * What an agent leaves on the host, found by the agent's own name prefixes (as the agent gives
 * them: agent/src/network/host-networks.ts agentPrefixes): network namespaces and their mounts
 * under /run/netns, interfaces (veths, bridges, VXLAN devices, the ifb device of the floors), nft tables. AgentProcess.dispose
 * lists them once the agent and its instances are gone, removes them, and fails the test when an
 * agent that stopped its own instances (--stop-instances-on-exit, which the harness gives every
 * agent that does not ask to keep its instances) left any.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** The system's directories only: under npm, node_modules/.bin is first in PATH, and an npm package is named `nft`. */
const SBIN = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const hex = (uuid: string) => uuid.replace(/[^0-9a-f]/gi, '').toLowerCase();

/** The first characters of every name the agent `agentUuid` gives host objects. */
export function agentPrefixes(agentUuid: string): { netns: string; veth: string; bridge: string; vxlan: string; ifb: string; table: string; uidTable: string; egressTable: string } {
  const long = hex(agentUuid).slice(0, 11).padEnd(11, '0');
  const link = hex(agentUuid).slice(0, 5).padEnd(5, '0');
  return { netns: `pln-${long}-`, veth: `plv${link}`, bridge: `plb${link}`, vxlan: `plx${link}`, ifb: `plq${link}`, table: `platform_bc_${long}_`, uidTable: `platform_netuid_${long}`, egressTable: `platform_egress_${long}` };
}

/**
 * The namespaces of an agent's instances: its namespaces but those it keeps made ahead for the
 * next starts (named `<prefix>pool-<uuid>`, without processes), which stay while it runs. An
 * instance given one of those keeps its name, and runs processes in it.
 */
export function instanceNamespaces(agentUuid: string): string[] {
  const pool = `${agentPrefixes(agentUuid).netns}pool-`;
  return agentLeftovers(agentUuid).netns.filter((n) => !n.startsWith(pool) || out([], ['ip', 'netns', 'pids', n]).trim() !== '');
}

/** Runs a host command (under `prefix`, e.g. nsenter into the agent's network namespace); its stdout, '' when it fails. */
function out(prefix: readonly string[], argv: string[]): string {
  const all = [...prefix, ...argv];
  const r = spawnSync(all[0]!, all.slice(1), { encoding: 'utf8', env: { ...process.env, PATH: SBIN }, stdio: ['ignore', 'pipe', 'ignore'] });
  return r.status === 0 ? r.stdout : '';
}

function quiet(prefix: readonly string[], argv: string[]): void {
  const all = [...prefix, ...argv];
  spawnSync(all[0]!, all.slice(1), { env: { ...process.env, PATH: SBIN }, stdio: 'ignore' });
}

export interface Leftovers {
  netns: string[];
  /** Mount points under /run/netns (a namespace's file, or a mount whose file went). */
  mounts: string[];
  links: string[];
  /** `<family> <name>` */
  tables: string[];
}

/**
 * What of the agent `agentUuid` is on the host now. `prefix` runs the commands where the agent
 * ran (its network namespace: interfaces and tables are there; namespaces and mounts are the
 * host's). Nothing when the test does not run as root (the agent could make nothing then).
 */
export function agentLeftovers(agentUuid: string, prefix: readonly string[] = []): Leftovers {
  const none: Leftovers = { netns: [], mounts: [], links: [], tables: [] };
  if (!agentUuid || process.getuid?.() !== 0) return none;
  const p = agentPrefixes(agentUuid);
  let files: string[] = [];
  try {
    files = readdirSync('/run/netns');
  } catch {
    // no namespace was ever made here
  }
  const mounts = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[4] ?? '')
    .filter((at) => at.startsWith(`/run/netns/${p.netns}`));
  const links = out(prefix, ['ip', '-o', 'link', 'show'])
    .split('\n')
    .map((l) => /^\d+: ([^:@]+)/.exec(l)?.[1] ?? '')
    .filter((l) => [p.veth, p.bridge, p.vxlan, p.ifb].some((x) => l.startsWith(x)));
  const tables = out(prefix, ['nft', 'list', 'tables'])
    .split('\n')
    .map((l) => l.trim().replace(/^table /, ''))
    .filter((l) => {
      const name = l.split(' ')[1] ?? '';
      return name.startsWith(p.table) || name === p.uidTable || name === p.egressTable;
    });
  return { netns: files.filter((f) => f.startsWith(p.netns)), mounts, links, tables };
}

/** Every leftover, one string each (empty: none). */
export function describeLeftovers(l: Leftovers): string[] {
  return [...l.netns.map((n) => `netns ${n}`), ...l.mounts.map((m) => `mount ${m}`), ...l.links.map((n) => `link ${n}`), ...l.tables.map((n) => `nft table ${n}`)];
}

/** Removes what agentLeftovers finds; answers what was there (and throws when some cannot be removed). */
export function removeAgentLeftovers(agentUuid: string, prefix: readonly string[] = []): string[] {
  const found = agentLeftovers(agentUuid, prefix);
  const names = new Set([...found.netns, ...found.mounts.map((m) => m.slice('/run/netns/'.length))]);
  for (const ns of names) quiet([], ['ip', 'netns', 'delete', ns]);
  for (const link of found.links) quiet(prefix, ['ip', 'link', 'delete', link]);
  for (const table of found.tables) quiet(prefix, ['nft', 'delete', 'table', ...table.split(' ')]);
  const still = describeLeftovers(agentLeftovers(agentUuid, prefix));
  if (still.length > 0) throw new Error(`cannot remove what agent ${agentUuid} left: ${still.join(', ')}`);
  return describeLeftovers(found);
}
