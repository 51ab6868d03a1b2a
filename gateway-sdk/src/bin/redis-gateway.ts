#!/usr/bin/env node
/** The Redis gateway as a job's program: listens on $PORT. */
import { redisGateway } from '../gateways/redis.js';
import { runGateway } from '../server.js';

await runGateway(redisGateway());
