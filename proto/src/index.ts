/**
 * @platform/proto: the contract between the controller and its agents.
 *
 * `agent.proto` (beside this file) is the documented source; `generated/agent.{js,d.ts}` are its
 * protobufjs static codecs (`npm run generate -w proto`, committed so that a build needs no code
 * generator). grpc-js needs a service definition with streaming flags, which the generated code
 * does not provide: it is built here, once, from the generated codecs.
 */
import * as grpc from '@grpc/grpc-js';
import { platform } from '../generated/agent.js';
import { platform as routerProto } from '../generated/router.js';

const v1 = platform.agent.v1;

/** Bumped on every change that an older peer cannot understand. */
export const PROTOCOL_VERSION = 1;

/** True when a peer speaking `version` can talk to this build. */
export function isCompatibleProtocol(version: number): boolean {
  return Number.isInteger(version) && version === PROTOCOL_VERSION;
}

/** The message classes (encode/decode/create) and their plain-object shapes. */
export const messages = v1;
export type AgentMessage = platform.agent.v1.AgentMessage.$Properties;
export type ControllerMessage = platform.agent.v1.ControllerMessage.$Properties;
export type Hello = platform.agent.v1.Hello.$Properties;
export type Heartbeat = platform.agent.v1.Heartbeat.$Properties;
export type Resources = platform.agent.v1.Resources.$Properties;
export type InstanceReport = platform.agent.v1.InstanceReport.$Properties;
export type LogBatch = platform.agent.v1.LogBatch.$Properties;
export type LogLine = platform.agent.v1.LogLine.$Properties;
export type FilesReply = platform.agent.v1.FilesReply.$Properties;
export type FileEntry = platform.agent.v1.FileEntry.$Properties;
export type Welcome = platform.agent.v1.Welcome.$Properties;
export type StartInstance = platform.agent.v1.StartInstance.$Properties;
export type StopInstance = platform.agent.v1.StopInstance.$Properties;
export type ListFiles = platform.agent.v1.ListFiles.$Properties;
export type InstanceSpec = platform.agent.v1.InstanceSpec.$Properties;
export type PackageSpec = platform.agent.v1.PackageSpec.$Properties;
export type TemplateSpec = platform.agent.v1.TemplateSpec.$Properties;
export type ProcessSpec = platform.agent.v1.ProcessSpec.$Properties;
export type PortSpec = platform.agent.v1.PortSpec.$Properties;
export type LogSpec = platform.agent.v1.LogSpec.$Properties;
export type LinkSpec = platform.agent.v1.LinkSpec.$Properties;
export type LinkTargets = platform.agent.v1.LinkTargets.$Properties;
export type JobDrains = platform.agent.v1.JobDrains.$Properties;
export type JobEgress = platform.agent.v1.JobEgress.$Properties;
export type EgressRule = platform.agent.v1.EgressRule.$Properties;
export type EgressApplied = platform.agent.v1.EgressApplied.$Properties;
export type DrainSpec = platform.agent.v1.DrainSpec.$Properties;
export type NetworkSpec = platform.agent.v1.NetworkSpec.$Properties;
export type PlatformFile = platform.agent.v1.PlatformFile.$Properties;
export type InstanceFiles = platform.agent.v1.InstanceFiles.$Properties;
export type NetworkState = platform.agent.v1.NetworkState.$Properties;
export type NetworkMember = platform.agent.v1.NetworkMember.$Properties;
export type NetworkHost = platform.agent.v1.NetworkHost.$Properties;
export type FetchBlobRequest = platform.agent.v1.FetchBlobRequest.$Properties;
export type BlobChunk = platform.agent.v1.BlobChunk.$Properties;
export type Snapshot = platform.agent.v1.Snapshot.$Properties;
export type SnapshotChunk = platform.agent.v1.SnapshotChunk.$Properties;
export type SnapshotAck = platform.agent.v1.SnapshotAck.$Properties;
export type FlushLogs = platform.agent.v1.FlushLogs.$Properties;
export type LogsFlushed = platform.agent.v1.LogsFlushed.$Properties;
export type UsageBatch = platform.agent.v1.UsageBatch.$Properties;
export type UsageSample = platform.agent.v1.UsageSample.$Properties;
export type InstanceUsage = platform.agent.v1.InstanceUsage.$Properties;
export type HostUsage = platform.agent.v1.HostUsage.$Properties;
export type InstanceStateNumber = platform.agent.v1.InstanceState;

/** Instance states of the REST API, in lifecycle order. */
export const INSTANCE_STATES = [
  'NEW', 'SETUP', 'STARTING_WAIT', 'STARTING', 'FIRST_RUNNING', 'RUNNING', 'UPDATING',
  'STOPPING_WAIT', 'STOPPING', 'TEARDOWN', 'REMOVED',
] as const;
export type InstanceStateName = (typeof INSTANCE_STATES)[number];

/** The wire number of a state name. */
export function instanceStateNumber(name: InstanceStateName): InstanceStateNumber {
  return v1.InstanceState[name];
}

/** The name of a wire state number; undefined for UNSPECIFIED or a number this build does not know. */
export function instanceStateName(value: number | null | undefined): InstanceStateName | undefined {
  const name = (v1.InstanceState as unknown as Record<number, string>)[value ?? 0];
  return (INSTANCE_STATES as readonly string[]).includes(name ?? '') ? (name as InstanceStateName) : undefined;
}

interface Codec<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(data: Uint8Array): T;
}

function serializer<T>(codec: Codec<T>): (value: T) => Buffer {
  return (value) => {
    const bytes = codec.encode(value).finish();
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  };
}

function method<Req, Res>(
  name: string, requestStream: boolean, responseStream: boolean, req: Codec<Req>, res: Codec<Res>,
): grpc.MethodDefinition<Req, Res> {
  return {
    path: `/platform.agent.v1.AgentService/${name}`,
    requestStream,
    responseStream,
    requestSerialize: serializer(req),
    requestDeserialize: (data: Buffer) => req.decode(data),
    responseSerialize: serializer(res),
    responseDeserialize: (data: Buffer) => res.decode(data),
  };
}

/** The grpc-js definition of `AgentService` (see agent.proto). */
export const agentServiceDefinition = {
  connect: method<AgentMessage, ControllerMessage>(
    'Connect', true, true, v1.AgentMessage as Codec<AgentMessage>, v1.ControllerMessage as Codec<ControllerMessage>),
  fetchBlob: method<FetchBlobRequest, BlobChunk>(
    'FetchBlob', false, true, v1.FetchBlobRequest as Codec<FetchBlobRequest>, v1.BlobChunk as Codec<BlobChunk>),
  uploadSnapshot: method<SnapshotChunk, SnapshotAck>(
    'UploadSnapshot', true, false, v1.SnapshotChunk as Codec<SnapshotChunk>, v1.SnapshotAck as Codec<SnapshotAck>),
} satisfies grpc.ServiceDefinition;

/** Client of `AgentService`: `connect(metadata)`, `fetchBlob(request, metadata)` and `uploadSnapshot(metadata, callback)`. */
export interface AgentServiceClient extends grpc.Client {
  connect(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<AgentMessage, ControllerMessage>;
  fetchBlob(request: FetchBlobRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<BlobChunk>;
  uploadSnapshot(metadata: grpc.Metadata, callback: (err: grpc.ServiceError | null, ack?: SnapshotAck) => void): grpc.ClientWritableStream<SnapshotChunk>;
}

const ClientConstructor = grpc.makeGenericClientConstructor(agentServiceDefinition, 'AgentService');

/** A client for the controller at `address` ("host:port"), without TLS unless `credentials` say so. */
export function createAgentServiceClient(
  address: string, credentials: grpc.ChannelCredentials = grpc.credentials.createInsecure(), options?: grpc.ChannelOptions,
): AgentServiceClient {
  return new ClientConstructor(address, credentials, options) as unknown as AgentServiceClient;
}

/** Metadata key and scheme that carry the join secret on every call. */
export const AUTHORIZATION_METADATA = 'authorization';

/** Metadata carrying the join secret. */
export function joinMetadata(secret: string): grpc.Metadata {
  const metadata = new grpc.Metadata();
  metadata.set(AUTHORIZATION_METADATA, `Bearer ${secret}`);
  return metadata;
}

/** The join secret a call presented, or undefined. */
export function joinSecretOf(metadata: grpc.Metadata): string | undefined {
  const value = metadata.get(AUTHORIZATION_METADATA)[0];
  if (typeof value !== 'string' || !value.startsWith('Bearer ')) return undefined;
  return value.slice('Bearer '.length);
}

// ---- RouteTableService (router.proto): standalone routers follow the route table ------------

const r1 = routerProto.router.v1;

export const routerMessages = r1;
export type WatchRequest = routerProto.router.v1.WatchRequest.$Properties;
export type WireTableUpdate = routerProto.router.v1.TableUpdate.$Properties;
export type WireTableEntry = routerProto.router.v1.TableEntry.$Properties;
export type RequestReport = routerProto.router.v1.RequestReport.$Properties;
export type WireJobRequests = routerProto.router.v1.JobRequests.$Properties;
export type RequestReportAck = routerProto.router.v1.RequestReportAck.$Properties;

function routerMethod<Req, Res>(name: string, responseStream: boolean, req: Codec<Req>, res: Codec<Res>): grpc.MethodDefinition<Req, Res> {
  return { ...method(name, false, responseStream, req, res), path: `/platform.router.v1.RouteTableService/${name}` };
}

/** The grpc-js definition of `RouteTableService` (see router.proto). */
export const routeTableServiceDefinition = {
  watch: routerMethod<WatchRequest, WireTableUpdate>('Watch', true, r1.WatchRequest as Codec<WatchRequest>, r1.TableUpdate as Codec<WireTableUpdate>),
  reportRequests: routerMethod<RequestReport, RequestReportAck>(
    'ReportRequests', false, r1.RequestReport as Codec<RequestReport>, r1.RequestReportAck as Codec<RequestReportAck>),
} satisfies grpc.ServiceDefinition;

export interface RouteTableServiceClient extends grpc.Client {
  watch(request: WatchRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<WireTableUpdate>;
  reportRequests(
    request: RequestReport, metadata: grpc.Metadata, options: grpc.CallOptions, callback: (err: grpc.ServiceError | null, ack?: RequestReportAck) => void,
  ): grpc.ClientUnaryCall;
}

const RouteTableClientConstructor = grpc.makeGenericClientConstructor(routeTableServiceDefinition, 'RouteTableService');

/** A client for the controller's route table at `address` ("host:port"). */
export function createRouteTableClient(
  address: string, credentials: grpc.ChannelCredentials = grpc.credentials.createInsecure(), options?: grpc.ChannelOptions,
): RouteTableServiceClient {
  return new RouteTableClientConstructor(address, credentials, options) as unknown as RouteTableServiceClient;
}

export { grpc };

export { ACTIVE_CONTROLLER_METADATA, activeControllerOf, ControllerAddresses, controllerList } from './controllers.js';
