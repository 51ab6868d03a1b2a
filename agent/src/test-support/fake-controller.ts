/**
 * Test support: the controller side of agent.proto on a real gRPC server (127.0.0.1, port 0).
 * It answers each Hello with a Welcome (configurable), records every message, serves FetchBlob
 * from an in-memory map, and lets a test send StartInstance/StopInstance/ListFiles.
 */
import { agentServiceDefinition, grpc, joinSecretOf, type AgentMessage, type BlobChunk, type ControllerMessage, type FetchBlobRequest, type Hello, type InstanceReport, type LogLine, type Welcome } from '@platform/proto';

export interface Received {
  session: number;
  msg: AgentMessage;
}

type Call = grpc.ServerDuplexStream<AgentMessage, ControllerMessage>;

export class FakeController {
  readonly received: Received[] = [];
  readonly hellos: Hello[] = [];
  readonly blobs = new Map<string, Buffer>();
  /** Builds the Welcome for a Hello (default: adopt everything listed); undefined sends none. */
  welcome: (hello: Hello) => Welcome | undefined = (hello) => ({
    heartbeatIntervalMs: 200, controllerId: 'test-cluster', adopt: (hello.instances ?? []).map((i) => i.instanceUuid ?? ''),
  });
  secret = 'join-secret';
  #server = new grpc.Server();
  #calls: Call[] = [];
  #session = 0;
  port = 0;

  async start(port = 0): Promise<void> {
    this.#server = new grpc.Server();
    this.#server.addService(agentServiceDefinition, {
      connect: (call: Call) => this.#onConnect(call),
      fetchBlob: (call: grpc.ServerWritableStream<FetchBlobRequest, BlobChunk>) => {
        if (joinSecretOf(call.metadata) !== this.secret) {
          call.emit('error', { code: grpc.status.UNAUTHENTICATED, details: 'bad join secret' });
          return;
        }
        const data = this.blobs.get(call.request.digest ?? '');
        if (!data) {
          call.emit('error', { code: grpc.status.NOT_FOUND, details: 'no such blob' });
          return;
        }
        for (let i = 0; i < data.length; i += 16 * 1024) {
          call.write({ data: data.subarray(i, i + 16 * 1024), ...(i === 0 ? { totalLength: data.length } : {}) });
        }
        call.end();
      },
    });
    this.port = await new Promise<number>((resolve, reject) =>
      this.#server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  #onConnect(call: Call): void {
    if (joinSecretOf(call.metadata) !== this.secret) {
      call.emit('error', { code: grpc.status.UNAUTHENTICATED, details: 'bad join secret' });
      return;
    }
    const session = ++this.#session;
    this.#calls.push(call);
    call.on('data', (msg: AgentMessage) => {
      this.received.push({ session, msg });
      if (msg.hello) {
        this.hellos.push(msg.hello);
        const welcome = this.welcome(msg.hello);
        if (welcome) call.write({ welcome });
      }
    });
    call.on('end', () => call.end());
    call.on('error', () => {});
  }

  /** Writes to the newest open stream. */
  send(msg: ControllerMessage): void {
    const call = this.#calls[this.#calls.length - 1];
    if (!call) throw new Error('no agent connected');
    call.write(msg);
  }

  /** Every instance report received for `uuid`, in order. */
  reports(uuid: string): InstanceReport[] {
    return this.received.filter((r) => r.msg.instance?.instanceUuid === uuid).map((r) => r.msg.instance as InstanceReport);
  }

  logLines(uuid: string): LogLine[] {
    return this.received.flatMap((r) => r.msg.logs?.lines ?? []).filter((l) => l.instanceUuid === uuid);
  }

  /** Ends every stream abruptly (a controller crash, as the agent sees it). */
  async stop(): Promise<void> {
    for (const c of this.#calls) c.destroy?.(new Error('controller stopping'));
    this.#calls = [];
    this.#server.forceShutdown();
  }
}
