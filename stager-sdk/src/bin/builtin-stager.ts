#!/usr/bin/env node
/** The program of the built-in stager jobs: `builtin-stager.js <runtime>`. */
import { runStager } from '../run.js';
import { BUILTIN_STAGERS } from '../stagers/index.js';

const runtime = process.argv[2] ?? '';
const stager = BUILTIN_STAGERS[runtime];
if (!stager) {
  process.stderr.write(`builtin-stager: unknown runtime "${runtime}"; one of ${Object.keys(BUILTIN_STAGERS).join(', ')}\n`);
  process.exit(2);
}
await runStager(stager);
