/**
 * A standalone router's requests per job, sent to the controller (`ReportRequests` in
 * proto/src/router.proto) every `intervalMs` while there is something to send. A report that
 * fails is kept and sent again with the same sequence number (the controller counts it once);
 * what the router serves meanwhile waits in its counter for the report after that. A controller
 * that does not know the call (older) answers UNIMPLEMENTED: the router then stops reporting.
 */
import { randomUUID } from 'node:crypto';
import { activeControllerOf, ControllerAddresses, controllerList, createRouteTableClient, grpc, joinMetadata, type RouteTableServiceClient } from '@platform/proto';
import type { Logger } from '@platform/proto/common';
import type { JobRequestCounter, JobRequestWindow } from '../request-stats.js';
import { requestsToWire } from '../route-wire.js';

export interface ReporterOptions {
  /** The controller's gRPC address, host:port. */
  controller: string;
  joinSecret: string;
  routerName: string;
  source: JobRequestCounter;
  log: Logger;
  /** Default 1 s. */
  intervalMs?: number;
}

const CALL_DEADLINE_MS = 5_000;

export class RequestReporter {
  readonly routerId = randomUUID();
  /** The controllers (one, or those sharing etcd: the active one is reported to). */
  readonly #controllers: ControllerAddresses<RouteTableServiceClient>;
  readonly #timer: NodeJS.Timeout;
  #sequence = 0;
  #pending: { sequence: number; jobs: JobRequestWindow[] } | undefined;
  #sending: Promise<void> | undefined;
  #failing = false;
  #stopped = false;

  constructor(private readonly o: ReporterOptions) {
    this.#controllers = new ControllerAddresses(controllerList(o.controller), (address) => createRouteTableClient(address, grpc.credentials.createInsecure()));
    this.#timer = setInterval(() => void this.flush(), o.intervalMs ?? 1_000);
    this.#timer.unref();
  }

  /** Sends what was counted (and what failed before); resolves when the attempt ends. */
  flush(): Promise<void> {
    if (this.#sending || this.#stopped) return this.#sending ?? Promise.resolve();
    if (!this.#pending) {
      const jobs = this.o.source.drain();
      if (jobs.length === 0) return Promise.resolve();
      this.#pending = { sequence: ++this.#sequence, jobs };
    }
    const report = this.#pending;
    this.#sending = new Promise<void>((resolve) => {
      this.#controllers.client().reportRequests(
        { routerId: this.routerId, sequence: report.sequence, routerName: this.o.routerName, jobs: report.jobs.map(requestsToWire) },
        joinMetadata(this.o.joinSecret),
        { deadline: Date.now() + CALL_DEADLINE_MS },
        (err) => {
          this.#sending = undefined;
          if (!err) {
            this.#pending = undefined;
            if (this.#failing) this.o.log.info('request counts reported again', { controller: this.o.controller });
            this.#failing = false;
          } else if (activeControllerOf(err)) {
            // A standby: the next report goes to the active controller it named.
            this.#controllers.redirect(activeControllerOf(err)!);
          } else if (err.code === grpc.status.UNIMPLEMENTED) {
            this.o.log.warn('the controller does not take request counts (an older version); not reporting them', { controller: this.o.controller });
            this.#stop();
          } else {
            // Unreachable, or it failed: the next report goes to the next controller given.
            this.#controllers.failed();
            if (!this.#failing) {
              // Once per outage: the table follower already says when the controller is away.
              this.#failing = true;
              this.o.log.warn('request counts not reported; kept for the next report', { controller: this.o.controller, err: err.details || err.message });
            }
          }
          resolve();
        },
      );
    });
    return this.#sending;
  }

  #stop(): void {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#controllers.close();
  }

  /** Sends what is left (one attempt), then stops. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    clearInterval(this.#timer);
    await this.#sending;
    await this.flush();
    this.#stop();
  }
}
