import test from 'ava';
import type { Resource } from '../model/job.js';
import { place, PlacementQueue, type PlacementCandidate, type PlacementRequest } from './placement.js';

const MiB = 1024 * 1024;
const none: Resource = { cpu: 0, memory: 0, disk: 0, network: 0, netmax: 0 };
const wants = (memory: number): Resource => ({ ...none, memory });

function agent(uuid: string, o: { tags?: string[]; memory?: number; used?: number; jobInstances?: number } = {}): PlacementCandidate {
  return {
    uuid,
    tags: o.tags ?? [],
    total: { ...none, memory: o.memory ?? 1024 * MiB },
    provisioned: { ...none, memory: o.used ?? 0 },
    jobInstances: o.jobInstances ?? 0,
  };
}

test('placement: no agent, or none with the hard tags, says so', (t) => {
  t.deepEqual(place({ resources: none, hardTags: [], softTags: [] }, []), { reason: 'no instance manager is connected' });
  const r = place({ resources: none, hardTags: ['gpu'], softTags: [] }, [agent('a', { tags: ['ssd'] })]);
  t.regex(r.agent === undefined ? r.reason : '', /hard scheduling tags gpu/);
  t.deepEqual(place({ resources: none, hardTags: ['ssd'], softTags: [] }, [agent('a'), agent('b', { tags: ['ssd'] })]), { agent: 'b' });
});

test('placement: an agent without room is left out, and the reason names what lacks', (t) => {
  const full = agent('a', { memory: 256 * MiB, used: 200 * MiB });
  t.deepEqual(place({ resources: wants(64 * MiB), hardTags: [], softTags: [] }, [full, agent('b')]), { agent: 'b' });
  const r = place({ resources: wants(64 * MiB), hardTags: [], softTags: [] }, [full]);
  t.regex(r.agent === undefined ? r.reason : '', /memory \(56 MiB free, 64 MiB needed\)/);
  // An agent that reports no memory is not limited in it.
  t.deepEqual(place({ resources: wants(64 * MiB), hardTags: [], softTags: [] }, [agent('c', { memory: 0 })]), { agent: 'c' });
});

test('placement: soft tags first, then spread, then free memory, then uuid', (t) => {
  const request = { resources: none, hardTags: [], softTags: ['fast'] };
  t.deepEqual(place(request, [agent('a', { jobInstances: 0 }), agent('b', { tags: ['fast'], jobInstances: 3 })]), { agent: 'b' });
  t.deepEqual(place({ ...request, softTags: [] }, [agent('a', { jobInstances: 1 }), agent('b', { jobInstances: 0 })]), { agent: 'b' });
  t.deepEqual(place({ ...request, softTags: [] }, [agent('a', { used: 10 * MiB }), agent('b')]), { agent: 'b' });
  t.deepEqual(place({ ...request, softTags: [] }, [agent('b'), agent('a')]), { agent: 'a' });
});

test('placement: the agent chosen is the first of the whole order (soft tags, spread, free memory, uuid), over many agents', (t) => {
  let x = 11;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let round = 0; round < 200; round++) {
    const candidates = Array.from({ length: 1 + Math.floor(next() * 40) }, (_, n) =>
      agent(`u${Math.floor(next() * 1000)}-${n}`, {
        tags: next() < 0.5 ? ['fast'] : [],
        memory: next() < 0.2 ? 0 : 1024 * MiB,
        used: Math.floor(next() * 4) * 64 * MiB,
        jobInstances: Math.floor(next() * 3),
      }),
    );
    const softTags = next() < 0.5 ? ['fast'] : [];
    const freeOf = (c: PlacementCandidate) => (c.total.memory <= 0 ? Infinity : c.total.memory - c.provisioned.memory);
    const softOf = (c: PlacementCandidate) => softTags.filter((s) => c.tags.includes(s)).length;
    const sorted = [...candidates].sort(
      (a, b) => softOf(b) - softOf(a) || a.jobInstances - b.jobInstances || (freeOf(b) === freeOf(a) ? 0 : freeOf(b) > freeOf(a) ? 1 : -1) || (a.uuid < b.uuid ? -1 : 1),
    );
    t.deepEqual(place({ resources: none, hardTags: [], softTags }, candidates), { agent: sorted[0]!.uuid });
  }
});

test('placement queue: each placement in a row is the one place() makes after the ones before, until none fits and it says why', (t) => {
  let x = 7;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let round = 0; round < 200; round++) {
    const make = () =>
      Array.from({ length: Math.floor(next() * 30) }, (_, n) =>
        agent(`u${Math.floor(next() * 1000)}-${n}`, {
          tags: [...(next() < 0.5 ? ['fast'] : []), ...(next() < 0.7 ? ['ssd'] : [])],
          memory: next() < 0.2 ? 0 : 512 * MiB,
          used: Math.floor(next() * 4) * 64 * MiB,
          jobInstances: Math.floor(next() * 3),
        }),
      );
    const seed = x;
    const viaPlace = make();
    x = seed;
    const viaQueue = make();
    const request: PlacementRequest = {
      resources: wants(next() < 0.3 ? 0 : 64 * MiB),
      hardTags: next() < 0.3 ? ['ssd'] : [],
      softTags: next() < 0.5 ? ['fast'] : [],
    };
    const queue = new PlacementQueue(request, viaQueue);
    // An agent taking an instance: its resources provisioned, one more of the job's instances.
    const take = (c: PlacementCandidate) => {
      c.provisioned = { ...c.provisioned, memory: c.provisioned.memory + request.resources.memory };
      c.jobInstances++;
    };
    for (let n = 0; n < 40; n++) {
      const expected = place(request, viaPlace);
      const got = queue.next();
      t.deepEqual(got, expected, `round ${round}, placement ${n}`);
      if (expected.agent === undefined) break;
      take(viaPlace.find((c) => c.uuid === expected.agent)!);
      const chosen = viaQueue.find((c) => c.uuid === got.agent)!;
      queue.reserved(chosen.uuid, { ...chosen.provisioned, memory: chosen.provisioned.memory + request.resources.memory }, chosen.jobInstances + 1);
    }
  }
});
