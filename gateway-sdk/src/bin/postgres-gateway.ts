#!/usr/bin/env node
/** The PostgreSQL gateway as a job's program: listens on $PORT. */
import { postgresGateway } from '../gateways/postgres.js';
import { runGateway } from '../server.js';

await runGateway(postgresGateway());
