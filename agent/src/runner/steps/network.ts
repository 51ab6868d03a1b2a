/**
 * Step `network`: an instance of a job on a virtual network gets its own network namespace, an
 * interface on the network's bridge with the address the controller gave it, its routes, its
 * hosts file and broadcast filter (network/host-networks.ts), and its ports forwarded from the
 * host ports the `ports` step chose (so it is reached where it always was). What it holds is in
 * the record before anything is made; teardown deletes the namespace, and the bridge with its
 * last member. An instance of a job on no network gets a network of its own where the agent
 * gives them (--instance-networks, bwrap driver): a namespace on the agent's bridge, its ports
 * forwarded the same way, egress refused (host-networks.ts attachOwn); elsewhere it is left on
 * the host's network. Its namespace may have been made ahead (the agent's pool).
 */
import { SetupError, type InstanceStep } from '../context.js';

export const networkStep: InstanceStep = {
  name: 'network',
  async prepare(ctx) {
    const plan = ctx.spec.network;
    if (!plan) {
      // Not on a virtual network: a network of its own where the agent gives them (bwrap only).
      const networks = ctx.deps.networks;
      if (!networks?.ownNetworks || ctx.deps.driver.name !== 'bwrap') return;
      // What the platform provides it: its bound services and links, and a stager's controller.
      const endpoints = [...(ctx.spec.endpoints ?? [])];
      if (ctx.spec.stagerUrl) {
        const u = new URL(ctx.spec.stagerUrl);
        endpoints.push(`${u.hostname === 'localhost' ? '127.0.0.1' : u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`);
      }
      // A fixed port listens at its own number inside, and is reached at the host port the ports step chose.
      const entries = Object.entries(ctx.rec.ports).map(([n, v]) => [Number(n), Number(v.slice(v.lastIndexOf(':') + 1))] as const);
      // Forwarded before the process starts (done while it starts instead, 50 starting at once
      // took longer: their rules and the agent's egress table competed with the starts), the
      // namespace's rules written with the namespace. The record has the ports before anything
      // is made; the pid's write comes after them, and only a re-attached instance (one with a
      // pid) has its ports forwarded again.
      const ports = { host: entries.map(([, host]) => host), inside: entries.map(([n, host]) => (n === 0 ? host : n)) };
      const a = await networks.attachOwn(ctx.spec.instanceUuid, ctx.spec.jobUuid, ctx.dir, endpoints, (held) => {
        ctx.rec.network = held;
        ctx.persist();
      }, ports);
      await networks.limit(a, ctx.spec.resources);
      return;
    }
    const networks = ctx.deps.networks;
    if (!networks) {
      throw new SetupError(`the job is on network ${plan.fqn || plan.uuid}, and this agent does not put instances on virtual networks (it needs root, bwrap, iproute2 and nftables)`);
    }
    const a = await networks.attach(ctx.spec.instanceUuid, ctx.spec.jobUuid, plan, ctx.dir, (held) => {
      ctx.rec.network = held;
      ctx.persist();
    });
    const ports = Object.values(ctx.rec.ports).map((v) => Number(v.slice(v.lastIndexOf(':') + 1)));
    await networks.forward(a, ports);
    ctx.persist();
    await networks.limit(a, ctx.spec.resources);
  },
  restore(ctx) {
    if (ctx.rec.network) ctx.deps.networks?.adopt(ctx.rec.network);
  },
  async release(ctx) {
    const a = ctx.rec.network;
    if (!a) return;
    if (!ctx.deps.networks) throw new Error(`network namespace ${a.netns} cannot be removed: this agent does not manage networks now`);
    await ctx.deps.networks.detach(a);
    delete ctx.rec.network;
  },
};
