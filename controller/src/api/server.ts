/** Assembles the Koa application of the REST API from the endpoints of each area. */
import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import type { Logger } from '../log/logger.js';
import type { ControllerMetrics } from '../telemetry/controller-metrics.js';
import type { IdSource } from '../util/ids.js';
import { MethodNotAllowedError, NotFoundError } from '../errors.js';
import { mountEndpoints, type ApiState, type Endpoint } from './endpoint.js';
import { errors, observe, requestContext, versionPrefix, type InFlight } from './middleware.js';
import { mountSpecPaths } from './spec-paths.js';

export interface ApiAppOptions {
  log: Logger;
  metrics: ControllerMetrics;
  ids: IdSource;
  endpoints: readonly Endpoint[];
  minimumClientVersion: string;
  inFlight: InFlight;
  /** Runs after the /v1 prefix is removed and before routing: authentication. */
  authenticate: Middleware<ApiState>;
}

export function createApiApp(o: ApiAppOptions): Koa<ApiState> {
  const app = new Koa<ApiState>();
  app.silent = true; // errors are logged by the `errors` middleware, once, with the request id

  const router = new Router<ApiState>();
  // First: the specification's paths not served yet and the 2016 names, ahead of the patterns they would fall into.
  mountSpecPaths(router, o.endpoints);
  mountEndpoints(router, o.endpoints);
  router.get('/metrics', async (ctx) => {
    ctx.state.route = '/metrics';
    ctx.type = o.metrics.registry.contentType;
    ctx.body = await o.metrics.registry.metrics();
  });

  app.use(requestContext(o.log, o.ids, o.minimumClientVersion, o.inFlight));
  app.use(observe(o.metrics, o.log));
  app.use(errors());
  app.use(versionPrefix());
  app.use(o.authenticate);
  app.use(router.routes());
  app.use(async (ctx) => {
    if (ctx.state.route !== undefined) return;
    const matched = router.match(ctx.path, ctx.method);
    if (matched.path.length > 0 && !matched.route) {
      const allowed = [...new Set(matched.path.flatMap((layer) => layer.methods))].filter((m) => m !== 'HEAD').sort();
      throw new MethodNotAllowedError(`${ctx.method} is not allowed on ${ctx.path}; allowed: ${allowed.join(', ')}`, allowed);
    }
    throw new NotFoundError(`no endpoint ${ctx.method} ${ctx.path}`);
  });
  return app;
}
