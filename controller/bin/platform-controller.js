#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --initial-old-space-size=128 --heap-growing-percent=50
// The `platform-controller` command. The first line gives the controller's environment and Node
// flags: scripts/start.mjs and the test harness read them from there. MALLOC_ARENA_MAX=2: the
// C allocator (glibc) gives each thread that allocates (RocksDB's flushes and compactions, its
// writer thread, libuv's pool) an arena of its own, up to 8 per core, and keeps what is freed in
// each for later: at 100,000 jobs the allocator held 80-90 MB, 40-50 of them in those arenas;
// with two, about 15 MB less (bench:scale; RocksDB's own memtables and caches were under 15 MB).
// --initial-old-space-size: the controller's live heap is small (some 30 MB), so V8 would keep
// its old generation's limit near 50 MB, and work that allocates many buffers (an image pull: some 250 MB of them for a
// 50 MiB image) then started a major collection every few dozen milliseconds (8 a pull, about
// a third of its CPU); from 128 MB, one or two. The cost: up to some 100 MB more heap before
// the first major collection. --heap-growing-percent=50: after each major collection the old
// generation may grow to 1.5 times what it kept, where V8 lets it grow up to 4 times under a
// high allocation rate; placing and posting at scale it did (bench:scale: 850 MB of heap for
// some 150 MB live with 100,000 jobs and instances; at 20,000 of each, RSS 430-520 -> 305-380
// MB, the same CPU per placement). The cost: more major collections when much survives.
// npm links a package's bin when it installs the package, and skips a
// link whose target does not exist yet; the TypeScript build (dist/) comes after `npm ci`, so
// the bin is this committed launcher, which runs the built program.
try {
  await import('../dist/bin/platform-controller.js');
} catch (err) {
  if (err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/bin/platform-controller.js')) {
    process.stderr.write('platform-controller: not built yet: run `npm run setup` (npm ci if needed, then the build) at the repository root\n');
    process.exit(1);
  }
  throw err;
}
