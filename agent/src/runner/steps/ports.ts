/**
 * Step `ports`: the first port numbered 0 gets a free host port (PORT); fixed ports are passed
 * as PORT_<n>, and reached at a free host port of their own when the instance has a network of
 * its own. Each port's reported address is recorded; the allocated ones are released.
 */
import { SetupError, type InstanceStep } from '../context.js';

export const portsStep: InstanceStep = {
  name: 'ports',
  async prepare(ctx) {
    const { spec, rec, portEnv } = ctx;
    let zeroSeen = false;
    // In a network of its own (steps/network.ts) a fixed port is the instance's alone: the host
    // port it is reached at is chosen like port 0's, so that two jobs may use the same number.
    const own = !spec.network && !!ctx.deps.networks?.ownNetworks && ctx.deps.driver.name === 'bwrap';
    for (const port of spec.ports) {
      let value = port.number;
      if (port.number !== 0 && own) {
        value = await ctx.deps.ports.allocate();
        rec.allocatedPorts.push(value);
        portEnv[`PORT_${port.number}`] = String(port.number);
      } else if (port.number === 0) {
        if (zeroSeen) throw new SetupError('more than one port with number 0');
        zeroSeen = true;
        value = await ctx.deps.ports.allocate();
        rec.allocatedPorts.push(value);
        portEnv['PORT'] = String(value);
      } else {
        portEnv[`PORT_${port.number}`] = String(port.number);
      }
      rec.ports[String(port.number)] = `${ctx.deps.address}:${value}`;
    }
    if (!portEnv['PORT'] && spec.ports[0]) portEnv['PORT'] = String(spec.ports[0].number);
  },
  restore(ctx) {
    for (const p of ctx.rec.allocatedPorts) ctx.deps.ports.reserve(p);
  },
  release(ctx) {
    // Emptied as they go back: a port released twice could be another instance's by then.
    for (const p of ctx.rec.allocatedPorts.splice(0)) ctx.deps.ports.release(p);
  },
};
