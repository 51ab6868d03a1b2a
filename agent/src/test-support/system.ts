/**
 * Test support: tests that need a system tool skip with a visible message when it is missing,
 * unless PLATFORM_REQUIRE_SYSTEM_TOOLS=1 (CI), where they fail instead. Host capabilities that an
 * install cannot provide (writable cgroups) pass `required = false`: they always skip visibly.
 */
import type { ExecutionContext } from 'ava';
import { dirname } from 'node:path';
import { DEFAULT_SYSTEM_DIRS } from '../isolation/bwrap.js';

export const REQUIRE_SYSTEM_TOOLS = process.env['PLATFORM_REQUIRE_SYSTEM_TOOLS'] === '1';

/** True when the test may go on; otherwise it has been failed (CI) or marked as skipped (with a log line). */
export function requireTool(t: ExecutionContext, available: boolean, what: string, required = REQUIRE_SYSTEM_TOOLS): boolean {
  if (available) return true;
  if (required) {
    t.fail(`${what} is required (PLATFORM_REQUIRE_SYSTEM_TOOLS=1) but unavailable`);
    return false;
  }
  t.log(`SKIPPED: ${what} is unavailable on this host`);
  t.pass();
  return false;
}

/**
 * Host directories a sandboxed instance needs to run this test's own `node` (process.execPath):
 * none beyond the defaults when node is a system one (/usr/bin/node); its install directory besides
 * the defaults when it lives elsewhere (a Node 22 or 24 unpacked under /opt or a home directory),
 * which bubblewrap would otherwise not bind, so the instance's `exec node` would exit 127.
 */
export function nodeHostPaths(): string[] {
  if (DEFAULT_SYSTEM_DIRS.some((d) => process.execPath.startsWith(`${d}/`))) return [];
  return [...DEFAULT_SYSTEM_DIRS, dirname(dirname(process.execPath))];
}
