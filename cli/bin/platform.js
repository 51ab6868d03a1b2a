#!/usr/bin/env node
// The `platform` command. Committed (not built) so that npm can link it at install, before dist/ exists.
import { main } from '../dist/main.js';

process.exitCode = await main(process.argv.slice(2));
