#!/usr/bin/env node
// The `platform-redis-gateway` command. npm links a package's bin when it installs the package, and skips a
// link whose target does not exist yet; the TypeScript build (dist/) comes after `npm ci`, so
// the bin is this committed launcher, which runs the built program.
try {
  await import('../dist/bin/redis-gateway.js');
} catch (err) {
  if (err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/bin/redis-gateway.js')) {
    process.stderr.write('platform-redis-gateway: not built yet: run `npm run setup` (npm ci if needed, then the build) at the repository root\n');
    process.exit(1);
  }
  throw err;
}
