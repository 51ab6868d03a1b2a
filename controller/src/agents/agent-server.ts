/**
 * The gRPC endpoint agents dial (proto/src/agent.proto). One `Connect` stream per agent
 * session, `FetchBlob` for package archives. Wire errors (gRPC status codes) are produced
 * here and nowhere else.
 */
import { timingSafeEqual } from 'node:crypto';
import {
  agentServiceDefinition, grpc, isCompatibleProtocol, joinSecretOf, PROTOCOL_VERSION,
  type AgentMessage, type BlobChunk, type ControllerMessage, type FetchBlobRequest, type SnapshotAck, type SnapshotChunk,
} from '@platform/proto';
import type { PassThrough } from 'node:stream';
import type { BlobStore } from '../blobs/blob-store.js';
import { parseDigest } from '../model/digest.js';
import type { Logger } from '@platform/proto/common';
import { isUuid } from '../util/ids.js';
import type { AgentDirectory } from './agent-directory.js';

export interface AgentServerOptions {
  directory: AgentDirectory;
  blobs: BlobStore;
  joinSecret: string;
  clusterId: string;
  log: Logger;
  /** Bytes per FetchBlob chunk. */
  chunkBytes?: number;
  /** As PackageServiceOptions.blobsElsewhere: a blob this controller lacks is unavailable here, not missing. */
  blobsElsewhere?: { setting: string; dir: string };
}

type Status = (typeof grpc.status)[keyof typeof grpc.status];

function statusError(code: Status, details: string): Partial<grpc.StatusObject> & Error {
  return Object.assign(new Error(details), { code, details, metadata: new grpc.Metadata() });
}

export class AgentServer {
  readonly #server = new grpc.Server({
    // Agents keep one stream open for hours: keepalive pings find dead peers behind NATs.
    'grpc.keepalive_time_ms': 30_000,
    'grpc.keepalive_timeout_ms': 10_000,
    'grpc.keepalive_permit_without_calls': 1,
    'grpc.http2.min_ping_interval_without_data_ms': 10_000,
  });
  readonly #secret: Buffer;

  constructor(private readonly o: AgentServerOptions) {
    this.#secret = Buffer.from(o.joinSecret);
    this.#server.addService(agentServiceDefinition, {
      connect: (call: grpc.ServerDuplexStream<AgentMessage, ControllerMessage>) => this.#connect(call),
      fetchBlob: (call: grpc.ServerWritableStream<FetchBlobRequest, BlobChunk>) => void this.#fetchBlob(call),
      uploadSnapshot: (call: grpc.ServerReadableStream<SnapshotChunk, SnapshotAck>, callback: grpc.sendUnaryData<SnapshotAck>) =>
        this.#uploadSnapshot(call, callback),
    });
  }

  /**
   * Serves another service on the same port (the route table's watch for routers); before
   * `listen`. Its calls authenticate with the same join secret (`authorized`).
   */
  addService(definition: grpc.ServiceDefinition, implementation: grpc.UntypedServiceImplementation): void {
    this.#server.addService(definition, implementation);
  }

  /** True when the call presents the cluster's join secret. */
  authorized(metadata: grpc.Metadata): boolean {
    return this.#authorized(metadata);
  }

  /** Binds `host:port` (port 0: any free one); answers the bound port. */
  listen(host: string, port: number): Promise<number> {
    const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
    return new Promise<number>((resolve, reject) => {
      this.#server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound)));
    });
  }

  /** Stops taking calls; ends open streams after `graceMs`. */
  async stop(graceMs: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.#server.forceShutdown();
        resolve();
      }, graceMs);
      timer.unref();
      this.#server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  #authorized(metadata: grpc.Metadata): boolean {
    const presented = Buffer.from(joinSecretOf(metadata) ?? '');
    return presented.length === this.#secret.length && timingSafeEqual(presented, this.#secret);
  }

  #connect(call: grpc.ServerDuplexStream<AgentMessage, ControllerMessage>): void {
    const { directory, log } = this.o;
    const peer = call.getPeer();
    if (!this.#authorized(call.metadata)) {
      log.warn('agent refused: wrong join secret', { peer });
      call.emit('error', statusError(grpc.status.UNAUTHENTICATED, 'the join secret is missing or wrong'));
      return;
    }
    let agent: string | undefined;
    let session: string | undefined;
    let ended = false;
    const connection = {
      send: (message: ControllerMessage): boolean => {
        if (ended) return false;
        call.write(message);
        return true;
      },
      close: (reason: string): void => {
        if (ended) return;
        ended = true;
        call.emit('error', statusError(grpc.status.ABORTED, reason));
      },
    };
    const finish = (why: string) => {
      if (agent && session) directory.disconnected(agent, session, why);
      ended = true;
    };
    call.on('data', (message: AgentMessage) => {
      if (!agent) {
        if (message.body !== 'hello' || !message.hello) {
          connection.close('the first message of a session must be a Hello');
          return;
        }
        const hello = message.hello;
        if (!isCompatibleProtocol(hello.protocolVersion ?? 0)) {
          call.write({ welcome: { refused: `protocol version ${hello.protocolVersion} is not supported; this controller speaks ${PROTOCOL_VERSION}` } });
          connection.close('incompatible protocol');
          return;
        }
        if (!isUuid(hello.agentUuid ?? '')) {
          call.write({ welcome: { refused: 'agent_uuid must be a uuid' } });
          connection.close('bad agent uuid');
          return;
        }
        agent = hello.agentUuid!;
        const uuid = agent;
        directory.hello(hello, connection).then(
          ({ sessionId, adopt, stop, afterWelcome, instanceSubnet }) => {
            session = sessionId;
            connection.send({
              welcome: { heartbeatIntervalMs: directory.heartbeatIntervalMs, controllerId: this.o.clusterId, adopt, stop, instanceSubnet },
            });
            afterWelcome?.();
          },
          (err: unknown) => {
            log.error('agent registration failed', { agent: uuid, err: (err as Error).message });
            connection.close('registration failed');
          },
        );
        return;
      }
      if (!session) return; // messages before the Welcome are not expected; the agent waits for it
      switch (message.body) {
        case 'heartbeat':
          directory.heard(agent, session);
          break;
        case 'instance':
          if (message.instance) directory.report(agent, session, message.instance);
          break;
        case 'logs':
          if (message.logs) directory.logs(agent, session, message.logs);
          break;
        case 'usage':
          if (message.usage) directory.usage(agent, session, message.usage);
          break;
        case 'files':
          if (message.files) directory.files(agent, session, message.files);
          break;
        case 'logsFlushed':
          directory.logsFlushed(agent, session, message.logsFlushed?.requestId ?? '');
          break;
        case 'egressApplied':
          directory.egressApplied(agent, session, message.egressApplied?.requestId ?? '');
          break;
        default:
          break;
      }
    });
    call.on('end', () => {
      finish('the agent closed the stream');
      if (!ended) call.end();
    });
    call.on('cancelled', () => finish('cancelled'));
    call.on('error', (err: Error) => finish(err.message));
  }

  #uploadSnapshot(call: grpc.ServerReadableStream<SnapshotChunk, SnapshotAck>, callback: grpc.sendUnaryData<SnapshotAck>): void {
    if (!this.#authorized(call.metadata)) {
      callback(statusError(grpc.status.UNAUTHENTICATED, 'the join secret is missing or wrong'));
      return;
    }
    let target: PassThrough | undefined;
    let failed = false;
    call.on('data', (chunk: SnapshotChunk) => {
      if (failed) return;
      if (!target) {
        target = this.o.directory.takeSnapshot(chunk.requestId ?? '');
        if (!target) {
          failed = true;
          callback(statusError(grpc.status.NOT_FOUND, `no snapshot request ${chunk.requestId}`));
          return;
        }
      }
      if (chunk.error) {
        failed = true;
        target.destroy(new Error(`snapshot failed: ${chunk.error}`));
        callback(null, {});
        return;
      }
      const data = chunk.data;
      if (data && data.length > 0 && !target.write(Buffer.from(data))) {
        // Flow control: the coordinator reads the snapshot as it arrives.
        call.pause();
        target.once('drain', () => call.resume());
      }
    });
    call.on('end', () => {
      if (failed) return;
      target?.end();
      callback(null, {});
    });
    call.on('error', (err: Error) => {
      target?.destroy(err);
    });
  }

  async #fetchBlob(call: grpc.ServerWritableStream<FetchBlobRequest, BlobChunk>): Promise<void> {
    if (!this.#authorized(call.metadata)) {
      call.emit('error', statusError(grpc.status.UNAUTHENTICATED, 'the join secret is missing or wrong'));
      return;
    }
    let digest;
    try {
      digest = parseDigest(call.request.digest ?? '', 'digest');
    } catch (err) {
      call.emit('error', statusError(grpc.status.INVALID_ARGUMENT, (err as Error).message));
      return;
    }
    const blob = await this.o.blobs.open(digest);
    if (!blob) {
      const elsewhere = this.o.blobsElsewhere;
      call.emit(
        'error',
        elsewhere
          ? statusError(grpc.status.UNAVAILABLE, `no archive ${call.request.digest} in this controller's blob directory (${elsewhere.dir}); controllers that share etcd must share it (${elsewhere.setting})`)
          : statusError(grpc.status.NOT_FOUND, `no archive ${call.request.digest}`),
      );
      return;
    }
    const chunkBytes = this.o.chunkBytes ?? 256 * 1024;
    let first = true;
    try {
      for await (const data of blob.stream) {
        const buffer = data as Buffer;
        for (let offset = 0; offset < buffer.length; offset += chunkBytes) {
          const chunk: BlobChunk = { data: buffer.subarray(offset, offset + chunkBytes) };
          if (first) chunk.totalLength = blob.size;
          first = false;
          // Respect the stream's flow control: a slow agent must not make us buffer the archive.
          if (!call.write(chunk)) await new Promise((resolve) => call.once('drain', resolve));
          if (call.cancelled) {
            blob.stream.destroy();
            return;
          }
        }
      }
      if (first) call.write({ data: Buffer.alloc(0), totalLength: 0 });
      call.end();
    } catch (err) {
      call.emit('error', statusError(grpc.status.INTERNAL, `reading ${call.request.digest}: ${(err as Error).message}`));
    }
  }
}
