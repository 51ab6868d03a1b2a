import * as $protobuf from "protobufjs";
import Long = require("long");

/** Namespace platform. */
export namespace platform {

    /** Namespace agent. */
    namespace agent {

        /** Namespace v1. */
        namespace v1 {

            /** Represents an AgentService */
            class AgentService extends $protobuf.rpc.Service {

                /**
                 * Constructs a new AgentService service.
                 * @param rpcImpl RPC implementation
                 * @param [requestDelimited=false] Whether requests are length-delimited
                 * @param [responseDelimited=false] Whether responses are length-delimited
                 */
                constructor(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean);

                /**
                 * Creates new AgentService service using the specified rpc implementation.
                 * @param rpcImpl RPC implementation
                 * @param [requestDelimited=false] Whether requests are length-delimited
                 * @param [responseDelimited=false] Whether responses are length-delimited
                 * @returns RPC service. Useful where requests and/or responses are streamed.
                 */
                static create(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean): AgentService;

                /** Calls Connect. */
                connect: platform.agent.v1.AgentService.Connect;

                /** Calls FetchBlob. */
                fetchBlob: platform.agent.v1.AgentService.FetchBlob;

                /** Calls UploadSnapshot. */
                uploadSnapshot: platform.agent.v1.AgentService.UploadSnapshot;
            }

            namespace AgentService {

                /**
                 * Callback as used by {@link platform.agent.v1.AgentService#connect}.
                 * @param error Error, if any
                 * @param [response] ControllerMessage
                 */
                type ConnectCallback = (error: (Error|null), response?: platform.agent.v1.ControllerMessage) => void;

                /** Calls Connect. */
                type Connect = {
                  (request: platform.agent.v1.IAgentMessage, callback: platform.agent.v1.AgentService.ConnectCallback): void;
                  (request: platform.agent.v1.IAgentMessage): Promise<platform.agent.v1.ControllerMessage>;
                  readonly name: "Connect";
                  readonly path: "/platform.agent.v1.AgentService/Connect";
                  readonly requestType: "AgentMessage";
                  readonly responseType: "ControllerMessage";
                  readonly requestStream: true;
                  readonly responseStream: true;
                };

                /**
                 * Callback as used by {@link platform.agent.v1.AgentService#fetchBlob}.
                 * @param error Error, if any
                 * @param [response] BlobChunk
                 */
                type FetchBlobCallback = (error: (Error|null), response?: platform.agent.v1.BlobChunk) => void;

                /** Calls FetchBlob. */
                type FetchBlob = {
                  (request: platform.agent.v1.IFetchBlobRequest, callback: platform.agent.v1.AgentService.FetchBlobCallback): void;
                  (request: platform.agent.v1.IFetchBlobRequest): Promise<platform.agent.v1.BlobChunk>;
                  readonly name: "FetchBlob";
                  readonly path: "/platform.agent.v1.AgentService/FetchBlob";
                  readonly requestType: "FetchBlobRequest";
                  readonly responseType: "BlobChunk";
                  readonly requestStream: undefined;
                  readonly responseStream: true;
                };

                /**
                 * Callback as used by {@link platform.agent.v1.AgentService#uploadSnapshot}.
                 * @param error Error, if any
                 * @param [response] SnapshotAck
                 */
                type UploadSnapshotCallback = (error: (Error|null), response?: platform.agent.v1.SnapshotAck) => void;

                /** Calls UploadSnapshot. */
                type UploadSnapshot = {
                  (request: platform.agent.v1.ISnapshotChunk, callback: platform.agent.v1.AgentService.UploadSnapshotCallback): void;
                  (request: platform.agent.v1.ISnapshotChunk): Promise<platform.agent.v1.SnapshotAck>;
                  readonly name: "UploadSnapshot";
                  readonly path: "/platform.agent.v1.AgentService/UploadSnapshot";
                  readonly requestType: "SnapshotChunk";
                  readonly responseType: "SnapshotAck";
                  readonly requestStream: true;
                  readonly responseStream: undefined;
                };
            }

            /**
             * Properties of an AgentMessage.
             * @deprecated Use platform.agent.v1.AgentMessage.$Properties instead.
             */
            interface IAgentMessage extends platform.agent.v1.AgentMessage.$Properties {
            }

            /** Represents an AgentMessage. */
            class AgentMessage {

                /**
                 * Constructs a new AgentMessage.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.AgentMessage.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** AgentMessage hello. */
                hello?: (platform.agent.v1.Hello.$Properties|null);

                /** AgentMessage heartbeat. */
                heartbeat?: (platform.agent.v1.Heartbeat.$Properties|null);

                /** AgentMessage instance. */
                instance?: (platform.agent.v1.InstanceReport.$Properties|null);

                /** AgentMessage logs. */
                logs?: (platform.agent.v1.LogBatch.$Properties|null);

                /** AgentMessage files. */
                files?: (platform.agent.v1.FilesReply.$Properties|null);

                /** AgentMessage logsFlushed. */
                logsFlushed?: (platform.agent.v1.LogsFlushed.$Properties|null);

                /** AgentMessage usage. */
                usage?: (platform.agent.v1.UsageBatch.$Properties|null);

                /** AgentMessage egressApplied. */
                egressApplied?: (platform.agent.v1.EgressApplied.$Properties|null);

                /** AgentMessage body. */
                body?: ("hello"|"heartbeat"|"instance"|"logs"|"files"|"logsFlushed"|"usage"|"egressApplied");

                /**
                 * Creates a new AgentMessage instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns AgentMessage instance
                 */
                static create(properties: platform.agent.v1.AgentMessage.$Shape): platform.agent.v1.AgentMessage & platform.agent.v1.AgentMessage.$Shape;
                static create(properties?: platform.agent.v1.AgentMessage.$Properties): platform.agent.v1.AgentMessage;

                /**
                 * Encodes the specified AgentMessage message. Does not implicitly {@link platform.agent.v1.AgentMessage.verify|verify} messages.
                 * @param m AgentMessage message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.AgentMessage.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an AgentMessage message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.AgentMessage & platform.agent.v1.AgentMessage.$Shape} AgentMessage
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.AgentMessage & platform.agent.v1.AgentMessage.$Shape;

                /**
                 * Creates an AgentMessage message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns AgentMessage
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.AgentMessage;

                /**
                 * Creates a plain object from an AgentMessage message. Also converts values to other types if specified.
                 * @param m AgentMessage
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.AgentMessage, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this AgentMessage to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for AgentMessage
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace AgentMessage {

                /** Properties of an AgentMessage. */
                interface $Properties {

                    /** AgentMessage hello */
                    hello?: (platform.agent.v1.Hello.$Properties|null);

                    /** AgentMessage heartbeat */
                    heartbeat?: (platform.agent.v1.Heartbeat.$Properties|null);

                    /** AgentMessage instance */
                    instance?: (platform.agent.v1.InstanceReport.$Properties|null);

                    /** AgentMessage logs */
                    logs?: (platform.agent.v1.LogBatch.$Properties|null);

                    /** AgentMessage files */
                    files?: (platform.agent.v1.FilesReply.$Properties|null);

                    /** AgentMessage logsFlushed */
                    logsFlushed?: (platform.agent.v1.LogsFlushed.$Properties|null);

                    /** AgentMessage usage */
                    usage?: (platform.agent.v1.UsageBatch.$Properties|null);

                    /** AgentMessage egressApplied */
                    egressApplied?: (platform.agent.v1.EgressApplied.$Properties|null);

                    /** AgentMessage body */
                    body?: ("hello"|"heartbeat"|"instance"|"logs"|"files"|"logsFlushed"|"usage"|"egressApplied");

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Narrowed shape of an AgentMessage. */
                type $Shape = {
                  hello?: platform.agent.v1.Hello.$Shape|null;
                  heartbeat?: platform.agent.v1.Heartbeat.$Shape|null;
                  instance?: platform.agent.v1.InstanceReport.$Shape|null;
                  logs?: platform.agent.v1.LogBatch.$Shape|null;
                  files?: platform.agent.v1.FilesReply.$Shape|null;
                  logsFlushed?: platform.agent.v1.LogsFlushed.$Shape|null;
                  usage?: platform.agent.v1.UsageBatch.$Shape|null;
                  egressApplied?: platform.agent.v1.EgressApplied.$Shape|null;
                  $unknowns?: Uint8Array[];
                } & (
                  ({ body?: undefined; hello?: null; heartbeat?: null; instance?: null; logs?: null; files?: null; logsFlushed?: null; usage?: null; egressApplied?: null }|{ body?: "hello"; hello: platform.agent.v1.Hello.$Shape; heartbeat?: null; instance?: null; logs?: null; files?: null; logsFlushed?: null; usage?: null; egressApplied?: null }|{ body?: "heartbeat"; hello?: null; heartbeat: platform.agent.v1.Heartbeat.$Shape; instance?: null; logs?: null; files?: null; logsFlushed?: null; usage?: null; egressApplied?: null }|{ body?: "instance"; hello?: null; heartbeat?: null; instance: platform.agent.v1.InstanceReport.$Shape; logs?: null; files?: null; logsFlushed?: null; usage?: null; egressApplied?: null }|{ body?: "logs"; hello?: null; heartbeat?: null; instance?: null; logs: platform.agent.v1.LogBatch.$Shape; files?: null; logsFlushed?: null; usage?: null; egressApplied?: null }|{ body?: "files"; hello?: null; heartbeat?: null; instance?: null; logs?: null; files: platform.agent.v1.FilesReply.$Shape; logsFlushed?: null; usage?: null; egressApplied?: null }|{ body?: "logsFlushed"; hello?: null; heartbeat?: null; instance?: null; logs?: null; files?: null; logsFlushed: platform.agent.v1.LogsFlushed.$Shape; usage?: null; egressApplied?: null }|{ body?: "usage"; hello?: null; heartbeat?: null; instance?: null; logs?: null; files?: null; logsFlushed?: null; usage: platform.agent.v1.UsageBatch.$Shape; egressApplied?: null }|{ body?: "egressApplied"; hello?: null; heartbeat?: null; instance?: null; logs?: null; files?: null; logsFlushed?: null; usage?: null; egressApplied: platform.agent.v1.EgressApplied.$Shape })
                );
            }

            /**
             * Properties of a Hello.
             * @deprecated Use platform.agent.v1.Hello.$Properties instead.
             */
            interface IHello extends platform.agent.v1.Hello.$Properties {
            }

            /** Represents a Hello. */
            class Hello {

                /**
                 * Constructs a new Hello.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.Hello.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Hello protocolVersion. */
                protocolVersion: number;

                /** Hello agentUuid. */
                agentUuid: string;

                /** Hello hostname. */
                hostname: string;

                /** Hello datacenter. */
                datacenter: string;

                /** Hello tags. */
                tags: string[];

                /** Hello systemTags. */
                systemTags: string[];

                /** Hello total. */
                total?: (platform.agent.v1.Resources.$Properties|null);

                /** Hello isolation. */
                isolation: string;

                /** Hello cgroups. */
                cgroups: boolean;

                /** Hello startedAtMs. */
                startedAtMs: number;

                /** Hello address. */
                address: string;

                /** Hello instances. */
                instances: platform.agent.v1.InstanceReport.$Properties[];

                /** Hello version. */
                version: string;

                /**
                 * Creates a new Hello instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Hello instance
                 */
                static create(properties: platform.agent.v1.Hello.$Shape): platform.agent.v1.Hello & platform.agent.v1.Hello.$Shape;
                static create(properties?: platform.agent.v1.Hello.$Properties): platform.agent.v1.Hello;

                /**
                 * Encodes the specified Hello message. Does not implicitly {@link platform.agent.v1.Hello.verify|verify} messages.
                 * @param m Hello message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.Hello.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a Hello message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.Hello & platform.agent.v1.Hello.$Shape} Hello
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.Hello & platform.agent.v1.Hello.$Shape;

                /**
                 * Creates a Hello message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns Hello
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.Hello;

                /**
                 * Creates a plain object from a Hello message. Also converts values to other types if specified.
                 * @param m Hello
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.Hello, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Hello to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Hello
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Hello {

                /** Properties of a Hello. */
                interface $Properties {

                    /** Hello protocolVersion */
                    protocolVersion?: (number|null);

                    /** Hello agentUuid */
                    agentUuid?: (string|null);

                    /** Hello hostname */
                    hostname?: (string|null);

                    /** Hello datacenter */
                    datacenter?: (string|null);

                    /** Hello tags */
                    tags?: (string[]|null);

                    /** Hello systemTags */
                    systemTags?: (string[]|null);

                    /** Hello total */
                    total?: (platform.agent.v1.Resources.$Properties|null);

                    /** Hello isolation */
                    isolation?: (string|null);

                    /** Hello cgroups */
                    cgroups?: (boolean|null);

                    /** Hello startedAtMs */
                    startedAtMs?: (number|null);

                    /** Hello address */
                    address?: (string|null);

                    /** Hello instances */
                    instances?: (platform.agent.v1.InstanceReport.$Properties[]|null);

                    /** Hello version */
                    version?: (string|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a Hello. */
                type $Shape = platform.agent.v1.Hello.$Properties;
            }

            /**
             * Properties of a Heartbeat.
             * @deprecated Use platform.agent.v1.Heartbeat.$Properties instead.
             */
            interface IHeartbeat extends platform.agent.v1.Heartbeat.$Properties {
            }

            /** Represents a Heartbeat. */
            class Heartbeat {

                /**
                 * Constructs a new Heartbeat.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.Heartbeat.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Heartbeat sentAtMs. */
                sentAtMs: number;

                /** Heartbeat used. */
                used?: (platform.agent.v1.Resources.$Properties|null);

                /**
                 * Creates a new Heartbeat instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Heartbeat instance
                 */
                static create(properties: platform.agent.v1.Heartbeat.$Shape): platform.agent.v1.Heartbeat & platform.agent.v1.Heartbeat.$Shape;
                static create(properties?: platform.agent.v1.Heartbeat.$Properties): platform.agent.v1.Heartbeat;

                /**
                 * Encodes the specified Heartbeat message. Does not implicitly {@link platform.agent.v1.Heartbeat.verify|verify} messages.
                 * @param m Heartbeat message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.Heartbeat.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a Heartbeat message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.Heartbeat & platform.agent.v1.Heartbeat.$Shape} Heartbeat
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.Heartbeat & platform.agent.v1.Heartbeat.$Shape;

                /**
                 * Creates a Heartbeat message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns Heartbeat
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.Heartbeat;

                /**
                 * Creates a plain object from a Heartbeat message. Also converts values to other types if specified.
                 * @param m Heartbeat
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.Heartbeat, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Heartbeat to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Heartbeat
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Heartbeat {

                /** Properties of a Heartbeat. */
                interface $Properties {

                    /** Heartbeat sentAtMs */
                    sentAtMs?: (number|null);

                    /** Heartbeat used */
                    used?: (platform.agent.v1.Resources.$Properties|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a Heartbeat. */
                type $Shape = platform.agent.v1.Heartbeat.$Properties;
            }

            /**
             * Properties of a Resources.
             * @deprecated Use platform.agent.v1.Resources.$Properties instead.
             */
            interface IResources extends platform.agent.v1.Resources.$Properties {
            }

            /** Represents a Resources. */
            class Resources {

                /**
                 * Constructs a new Resources.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.Resources.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Resources cpu. */
                cpu: number;

                /** Resources memory. */
                memory: number;

                /** Resources disk. */
                disk: number;

                /** Resources network. */
                network: number;

                /** Resources netmax. */
                netmax: number;

                /**
                 * Creates a new Resources instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Resources instance
                 */
                static create(properties: platform.agent.v1.Resources.$Shape): platform.agent.v1.Resources & platform.agent.v1.Resources.$Shape;
                static create(properties?: platform.agent.v1.Resources.$Properties): platform.agent.v1.Resources;

                /**
                 * Encodes the specified Resources message. Does not implicitly {@link platform.agent.v1.Resources.verify|verify} messages.
                 * @param m Resources message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.Resources.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a Resources message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.Resources & platform.agent.v1.Resources.$Shape} Resources
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.Resources & platform.agent.v1.Resources.$Shape;

                /**
                 * Creates a Resources message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns Resources
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.Resources;

                /**
                 * Creates a plain object from a Resources message. Also converts values to other types if specified.
                 * @param m Resources
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.Resources, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Resources to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Resources
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Resources {

                /** Properties of a Resources. */
                interface $Properties {

                    /** Resources cpu */
                    cpu?: (number|null);

                    /** Resources memory */
                    memory?: (number|null);

                    /** Resources disk */
                    disk?: (number|null);

                    /** Resources network */
                    network?: (number|null);

                    /** Resources netmax */
                    netmax?: (number|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a Resources. */
                type $Shape = platform.agent.v1.Resources.$Properties;
            }

            /** InstanceState enum. */
            enum InstanceState {

                /** INSTANCE_STATE_UNSPECIFIED value */
                INSTANCE_STATE_UNSPECIFIED = 0,

                /** NEW value */
                NEW = 1,

                /** SETUP value */
                SETUP = 2,

                /** STARTING_WAIT value */
                STARTING_WAIT = 3,

                /** STARTING value */
                STARTING = 4,

                /** FIRST_RUNNING value */
                FIRST_RUNNING = 5,

                /** RUNNING value */
                RUNNING = 6,

                /** UPDATING value */
                UPDATING = 7,

                /** STOPPING_WAIT value */
                STOPPING_WAIT = 8,

                /** STOPPING value */
                STOPPING = 9,

                /** TEARDOWN value */
                TEARDOWN = 10,

                /** REMOVED value */
                REMOVED = 11
            }

            /**
             * Properties of an InstanceReport.
             * @deprecated Use platform.agent.v1.InstanceReport.$Properties instead.
             */
            interface IInstanceReport extends platform.agent.v1.InstanceReport.$Properties {
            }

            /** Represents an InstanceReport. */
            class InstanceReport {

                /**
                 * Constructs a new InstanceReport.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.InstanceReport.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** InstanceReport instanceUuid. */
                instanceUuid: string;

                /** InstanceReport jobUuid. */
                jobUuid: string;

                /** InstanceReport jobVersionId. */
                jobVersionId: number;

                /** InstanceReport state. */
                state: platform.agent.v1.InstanceState;

                /** InstanceReport exited. */
                exited: boolean;

                /** InstanceReport exitCode. */
                exitCode: number;

                /** InstanceReport failed. */
                failed: boolean;

                /** InstanceReport reason. */
                reason: string;

                /** InstanceReport ports. */
                ports: { [k: string]: string };

                /** InstanceReport timeMs. */
                timeMs: number;

                /** InstanceReport createdMs. */
                createdMs: number;

                /** InstanceReport stopRequested. */
                stopRequested: boolean;

                /**
                 * Creates a new InstanceReport instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns InstanceReport instance
                 */
                static create(properties: platform.agent.v1.InstanceReport.$Shape): platform.agent.v1.InstanceReport & platform.agent.v1.InstanceReport.$Shape;
                static create(properties?: platform.agent.v1.InstanceReport.$Properties): platform.agent.v1.InstanceReport;

                /**
                 * Encodes the specified InstanceReport message. Does not implicitly {@link platform.agent.v1.InstanceReport.verify|verify} messages.
                 * @param m InstanceReport message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.InstanceReport.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an InstanceReport message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.InstanceReport & platform.agent.v1.InstanceReport.$Shape} InstanceReport
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.InstanceReport & platform.agent.v1.InstanceReport.$Shape;

                /**
                 * Creates an InstanceReport message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns InstanceReport
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.InstanceReport;

                /**
                 * Creates a plain object from an InstanceReport message. Also converts values to other types if specified.
                 * @param m InstanceReport
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.InstanceReport, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this InstanceReport to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for InstanceReport
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace InstanceReport {

                /** Properties of an InstanceReport. */
                interface $Properties {

                    /** InstanceReport instanceUuid */
                    instanceUuid?: (string|null);

                    /** InstanceReport jobUuid */
                    jobUuid?: (string|null);

                    /** InstanceReport jobVersionId */
                    jobVersionId?: (number|null);

                    /** InstanceReport state */
                    state?: (platform.agent.v1.InstanceState|null);

                    /** InstanceReport exited */
                    exited?: (boolean|null);

                    /** InstanceReport exitCode */
                    exitCode?: (number|null);

                    /** InstanceReport failed */
                    failed?: (boolean|null);

                    /** InstanceReport reason */
                    reason?: (string|null);

                    /** InstanceReport ports */
                    ports?: ({ [k: string]: string }|null);

                    /** InstanceReport timeMs */
                    timeMs?: (number|null);

                    /** InstanceReport createdMs */
                    createdMs?: (number|null);

                    /** InstanceReport stopRequested */
                    stopRequested?: (boolean|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an InstanceReport. */
                type $Shape = platform.agent.v1.InstanceReport.$Properties;
            }

            /**
             * Properties of a UsageBatch.
             * @deprecated Use platform.agent.v1.UsageBatch.$Properties instead.
             */
            interface IUsageBatch extends platform.agent.v1.UsageBatch.$Properties {
            }

            /** Represents a UsageBatch. */
            class UsageBatch {

                /**
                 * Constructs a new UsageBatch.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.UsageBatch.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** UsageBatch samples. */
                samples: platform.agent.v1.UsageSample.$Properties[];

                /** UsageBatch droppedTotal. */
                droppedTotal: number;

                /**
                 * Creates a new UsageBatch instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns UsageBatch instance
                 */
                static create(properties: platform.agent.v1.UsageBatch.$Shape): platform.agent.v1.UsageBatch & platform.agent.v1.UsageBatch.$Shape;
                static create(properties?: platform.agent.v1.UsageBatch.$Properties): platform.agent.v1.UsageBatch;

                /**
                 * Encodes the specified UsageBatch message. Does not implicitly {@link platform.agent.v1.UsageBatch.verify|verify} messages.
                 * @param m UsageBatch message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.UsageBatch.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a UsageBatch message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.UsageBatch & platform.agent.v1.UsageBatch.$Shape} UsageBatch
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.UsageBatch & platform.agent.v1.UsageBatch.$Shape;

                /**
                 * Creates a UsageBatch message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns UsageBatch
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.UsageBatch;

                /**
                 * Creates a plain object from a UsageBatch message. Also converts values to other types if specified.
                 * @param m UsageBatch
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.UsageBatch, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this UsageBatch to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for UsageBatch
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace UsageBatch {

                /** Properties of a UsageBatch. */
                interface $Properties {

                    /** UsageBatch samples */
                    samples?: (platform.agent.v1.UsageSample.$Properties[]|null);

                    /** UsageBatch droppedTotal */
                    droppedTotal?: (number|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a UsageBatch. */
                type $Shape = platform.agent.v1.UsageBatch.$Properties;
            }

            /**
             * Properties of a UsageSample.
             * @deprecated Use platform.agent.v1.UsageSample.$Properties instead.
             */
            interface IUsageSample extends platform.agent.v1.UsageSample.$Properties {
            }

            /** Represents a UsageSample. */
            class UsageSample {

                /**
                 * Constructs a new UsageSample.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.UsageSample.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** UsageSample timeMs. */
                timeMs: number;

                /** UsageSample intervalMs. */
                intervalMs: number;

                /** UsageSample host. */
                host?: (platform.agent.v1.HostUsage.$Properties|null);

                /** UsageSample instances. */
                instances: platform.agent.v1.InstanceUsage.$Properties[];

                /**
                 * Creates a new UsageSample instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns UsageSample instance
                 */
                static create(properties: platform.agent.v1.UsageSample.$Shape): platform.agent.v1.UsageSample & platform.agent.v1.UsageSample.$Shape;
                static create(properties?: platform.agent.v1.UsageSample.$Properties): platform.agent.v1.UsageSample;

                /**
                 * Encodes the specified UsageSample message. Does not implicitly {@link platform.agent.v1.UsageSample.verify|verify} messages.
                 * @param m UsageSample message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.UsageSample.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a UsageSample message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.UsageSample & platform.agent.v1.UsageSample.$Shape} UsageSample
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.UsageSample & platform.agent.v1.UsageSample.$Shape;

                /**
                 * Creates a UsageSample message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns UsageSample
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.UsageSample;

                /**
                 * Creates a plain object from a UsageSample message. Also converts values to other types if specified.
                 * @param m UsageSample
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.UsageSample, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this UsageSample to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for UsageSample
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace UsageSample {

                /** Properties of a UsageSample. */
                interface $Properties {

                    /** UsageSample timeMs */
                    timeMs?: (number|null);

                    /** UsageSample intervalMs */
                    intervalMs?: (number|null);

                    /** UsageSample host */
                    host?: (platform.agent.v1.HostUsage.$Properties|null);

                    /** UsageSample instances */
                    instances?: (platform.agent.v1.InstanceUsage.$Properties[]|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a UsageSample. */
                type $Shape = platform.agent.v1.UsageSample.$Properties;
            }

            /**
             * Properties of an InstanceUsage.
             * @deprecated Use platform.agent.v1.InstanceUsage.$Properties instead.
             */
            interface IInstanceUsage extends platform.agent.v1.InstanceUsage.$Properties {
            }

            /** Represents an InstanceUsage. */
            class InstanceUsage {

                /**
                 * Constructs a new InstanceUsage.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.InstanceUsage.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** InstanceUsage instanceUuid. */
                instanceUuid: string;

                /** InstanceUsage jobUuid. */
                jobUuid: string;

                /** InstanceUsage cpuNs. */
                cpuNs: number;

                /** InstanceUsage memoryUsed. */
                memoryUsed: number;

                /** InstanceUsage memoryLimit. */
                memoryLimit: number;

                /** InstanceUsage diskUsed. */
                diskUsed: number;

                /** InstanceUsage diskLimit. */
                diskLimit: number;

                /** InstanceUsage networkRx. */
                networkRx: number;

                /** InstanceUsage networkTx. */
                networkTx: number;

                /** InstanceUsage networkMeasured. */
                networkMeasured: boolean;

                /** InstanceUsage bandwidthLimit. */
                bandwidthLimit: number;

                /**
                 * Creates a new InstanceUsage instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns InstanceUsage instance
                 */
                static create(properties: platform.agent.v1.InstanceUsage.$Shape): platform.agent.v1.InstanceUsage & platform.agent.v1.InstanceUsage.$Shape;
                static create(properties?: platform.agent.v1.InstanceUsage.$Properties): platform.agent.v1.InstanceUsage;

                /**
                 * Encodes the specified InstanceUsage message. Does not implicitly {@link platform.agent.v1.InstanceUsage.verify|verify} messages.
                 * @param m InstanceUsage message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.InstanceUsage.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an InstanceUsage message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.InstanceUsage & platform.agent.v1.InstanceUsage.$Shape} InstanceUsage
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.InstanceUsage & platform.agent.v1.InstanceUsage.$Shape;

                /**
                 * Creates an InstanceUsage message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns InstanceUsage
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.InstanceUsage;

                /**
                 * Creates a plain object from an InstanceUsage message. Also converts values to other types if specified.
                 * @param m InstanceUsage
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.InstanceUsage, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this InstanceUsage to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for InstanceUsage
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace InstanceUsage {

                /** Properties of an InstanceUsage. */
                interface $Properties {

                    /** InstanceUsage instanceUuid */
                    instanceUuid?: (string|null);

                    /** InstanceUsage jobUuid */
                    jobUuid?: (string|null);

                    /** InstanceUsage cpuNs */
                    cpuNs?: (number|null);

                    /** InstanceUsage memoryUsed */
                    memoryUsed?: (number|null);

                    /** InstanceUsage memoryLimit */
                    memoryLimit?: (number|null);

                    /** InstanceUsage diskUsed */
                    diskUsed?: (number|null);

                    /** InstanceUsage diskLimit */
                    diskLimit?: (number|null);

                    /** InstanceUsage networkRx */
                    networkRx?: (number|null);

                    /** InstanceUsage networkTx */
                    networkTx?: (number|null);

                    /** InstanceUsage networkMeasured */
                    networkMeasured?: (boolean|null);

                    /** InstanceUsage bandwidthLimit */
                    bandwidthLimit?: (number|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an InstanceUsage. */
                type $Shape = platform.agent.v1.InstanceUsage.$Properties;
            }

            /**
             * Properties of a HostUsage.
             * @deprecated Use platform.agent.v1.HostUsage.$Properties instead.
             */
            interface IHostUsage extends platform.agent.v1.HostUsage.$Properties {
            }

            /** Represents a HostUsage. */
            class HostUsage {

                /**
                 * Constructs a new HostUsage.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.HostUsage.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** HostUsage cpuNs. */
                cpuNs: number;

                /** HostUsage cpuTotal. */
                cpuTotal: number;

                /** HostUsage memoryUsed. */
                memoryUsed: number;

                /** HostUsage memoryTotal. */
                memoryTotal: number;

                /** HostUsage diskUsed. */
                diskUsed: number;

                /** HostUsage diskTotal. */
                diskTotal: number;

                /** HostUsage networkRx. */
                networkRx: number;

                /** HostUsage networkTx. */
                networkTx: number;

                /** HostUsage bandwidthTotal. */
                bandwidthTotal: number;

                /**
                 * Creates a new HostUsage instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns HostUsage instance
                 */
                static create(properties: platform.agent.v1.HostUsage.$Shape): platform.agent.v1.HostUsage & platform.agent.v1.HostUsage.$Shape;
                static create(properties?: platform.agent.v1.HostUsage.$Properties): platform.agent.v1.HostUsage;

                /**
                 * Encodes the specified HostUsage message. Does not implicitly {@link platform.agent.v1.HostUsage.verify|verify} messages.
                 * @param m HostUsage message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.HostUsage.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a HostUsage message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.HostUsage & platform.agent.v1.HostUsage.$Shape} HostUsage
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.HostUsage & platform.agent.v1.HostUsage.$Shape;

                /**
                 * Creates a HostUsage message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns HostUsage
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.HostUsage;

                /**
                 * Creates a plain object from a HostUsage message. Also converts values to other types if specified.
                 * @param m HostUsage
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.HostUsage, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this HostUsage to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for HostUsage
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace HostUsage {

                /** Properties of a HostUsage. */
                interface $Properties {

                    /** HostUsage cpuNs */
                    cpuNs?: (number|null);

                    /** HostUsage cpuTotal */
                    cpuTotal?: (number|null);

                    /** HostUsage memoryUsed */
                    memoryUsed?: (number|null);

                    /** HostUsage memoryTotal */
                    memoryTotal?: (number|null);

                    /** HostUsage diskUsed */
                    diskUsed?: (number|null);

                    /** HostUsage diskTotal */
                    diskTotal?: (number|null);

                    /** HostUsage networkRx */
                    networkRx?: (number|null);

                    /** HostUsage networkTx */
                    networkTx?: (number|null);

                    /** HostUsage bandwidthTotal */
                    bandwidthTotal?: (number|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a HostUsage. */
                type $Shape = platform.agent.v1.HostUsage.$Properties;
            }

            /**
             * Properties of a LogBatch.
             * @deprecated Use platform.agent.v1.LogBatch.$Properties instead.
             */
            interface ILogBatch extends platform.agent.v1.LogBatch.$Properties {
            }

            /** Represents a LogBatch. */
            class LogBatch {

                /**
                 * Constructs a new LogBatch.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.LogBatch.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** LogBatch lines. */
                lines: platform.agent.v1.LogLine.$Properties[];

                /**
                 * Creates a new LogBatch instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns LogBatch instance
                 */
                static create(properties: platform.agent.v1.LogBatch.$Shape): platform.agent.v1.LogBatch & platform.agent.v1.LogBatch.$Shape;
                static create(properties?: platform.agent.v1.LogBatch.$Properties): platform.agent.v1.LogBatch;

                /**
                 * Encodes the specified LogBatch message. Does not implicitly {@link platform.agent.v1.LogBatch.verify|verify} messages.
                 * @param m LogBatch message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.LogBatch.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a LogBatch message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.LogBatch & platform.agent.v1.LogBatch.$Shape} LogBatch
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.LogBatch & platform.agent.v1.LogBatch.$Shape;

                /**
                 * Creates a LogBatch message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns LogBatch
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.LogBatch;

                /**
                 * Creates a plain object from a LogBatch message. Also converts values to other types if specified.
                 * @param m LogBatch
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.LogBatch, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this LogBatch to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for LogBatch
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace LogBatch {

                /** Properties of a LogBatch. */
                interface $Properties {

                    /** LogBatch lines */
                    lines?: (platform.agent.v1.LogLine.$Properties[]|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a LogBatch. */
                type $Shape = platform.agent.v1.LogBatch.$Properties;
            }

            /**
             * Properties of a LogLine.
             * @deprecated Use platform.agent.v1.LogLine.$Properties instead.
             */
            interface ILogLine extends platform.agent.v1.LogLine.$Properties {
            }

            /** Represents a LogLine. */
            class LogLine {

                /**
                 * Constructs a new LogLine.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.LogLine.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** LogLine instanceUuid. */
                instanceUuid: string;

                /** LogLine jobUuid. */
                jobUuid: string;

                /** LogLine stream. */
                stream: string;

                /** LogLine text. */
                text: string;

                /** LogLine timeMs. */
                timeMs: number;

                /**
                 * Creates a new LogLine instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns LogLine instance
                 */
                static create(properties: platform.agent.v1.LogLine.$Shape): platform.agent.v1.LogLine & platform.agent.v1.LogLine.$Shape;
                static create(properties?: platform.agent.v1.LogLine.$Properties): platform.agent.v1.LogLine;

                /**
                 * Encodes the specified LogLine message. Does not implicitly {@link platform.agent.v1.LogLine.verify|verify} messages.
                 * @param m LogLine message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.LogLine.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a LogLine message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.LogLine & platform.agent.v1.LogLine.$Shape} LogLine
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.LogLine & platform.agent.v1.LogLine.$Shape;

                /**
                 * Creates a LogLine message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns LogLine
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.LogLine;

                /**
                 * Creates a plain object from a LogLine message. Also converts values to other types if specified.
                 * @param m LogLine
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.LogLine, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this LogLine to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for LogLine
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace LogLine {

                /** Properties of a LogLine. */
                interface $Properties {

                    /** LogLine instanceUuid */
                    instanceUuid?: (string|null);

                    /** LogLine jobUuid */
                    jobUuid?: (string|null);

                    /** LogLine stream */
                    stream?: (string|null);

                    /** LogLine text */
                    text?: (string|null);

                    /** LogLine timeMs */
                    timeMs?: (number|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a LogLine. */
                type $Shape = platform.agent.v1.LogLine.$Properties;
            }

            /**
             * Properties of a LogsFlushed.
             * @deprecated Use platform.agent.v1.LogsFlushed.$Properties instead.
             */
            interface ILogsFlushed extends platform.agent.v1.LogsFlushed.$Properties {
            }

            /** Represents a LogsFlushed. */
            class LogsFlushed {

                /**
                 * Constructs a new LogsFlushed.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.LogsFlushed.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** LogsFlushed requestId. */
                requestId: string;

                /**
                 * Creates a new LogsFlushed instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns LogsFlushed instance
                 */
                static create(properties: platform.agent.v1.LogsFlushed.$Shape): platform.agent.v1.LogsFlushed & platform.agent.v1.LogsFlushed.$Shape;
                static create(properties?: platform.agent.v1.LogsFlushed.$Properties): platform.agent.v1.LogsFlushed;

                /**
                 * Encodes the specified LogsFlushed message. Does not implicitly {@link platform.agent.v1.LogsFlushed.verify|verify} messages.
                 * @param m LogsFlushed message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.LogsFlushed.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a LogsFlushed message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.LogsFlushed & platform.agent.v1.LogsFlushed.$Shape} LogsFlushed
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.LogsFlushed & platform.agent.v1.LogsFlushed.$Shape;

                /**
                 * Creates a LogsFlushed message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns LogsFlushed
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.LogsFlushed;

                /**
                 * Creates a plain object from a LogsFlushed message. Also converts values to other types if specified.
                 * @param m LogsFlushed
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.LogsFlushed, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this LogsFlushed to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for LogsFlushed
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace LogsFlushed {

                /** Properties of a LogsFlushed. */
                interface $Properties {

                    /** LogsFlushed requestId */
                    requestId?: (string|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a LogsFlushed. */
                type $Shape = platform.agent.v1.LogsFlushed.$Properties;
            }

            /**
             * Properties of a FilesReply.
             * @deprecated Use platform.agent.v1.FilesReply.$Properties instead.
             */
            interface IFilesReply extends platform.agent.v1.FilesReply.$Properties {
            }

            /** Represents a FilesReply. */
            class FilesReply {

                /**
                 * Constructs a new FilesReply.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.FilesReply.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** FilesReply requestId. */
                requestId: string;

                /** FilesReply entries. */
                entries: platform.agent.v1.FileEntry.$Properties[];

                /** FilesReply error. */
                error: string;

                /** FilesReply errorKind. */
                errorKind: string;

                /**
                 * Creates a new FilesReply instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns FilesReply instance
                 */
                static create(properties: platform.agent.v1.FilesReply.$Shape): platform.agent.v1.FilesReply & platform.agent.v1.FilesReply.$Shape;
                static create(properties?: platform.agent.v1.FilesReply.$Properties): platform.agent.v1.FilesReply;

                /**
                 * Encodes the specified FilesReply message. Does not implicitly {@link platform.agent.v1.FilesReply.verify|verify} messages.
                 * @param m FilesReply message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.FilesReply.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a FilesReply message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.FilesReply & platform.agent.v1.FilesReply.$Shape} FilesReply
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.FilesReply & platform.agent.v1.FilesReply.$Shape;

                /**
                 * Creates a FilesReply message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns FilesReply
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.FilesReply;

                /**
                 * Creates a plain object from a FilesReply message. Also converts values to other types if specified.
                 * @param m FilesReply
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.FilesReply, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this FilesReply to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for FilesReply
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace FilesReply {

                /** Properties of a FilesReply. */
                interface $Properties {

                    /** FilesReply requestId */
                    requestId?: (string|null);

                    /** FilesReply entries */
                    entries?: (platform.agent.v1.FileEntry.$Properties[]|null);

                    /** FilesReply error */
                    error?: (string|null);

                    /** FilesReply errorKind */
                    errorKind?: (string|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a FilesReply. */
                type $Shape = platform.agent.v1.FilesReply.$Properties;
            }

            /**
             * Properties of a FileEntry.
             * @deprecated Use platform.agent.v1.FileEntry.$Properties instead.
             */
            interface IFileEntry extends platform.agent.v1.FileEntry.$Properties {
            }

            /** Represents a FileEntry. */
            class FileEntry {

                /**
                 * Constructs a new FileEntry.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.FileEntry.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** FileEntry name. */
                name: string;

                /** FileEntry size. */
                size: number;

                /**
                 * Creates a new FileEntry instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns FileEntry instance
                 */
                static create(properties: platform.agent.v1.FileEntry.$Shape): platform.agent.v1.FileEntry & platform.agent.v1.FileEntry.$Shape;
                static create(properties?: platform.agent.v1.FileEntry.$Properties): platform.agent.v1.FileEntry;

                /**
                 * Encodes the specified FileEntry message. Does not implicitly {@link platform.agent.v1.FileEntry.verify|verify} messages.
                 * @param m FileEntry message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.FileEntry.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a FileEntry message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.FileEntry & platform.agent.v1.FileEntry.$Shape} FileEntry
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.FileEntry & platform.agent.v1.FileEntry.$Shape;

                /**
                 * Creates a FileEntry message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns FileEntry
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.FileEntry;

                /**
                 * Creates a plain object from a FileEntry message. Also converts values to other types if specified.
                 * @param m FileEntry
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.FileEntry, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this FileEntry to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for FileEntry
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace FileEntry {

                /** Properties of a FileEntry. */
                interface $Properties {

                    /** FileEntry name */
                    name?: (string|null);

                    /** FileEntry size */
                    size?: (number|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a FileEntry. */
                type $Shape = platform.agent.v1.FileEntry.$Properties;
            }

            /**
             * Properties of a ControllerMessage.
             * @deprecated Use platform.agent.v1.ControllerMessage.$Properties instead.
             */
            interface IControllerMessage extends platform.agent.v1.ControllerMessage.$Properties {
            }

            /** Represents a ControllerMessage. */
            class ControllerMessage {

                /**
                 * Constructs a new ControllerMessage.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.ControllerMessage.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** ControllerMessage welcome. */
                welcome?: (platform.agent.v1.Welcome.$Properties|null);

                /** ControllerMessage start. */
                start?: (platform.agent.v1.StartInstance.$Properties|null);

                /** ControllerMessage stop. */
                stop?: (platform.agent.v1.StopInstance.$Properties|null);

                /** ControllerMessage listFiles. */
                listFiles?: (platform.agent.v1.ListFiles.$Properties|null);

                /** ControllerMessage snapshot. */
                snapshot?: (platform.agent.v1.Snapshot.$Properties|null);

                /** ControllerMessage flushLogs. */
                flushLogs?: (platform.agent.v1.FlushLogs.$Properties|null);

                /** ControllerMessage linkTargets. */
                linkTargets?: (platform.agent.v1.LinkTargets.$Properties|null);

                /** ControllerMessage jobDrains. */
                jobDrains?: (platform.agent.v1.JobDrains.$Properties|null);

                /** ControllerMessage networkState. */
                networkState?: (platform.agent.v1.NetworkState.$Properties|null);

                /** ControllerMessage instanceFiles. */
                instanceFiles?: (platform.agent.v1.InstanceFiles.$Properties|null);

                /** ControllerMessage jobEgress. */
                jobEgress?: (platform.agent.v1.JobEgress.$Properties|null);

                /** ControllerMessage body. */
                body?: ("welcome"|"start"|"stop"|"listFiles"|"snapshot"|"flushLogs"|"linkTargets"|"jobDrains"|"networkState"|"instanceFiles"|"jobEgress");

                /**
                 * Creates a new ControllerMessage instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns ControllerMessage instance
                 */
                static create(properties: platform.agent.v1.ControllerMessage.$Shape): platform.agent.v1.ControllerMessage & platform.agent.v1.ControllerMessage.$Shape;
                static create(properties?: platform.agent.v1.ControllerMessage.$Properties): platform.agent.v1.ControllerMessage;

                /**
                 * Encodes the specified ControllerMessage message. Does not implicitly {@link platform.agent.v1.ControllerMessage.verify|verify} messages.
                 * @param m ControllerMessage message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.ControllerMessage.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a ControllerMessage message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.ControllerMessage & platform.agent.v1.ControllerMessage.$Shape} ControllerMessage
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.ControllerMessage & platform.agent.v1.ControllerMessage.$Shape;

                /**
                 * Creates a ControllerMessage message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns ControllerMessage
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.ControllerMessage;

                /**
                 * Creates a plain object from a ControllerMessage message. Also converts values to other types if specified.
                 * @param m ControllerMessage
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.ControllerMessage, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this ControllerMessage to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for ControllerMessage
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace ControllerMessage {

                /** Properties of a ControllerMessage. */
                interface $Properties {

                    /** ControllerMessage welcome */
                    welcome?: (platform.agent.v1.Welcome.$Properties|null);

                    /** ControllerMessage start */
                    start?: (platform.agent.v1.StartInstance.$Properties|null);

                    /** ControllerMessage stop */
                    stop?: (platform.agent.v1.StopInstance.$Properties|null);

                    /** ControllerMessage listFiles */
                    listFiles?: (platform.agent.v1.ListFiles.$Properties|null);

                    /** ControllerMessage snapshot */
                    snapshot?: (platform.agent.v1.Snapshot.$Properties|null);

                    /** ControllerMessage flushLogs */
                    flushLogs?: (platform.agent.v1.FlushLogs.$Properties|null);

                    /** ControllerMessage linkTargets */
                    linkTargets?: (platform.agent.v1.LinkTargets.$Properties|null);

                    /** ControllerMessage jobDrains */
                    jobDrains?: (platform.agent.v1.JobDrains.$Properties|null);

                    /** ControllerMessage networkState */
                    networkState?: (platform.agent.v1.NetworkState.$Properties|null);

                    /** ControllerMessage instanceFiles */
                    instanceFiles?: (platform.agent.v1.InstanceFiles.$Properties|null);

                    /** ControllerMessage jobEgress */
                    jobEgress?: (platform.agent.v1.JobEgress.$Properties|null);

                    /** ControllerMessage body */
                    body?: ("welcome"|"start"|"stop"|"listFiles"|"snapshot"|"flushLogs"|"linkTargets"|"jobDrains"|"networkState"|"instanceFiles"|"jobEgress");

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Narrowed shape of a ControllerMessage. */
                type $Shape = {
                  welcome?: platform.agent.v1.Welcome.$Shape|null;
                  start?: platform.agent.v1.StartInstance.$Shape|null;
                  stop?: platform.agent.v1.StopInstance.$Shape|null;
                  listFiles?: platform.agent.v1.ListFiles.$Shape|null;
                  snapshot?: platform.agent.v1.Snapshot.$Shape|null;
                  flushLogs?: platform.agent.v1.FlushLogs.$Shape|null;
                  linkTargets?: platform.agent.v1.LinkTargets.$Shape|null;
                  jobDrains?: platform.agent.v1.JobDrains.$Shape|null;
                  networkState?: platform.agent.v1.NetworkState.$Shape|null;
                  instanceFiles?: platform.agent.v1.InstanceFiles.$Shape|null;
                  jobEgress?: platform.agent.v1.JobEgress.$Shape|null;
                  $unknowns?: Uint8Array[];
                } & (
                  ({ body?: undefined; welcome?: null; start?: null; stop?: null; listFiles?: null; snapshot?: null; flushLogs?: null; linkTargets?: null; jobDrains?: null; networkState?: null; instanceFiles?: null; jobEgress?: null }|{ body?: "welcome"; welcome: platform.agent.v1.Welcome.$Shape; start?: null; stop?: null; listFiles?: null; snapshot?: null; flushLogs?: null; linkTargets?: null; jobDrains?: null; networkState?: null; instanceFiles?: null; jobEgress?: null }|{ body?: "start"; welcome?: null; start: platform.agent.v1.StartInstance.$Shape; stop?: null; listFiles?: null; snapshot?: null; flushLogs?: null; linkTargets?: null; jobDrains?: null; networkState?: null; instanceFiles?: null; jobEgress?: null }|{ body?: "stop"; welcome?: null; start?: null; stop: platform.agent.v1.StopInstance.$Shape; listFiles?: null; snapshot?: null; flushLogs?: null; linkTargets?: null; jobDrains?: null; networkState?: null; instanceFiles?: null; jobEgress?: null }|{ body?: "listFiles"; welcome?: null; start?: null; stop?: null; listFiles: platform.agent.v1.ListFiles.$Shape; snapshot?: null; flushLogs?: null; linkTargets?: null; jobDrains?: null; networkState?: null; instanceFiles?: null; jobEgress?: null }|{ body?: "snapshot"; welcome?: null; start?: null; stop?: null; listFiles?: null; snapshot: platform.agent.v1.Snapshot.$Shape; flushLogs?: null; linkTargets?: null; jobDrains?: null; networkState?: null; instanceFiles?: null; jobEgress?: null }|{ body?: "flushLogs"; welcome?: null; start?: null; stop?: null; listFiles?: null; snapshot?: null; flushLogs: platform.agent.v1.FlushLogs.$Shape; linkTargets?: null; jobDrains?: null; networkState?: null; instanceFiles?: null; jobEgress?: null }|{ body?: "linkTargets"; welcome?: null; start?: null; stop?: null; listFiles?: null; snapshot?: null; flushLogs?: null; linkTargets: platform.agent.v1.LinkTargets.$Shape; jobDrains?: null; networkState?: null; instanceFiles?: null; jobEgress?: null }|{ body?: "jobDrains"; welcome?: null; start?: null; stop?: null; listFiles?: null; snapshot?: null; flushLogs?: null; linkTargets?: null; jobDrains: platform.agent.v1.JobDrains.$Shape; networkState?: null; instanceFiles?: null; jobEgress?: null }|{ body?: "networkState"; welcome?: null; start?: null; stop?: null; listFiles?: null; snapshot?: null; flushLogs?: null; linkTargets?: null; jobDrains?: null; networkState: platform.agent.v1.NetworkState.$Shape; instanceFiles?: null; jobEgress?: null }|{ body?: "instanceFiles"; welcome?: null; start?: null; stop?: null; listFiles?: null; snapshot?: null; flushLogs?: null; linkTargets?: null; jobDrains?: null; networkState?: null; instanceFiles: platform.agent.v1.InstanceFiles.$Shape; jobEgress?: null }|{ body?: "jobEgress"; welcome?: null; start?: null; stop?: null; listFiles?: null; snapshot?: null; flushLogs?: null; linkTargets?: null; jobDrains?: null; networkState?: null; instanceFiles?: null; jobEgress: platform.agent.v1.JobEgress.$Shape })
                );
            }

            /**
             * Properties of an InstanceFiles.
             * @deprecated Use platform.agent.v1.InstanceFiles.$Properties instead.
             */
            interface IInstanceFiles extends platform.agent.v1.InstanceFiles.$Properties {
            }

            /** Represents an InstanceFiles. */
            class InstanceFiles {

                /**
                 * Constructs a new InstanceFiles.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.InstanceFiles.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** InstanceFiles instanceUuid. */
                instanceUuid: string;

                /** InstanceFiles files. */
                files: platform.agent.v1.PlatformFile.$Properties[];

                /**
                 * Creates a new InstanceFiles instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns InstanceFiles instance
                 */
                static create(properties: platform.agent.v1.InstanceFiles.$Shape): platform.agent.v1.InstanceFiles & platform.agent.v1.InstanceFiles.$Shape;
                static create(properties?: platform.agent.v1.InstanceFiles.$Properties): platform.agent.v1.InstanceFiles;

                /**
                 * Encodes the specified InstanceFiles message. Does not implicitly {@link platform.agent.v1.InstanceFiles.verify|verify} messages.
                 * @param m InstanceFiles message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.InstanceFiles.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an InstanceFiles message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.InstanceFiles & platform.agent.v1.InstanceFiles.$Shape} InstanceFiles
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.InstanceFiles & platform.agent.v1.InstanceFiles.$Shape;

                /**
                 * Creates an InstanceFiles message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns InstanceFiles
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.InstanceFiles;

                /**
                 * Creates a plain object from an InstanceFiles message. Also converts values to other types if specified.
                 * @param m InstanceFiles
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.InstanceFiles, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this InstanceFiles to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for InstanceFiles
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace InstanceFiles {

                /** Properties of an InstanceFiles. */
                interface $Properties {

                    /** InstanceFiles instanceUuid */
                    instanceUuid?: (string|null);

                    /** InstanceFiles files */
                    files?: (platform.agent.v1.PlatformFile.$Properties[]|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an InstanceFiles. */
                type $Shape = platform.agent.v1.InstanceFiles.$Properties;
            }

            /**
             * Properties of a NetworkState.
             * @deprecated Use platform.agent.v1.NetworkState.$Properties instead.
             */
            interface INetworkState extends platform.agent.v1.NetworkState.$Properties {
            }

            /** Represents a NetworkState. */
            class NetworkState {

                /**
                 * Constructs a new NetworkState.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.NetworkState.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** NetworkState networkUuid. */
                networkUuid: string;

                /** NetworkState hosts. */
                hosts: platform.agent.v1.NetworkHost.$Properties[];

                /** NetworkState peers. */
                peers: string[];

                /** NetworkState members. */
                members: platform.agent.v1.NetworkMember.$Properties[];

                /**
                 * Creates a new NetworkState instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns NetworkState instance
                 */
                static create(properties: platform.agent.v1.NetworkState.$Shape): platform.agent.v1.NetworkState & platform.agent.v1.NetworkState.$Shape;
                static create(properties?: platform.agent.v1.NetworkState.$Properties): platform.agent.v1.NetworkState;

                /**
                 * Encodes the specified NetworkState message. Does not implicitly {@link platform.agent.v1.NetworkState.verify|verify} messages.
                 * @param m NetworkState message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.NetworkState.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a NetworkState message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.NetworkState & platform.agent.v1.NetworkState.$Shape} NetworkState
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.NetworkState & platform.agent.v1.NetworkState.$Shape;

                /**
                 * Creates a NetworkState message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns NetworkState
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.NetworkState;

                /**
                 * Creates a plain object from a NetworkState message. Also converts values to other types if specified.
                 * @param m NetworkState
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.NetworkState, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this NetworkState to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for NetworkState
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace NetworkState {

                /** Properties of a NetworkState. */
                interface $Properties {

                    /** NetworkState networkUuid */
                    networkUuid?: (string|null);

                    /** NetworkState hosts */
                    hosts?: (platform.agent.v1.NetworkHost.$Properties[]|null);

                    /** NetworkState peers */
                    peers?: (string[]|null);

                    /** NetworkState members */
                    members?: (platform.agent.v1.NetworkMember.$Properties[]|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a NetworkState. */
                type $Shape = platform.agent.v1.NetworkState.$Properties;
            }

            /**
             * Properties of a NetworkMember.
             * @deprecated Use platform.agent.v1.NetworkMember.$Properties instead.
             */
            interface INetworkMember extends platform.agent.v1.NetworkMember.$Properties {
            }

            /** Represents a NetworkMember. */
            class NetworkMember {

                /**
                 * Constructs a new NetworkMember.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.NetworkMember.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** NetworkMember jobUuid. */
                jobUuid: string;

                /** NetworkMember broadcastEnable. */
                broadcastEnable: boolean;

                /** NetworkMember routes. */
                routes: string[];

                /**
                 * Creates a new NetworkMember instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns NetworkMember instance
                 */
                static create(properties: platform.agent.v1.NetworkMember.$Shape): platform.agent.v1.NetworkMember & platform.agent.v1.NetworkMember.$Shape;
                static create(properties?: platform.agent.v1.NetworkMember.$Properties): platform.agent.v1.NetworkMember;

                /**
                 * Encodes the specified NetworkMember message. Does not implicitly {@link platform.agent.v1.NetworkMember.verify|verify} messages.
                 * @param m NetworkMember message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.NetworkMember.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a NetworkMember message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.NetworkMember & platform.agent.v1.NetworkMember.$Shape} NetworkMember
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.NetworkMember & platform.agent.v1.NetworkMember.$Shape;

                /**
                 * Creates a NetworkMember message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns NetworkMember
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.NetworkMember;

                /**
                 * Creates a plain object from a NetworkMember message. Also converts values to other types if specified.
                 * @param m NetworkMember
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.NetworkMember, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this NetworkMember to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for NetworkMember
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace NetworkMember {

                /** Properties of a NetworkMember. */
                interface $Properties {

                    /** NetworkMember jobUuid */
                    jobUuid?: (string|null);

                    /** NetworkMember broadcastEnable */
                    broadcastEnable?: (boolean|null);

                    /** NetworkMember routes */
                    routes?: (string[]|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a NetworkMember. */
                type $Shape = platform.agent.v1.NetworkMember.$Properties;
            }

            /**
             * Properties of a NetworkHost.
             * @deprecated Use platform.agent.v1.NetworkHost.$Properties instead.
             */
            interface INetworkHost extends platform.agent.v1.NetworkHost.$Properties {
            }

            /** Represents a NetworkHost. */
            class NetworkHost {

                /**
                 * Constructs a new NetworkHost.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.NetworkHost.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** NetworkHost name. */
                name: string;

                /** NetworkHost address. */
                address: string;

                /**
                 * Creates a new NetworkHost instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns NetworkHost instance
                 */
                static create(properties: platform.agent.v1.NetworkHost.$Shape): platform.agent.v1.NetworkHost & platform.agent.v1.NetworkHost.$Shape;
                static create(properties?: platform.agent.v1.NetworkHost.$Properties): platform.agent.v1.NetworkHost;

                /**
                 * Encodes the specified NetworkHost message. Does not implicitly {@link platform.agent.v1.NetworkHost.verify|verify} messages.
                 * @param m NetworkHost message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.NetworkHost.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a NetworkHost message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.NetworkHost & platform.agent.v1.NetworkHost.$Shape} NetworkHost
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.NetworkHost & platform.agent.v1.NetworkHost.$Shape;

                /**
                 * Creates a NetworkHost message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns NetworkHost
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.NetworkHost;

                /**
                 * Creates a plain object from a NetworkHost message. Also converts values to other types if specified.
                 * @param m NetworkHost
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.NetworkHost, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this NetworkHost to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for NetworkHost
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace NetworkHost {

                /** Properties of a NetworkHost. */
                interface $Properties {

                    /** NetworkHost name */
                    name?: (string|null);

                    /** NetworkHost address */
                    address?: (string|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a NetworkHost. */
                type $Shape = platform.agent.v1.NetworkHost.$Properties;
            }

            /**
             * Properties of a JobDrains.
             * @deprecated Use platform.agent.v1.JobDrains.$Properties instead.
             */
            interface IJobDrains extends platform.agent.v1.JobDrains.$Properties {
            }

            /** Represents a JobDrains. */
            class JobDrains {

                /**
                 * Constructs a new JobDrains.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.JobDrains.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** JobDrains jobUuid. */
                jobUuid: string;

                /** JobDrains jobFqn. */
                jobFqn: string;

                /** JobDrains drains. */
                drains: platform.agent.v1.DrainSpec.$Properties[];

                /**
                 * Creates a new JobDrains instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns JobDrains instance
                 */
                static create(properties: platform.agent.v1.JobDrains.$Shape): platform.agent.v1.JobDrains & platform.agent.v1.JobDrains.$Shape;
                static create(properties?: platform.agent.v1.JobDrains.$Properties): platform.agent.v1.JobDrains;

                /**
                 * Encodes the specified JobDrains message. Does not implicitly {@link platform.agent.v1.JobDrains.verify|verify} messages.
                 * @param m JobDrains message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.JobDrains.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a JobDrains message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.JobDrains & platform.agent.v1.JobDrains.$Shape} JobDrains
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.JobDrains & platform.agent.v1.JobDrains.$Shape;

                /**
                 * Creates a JobDrains message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns JobDrains
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.JobDrains;

                /**
                 * Creates a plain object from a JobDrains message. Also converts values to other types if specified.
                 * @param m JobDrains
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.JobDrains, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this JobDrains to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for JobDrains
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace JobDrains {

                /** Properties of a JobDrains. */
                interface $Properties {

                    /** JobDrains jobUuid */
                    jobUuid?: (string|null);

                    /** JobDrains jobFqn */
                    jobFqn?: (string|null);

                    /** JobDrains drains */
                    drains?: (platform.agent.v1.DrainSpec.$Properties[]|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a JobDrains. */
                type $Shape = platform.agent.v1.JobDrains.$Properties;
            }

            /**
             * Properties of a LinkTargets.
             * @deprecated Use platform.agent.v1.LinkTargets.$Properties instead.
             */
            interface ILinkTargets extends platform.agent.v1.LinkTargets.$Properties {
            }

            /** Represents a LinkTargets. */
            class LinkTargets {

                /**
                 * Constructs a new LinkTargets.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.LinkTargets.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** LinkTargets targetJobUuid. */
                targetJobUuid: string;

                /** LinkTargets targetPort. */
                targetPort: number;

                /** LinkTargets addresses. */
                addresses: string[];

                /**
                 * Creates a new LinkTargets instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns LinkTargets instance
                 */
                static create(properties: platform.agent.v1.LinkTargets.$Shape): platform.agent.v1.LinkTargets & platform.agent.v1.LinkTargets.$Shape;
                static create(properties?: platform.agent.v1.LinkTargets.$Properties): platform.agent.v1.LinkTargets;

                /**
                 * Encodes the specified LinkTargets message. Does not implicitly {@link platform.agent.v1.LinkTargets.verify|verify} messages.
                 * @param m LinkTargets message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.LinkTargets.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a LinkTargets message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.LinkTargets & platform.agent.v1.LinkTargets.$Shape} LinkTargets
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.LinkTargets & platform.agent.v1.LinkTargets.$Shape;

                /**
                 * Creates a LinkTargets message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns LinkTargets
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.LinkTargets;

                /**
                 * Creates a plain object from a LinkTargets message. Also converts values to other types if specified.
                 * @param m LinkTargets
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.LinkTargets, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this LinkTargets to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for LinkTargets
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace LinkTargets {

                /** Properties of a LinkTargets. */
                interface $Properties {

                    /** LinkTargets targetJobUuid */
                    targetJobUuid?: (string|null);

                    /** LinkTargets targetPort */
                    targetPort?: (number|null);

                    /** LinkTargets addresses */
                    addresses?: (string[]|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a LinkTargets. */
                type $Shape = platform.agent.v1.LinkTargets.$Properties;
            }

            /**
             * Properties of a FlushLogs.
             * @deprecated Use platform.agent.v1.FlushLogs.$Properties instead.
             */
            interface IFlushLogs extends platform.agent.v1.FlushLogs.$Properties {
            }

            /** Represents a FlushLogs. */
            class FlushLogs {

                /**
                 * Constructs a new FlushLogs.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.FlushLogs.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** FlushLogs requestId. */
                requestId: string;

                /** FlushLogs instanceUuid. */
                instanceUuid: string;

                /**
                 * Creates a new FlushLogs instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns FlushLogs instance
                 */
                static create(properties: platform.agent.v1.FlushLogs.$Shape): platform.agent.v1.FlushLogs & platform.agent.v1.FlushLogs.$Shape;
                static create(properties?: platform.agent.v1.FlushLogs.$Properties): platform.agent.v1.FlushLogs;

                /**
                 * Encodes the specified FlushLogs message. Does not implicitly {@link platform.agent.v1.FlushLogs.verify|verify} messages.
                 * @param m FlushLogs message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.FlushLogs.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a FlushLogs message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.FlushLogs & platform.agent.v1.FlushLogs.$Shape} FlushLogs
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.FlushLogs & platform.agent.v1.FlushLogs.$Shape;

                /**
                 * Creates a FlushLogs message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns FlushLogs
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.FlushLogs;

                /**
                 * Creates a plain object from a FlushLogs message. Also converts values to other types if specified.
                 * @param m FlushLogs
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.FlushLogs, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this FlushLogs to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for FlushLogs
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace FlushLogs {

                /** Properties of a FlushLogs. */
                interface $Properties {

                    /** FlushLogs requestId */
                    requestId?: (string|null);

                    /** FlushLogs instanceUuid */
                    instanceUuid?: (string|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a FlushLogs. */
                type $Shape = platform.agent.v1.FlushLogs.$Properties;
            }

            /**
             * Properties of a Snapshot.
             * @deprecated Use platform.agent.v1.Snapshot.$Properties instead.
             */
            interface ISnapshot extends platform.agent.v1.Snapshot.$Properties {
            }

            /** Represents a Snapshot. */
            class Snapshot {

                /**
                 * Constructs a new Snapshot.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.Snapshot.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Snapshot requestId. */
                requestId: string;

                /** Snapshot instanceUuid. */
                instanceUuid: string;

                /** Snapshot directory. */
                directory: string;

                /**
                 * Creates a new Snapshot instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Snapshot instance
                 */
                static create(properties: platform.agent.v1.Snapshot.$Shape): platform.agent.v1.Snapshot & platform.agent.v1.Snapshot.$Shape;
                static create(properties?: platform.agent.v1.Snapshot.$Properties): platform.agent.v1.Snapshot;

                /**
                 * Encodes the specified Snapshot message. Does not implicitly {@link platform.agent.v1.Snapshot.verify|verify} messages.
                 * @param m Snapshot message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.Snapshot.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a Snapshot message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.Snapshot & platform.agent.v1.Snapshot.$Shape} Snapshot
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.Snapshot & platform.agent.v1.Snapshot.$Shape;

                /**
                 * Creates a Snapshot message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns Snapshot
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.Snapshot;

                /**
                 * Creates a plain object from a Snapshot message. Also converts values to other types if specified.
                 * @param m Snapshot
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.Snapshot, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Snapshot to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Snapshot
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Snapshot {

                /** Properties of a Snapshot. */
                interface $Properties {

                    /** Snapshot requestId */
                    requestId?: (string|null);

                    /** Snapshot instanceUuid */
                    instanceUuid?: (string|null);

                    /** Snapshot directory */
                    directory?: (string|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a Snapshot. */
                type $Shape = platform.agent.v1.Snapshot.$Properties;
            }

            /**
             * Properties of a Welcome.
             * @deprecated Use platform.agent.v1.Welcome.$Properties instead.
             */
            interface IWelcome extends platform.agent.v1.Welcome.$Properties {
            }

            /** Represents a Welcome. */
            class Welcome {

                /**
                 * Constructs a new Welcome.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.Welcome.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Welcome refused. */
                refused: string;

                /** Welcome heartbeatIntervalMs. */
                heartbeatIntervalMs: number;

                /** Welcome controllerId. */
                controllerId: string;

                /** Welcome adopt. */
                adopt: string[];

                /** Welcome stop. */
                stop: string[];

                /** Welcome instanceSubnet. */
                instanceSubnet: string;

                /**
                 * Creates a new Welcome instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Welcome instance
                 */
                static create(properties: platform.agent.v1.Welcome.$Shape): platform.agent.v1.Welcome & platform.agent.v1.Welcome.$Shape;
                static create(properties?: platform.agent.v1.Welcome.$Properties): platform.agent.v1.Welcome;

                /**
                 * Encodes the specified Welcome message. Does not implicitly {@link platform.agent.v1.Welcome.verify|verify} messages.
                 * @param m Welcome message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.Welcome.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a Welcome message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.Welcome & platform.agent.v1.Welcome.$Shape} Welcome
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.Welcome & platform.agent.v1.Welcome.$Shape;

                /**
                 * Creates a Welcome message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns Welcome
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.Welcome;

                /**
                 * Creates a plain object from a Welcome message. Also converts values to other types if specified.
                 * @param m Welcome
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.Welcome, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Welcome to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Welcome
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Welcome {

                /** Properties of a Welcome. */
                interface $Properties {

                    /** Welcome refused */
                    refused?: (string|null);

                    /** Welcome heartbeatIntervalMs */
                    heartbeatIntervalMs?: (number|null);

                    /** Welcome controllerId */
                    controllerId?: (string|null);

                    /** Welcome adopt */
                    adopt?: (string[]|null);

                    /** Welcome stop */
                    stop?: (string[]|null);

                    /** Welcome instanceSubnet */
                    instanceSubnet?: (string|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a Welcome. */
                type $Shape = platform.agent.v1.Welcome.$Properties;
            }

            /**
             * Properties of a StartInstance.
             * @deprecated Use platform.agent.v1.StartInstance.$Properties instead.
             */
            interface IStartInstance extends platform.agent.v1.StartInstance.$Properties {
            }

            /** Represents a StartInstance. */
            class StartInstance {

                /**
                 * Constructs a new StartInstance.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.StartInstance.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** StartInstance spec. */
                spec?: (platform.agent.v1.InstanceSpec.$Properties|null);

                /**
                 * Creates a new StartInstance instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns StartInstance instance
                 */
                static create(properties: platform.agent.v1.StartInstance.$Shape): platform.agent.v1.StartInstance & platform.agent.v1.StartInstance.$Shape;
                static create(properties?: platform.agent.v1.StartInstance.$Properties): platform.agent.v1.StartInstance;

                /**
                 * Encodes the specified StartInstance message. Does not implicitly {@link platform.agent.v1.StartInstance.verify|verify} messages.
                 * @param m StartInstance message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.StartInstance.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a StartInstance message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.StartInstance & platform.agent.v1.StartInstance.$Shape} StartInstance
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.StartInstance & platform.agent.v1.StartInstance.$Shape;

                /**
                 * Creates a StartInstance message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns StartInstance
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.StartInstance;

                /**
                 * Creates a plain object from a StartInstance message. Also converts values to other types if specified.
                 * @param m StartInstance
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.StartInstance, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this StartInstance to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for StartInstance
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace StartInstance {

                /** Properties of a StartInstance. */
                interface $Properties {

                    /** StartInstance spec */
                    spec?: (platform.agent.v1.InstanceSpec.$Properties|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a StartInstance. */
                type $Shape = platform.agent.v1.StartInstance.$Properties;
            }

            /**
             * Properties of a StopInstance.
             * @deprecated Use platform.agent.v1.StopInstance.$Properties instead.
             */
            interface IStopInstance extends platform.agent.v1.StopInstance.$Properties {
            }

            /** Represents a StopInstance. */
            class StopInstance {

                /**
                 * Constructs a new StopInstance.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.StopInstance.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** StopInstance instanceUuid. */
                instanceUuid: string;

                /** StopInstance reason. */
                reason: string;

                /** StopInstance force. */
                force: boolean;

                /**
                 * Creates a new StopInstance instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns StopInstance instance
                 */
                static create(properties: platform.agent.v1.StopInstance.$Shape): platform.agent.v1.StopInstance & platform.agent.v1.StopInstance.$Shape;
                static create(properties?: platform.agent.v1.StopInstance.$Properties): platform.agent.v1.StopInstance;

                /**
                 * Encodes the specified StopInstance message. Does not implicitly {@link platform.agent.v1.StopInstance.verify|verify} messages.
                 * @param m StopInstance message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.StopInstance.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a StopInstance message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.StopInstance & platform.agent.v1.StopInstance.$Shape} StopInstance
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.StopInstance & platform.agent.v1.StopInstance.$Shape;

                /**
                 * Creates a StopInstance message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns StopInstance
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.StopInstance;

                /**
                 * Creates a plain object from a StopInstance message. Also converts values to other types if specified.
                 * @param m StopInstance
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.StopInstance, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this StopInstance to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for StopInstance
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace StopInstance {

                /** Properties of a StopInstance. */
                interface $Properties {

                    /** StopInstance instanceUuid */
                    instanceUuid?: (string|null);

                    /** StopInstance reason */
                    reason?: (string|null);

                    /** StopInstance force */
                    force?: (boolean|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a StopInstance. */
                type $Shape = platform.agent.v1.StopInstance.$Properties;
            }

            /**
             * Properties of a ListFiles.
             * @deprecated Use platform.agent.v1.ListFiles.$Properties instead.
             */
            interface IListFiles extends platform.agent.v1.ListFiles.$Properties {
            }

            /** Represents a ListFiles. */
            class ListFiles {

                /**
                 * Constructs a new ListFiles.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.ListFiles.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** ListFiles requestId. */
                requestId: string;

                /** ListFiles instanceUuid. */
                instanceUuid: string;

                /** ListFiles path. */
                path: string;

                /**
                 * Creates a new ListFiles instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns ListFiles instance
                 */
                static create(properties: platform.agent.v1.ListFiles.$Shape): platform.agent.v1.ListFiles & platform.agent.v1.ListFiles.$Shape;
                static create(properties?: platform.agent.v1.ListFiles.$Properties): platform.agent.v1.ListFiles;

                /**
                 * Encodes the specified ListFiles message. Does not implicitly {@link platform.agent.v1.ListFiles.verify|verify} messages.
                 * @param m ListFiles message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.ListFiles.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a ListFiles message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.ListFiles & platform.agent.v1.ListFiles.$Shape} ListFiles
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.ListFiles & platform.agent.v1.ListFiles.$Shape;

                /**
                 * Creates a ListFiles message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns ListFiles
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.ListFiles;

                /**
                 * Creates a plain object from a ListFiles message. Also converts values to other types if specified.
                 * @param m ListFiles
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.ListFiles, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this ListFiles to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for ListFiles
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace ListFiles {

                /** Properties of a ListFiles. */
                interface $Properties {

                    /** ListFiles requestId */
                    requestId?: (string|null);

                    /** ListFiles instanceUuid */
                    instanceUuid?: (string|null);

                    /** ListFiles path */
                    path?: (string|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a ListFiles. */
                type $Shape = platform.agent.v1.ListFiles.$Properties;
            }

            /**
             * Properties of an InstanceSpec.
             * @deprecated Use platform.agent.v1.InstanceSpec.$Properties instead.
             */
            interface IInstanceSpec extends platform.agent.v1.InstanceSpec.$Properties {
            }

            /** Represents an InstanceSpec. */
            class InstanceSpec {

                /**
                 * Constructs a new InstanceSpec.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.InstanceSpec.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** InstanceSpec instanceUuid. */
                instanceUuid: string;

                /** InstanceSpec jobUuid. */
                jobUuid: string;

                /** InstanceSpec jobFqn. */
                jobFqn: string;

                /** InstanceSpec jobVersionId. */
                jobVersionId: number;

                /** InstanceSpec packages. */
                packages: platform.agent.v1.PackageSpec.$Properties[];

                /** InstanceSpec process. */
                process?: (platform.agent.v1.ProcessSpec.$Properties|null);

                /** InstanceSpec ports. */
                ports: platform.agent.v1.PortSpec.$Properties[];

                /** InstanceSpec resources. */
                resources?: (platform.agent.v1.Resources.$Properties|null);

                /** InstanceSpec logs. */
                logs: platform.agent.v1.LogSpec.$Properties[];

                /** InstanceSpec environment. */
                environment: { [k: string]: string };

                /** InstanceSpec stagerUrl. */
                stagerUrl: string;

                /** InstanceSpec stagerfs. */
                stagerfs: platform.agent.v1.PackageSpec.$Properties[];

                /** InstanceSpec links. */
                links: platform.agent.v1.LinkSpec.$Properties[];

                /** InstanceSpec drains. */
                drains: platform.agent.v1.DrainSpec.$Properties[];

                /** InstanceSpec network. */
                network?: (platform.agent.v1.NetworkSpec.$Properties|null);

                /** InstanceSpec files. */
                files: platform.agent.v1.PlatformFile.$Properties[];

                /** InstanceSpec egress. */
                egress: platform.agent.v1.EgressRule.$Properties[];

                /** InstanceSpec endpoints. */
                endpoints: string[];

                /**
                 * Creates a new InstanceSpec instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns InstanceSpec instance
                 */
                static create(properties: platform.agent.v1.InstanceSpec.$Shape): platform.agent.v1.InstanceSpec & platform.agent.v1.InstanceSpec.$Shape;
                static create(properties?: platform.agent.v1.InstanceSpec.$Properties): platform.agent.v1.InstanceSpec;

                /**
                 * Encodes the specified InstanceSpec message. Does not implicitly {@link platform.agent.v1.InstanceSpec.verify|verify} messages.
                 * @param m InstanceSpec message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.InstanceSpec.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an InstanceSpec message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.InstanceSpec & platform.agent.v1.InstanceSpec.$Shape} InstanceSpec
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.InstanceSpec & platform.agent.v1.InstanceSpec.$Shape;

                /**
                 * Creates an InstanceSpec message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns InstanceSpec
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.InstanceSpec;

                /**
                 * Creates a plain object from an InstanceSpec message. Also converts values to other types if specified.
                 * @param m InstanceSpec
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.InstanceSpec, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this InstanceSpec to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for InstanceSpec
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace InstanceSpec {

                /** Properties of an InstanceSpec. */
                interface $Properties {

                    /** InstanceSpec instanceUuid */
                    instanceUuid?: (string|null);

                    /** InstanceSpec jobUuid */
                    jobUuid?: (string|null);

                    /** InstanceSpec jobFqn */
                    jobFqn?: (string|null);

                    /** InstanceSpec jobVersionId */
                    jobVersionId?: (number|null);

                    /** InstanceSpec packages */
                    packages?: (platform.agent.v1.PackageSpec.$Properties[]|null);

                    /** InstanceSpec process */
                    process?: (platform.agent.v1.ProcessSpec.$Properties|null);

                    /** InstanceSpec ports */
                    ports?: (platform.agent.v1.PortSpec.$Properties[]|null);

                    /** InstanceSpec resources */
                    resources?: (platform.agent.v1.Resources.$Properties|null);

                    /** InstanceSpec logs */
                    logs?: (platform.agent.v1.LogSpec.$Properties[]|null);

                    /** InstanceSpec environment */
                    environment?: ({ [k: string]: string }|null);

                    /** InstanceSpec stagerUrl */
                    stagerUrl?: (string|null);

                    /** InstanceSpec stagerfs */
                    stagerfs?: (platform.agent.v1.PackageSpec.$Properties[]|null);

                    /** InstanceSpec links */
                    links?: (platform.agent.v1.LinkSpec.$Properties[]|null);

                    /** InstanceSpec drains */
                    drains?: (platform.agent.v1.DrainSpec.$Properties[]|null);

                    /** InstanceSpec network */
                    network?: (platform.agent.v1.NetworkSpec.$Properties|null);

                    /** InstanceSpec files */
                    files?: (platform.agent.v1.PlatformFile.$Properties[]|null);

                    /** InstanceSpec egress */
                    egress?: (platform.agent.v1.EgressRule.$Properties[]|null);

                    /** InstanceSpec endpoints */
                    endpoints?: (string[]|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an InstanceSpec. */
                type $Shape = platform.agent.v1.InstanceSpec.$Properties;
            }

            /**
             * Properties of a PlatformFile.
             * @deprecated Use platform.agent.v1.PlatformFile.$Properties instead.
             */
            interface IPlatformFile extends platform.agent.v1.PlatformFile.$Properties {
            }

            /** Represents a PlatformFile. */
            class PlatformFile {

                /**
                 * Constructs a new PlatformFile.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.PlatformFile.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** PlatformFile name. */
                name: string;

                /** PlatformFile content. */
                content: Uint8Array;

                /**
                 * Creates a new PlatformFile instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns PlatformFile instance
                 */
                static create(properties: platform.agent.v1.PlatformFile.$Shape): platform.agent.v1.PlatformFile & platform.agent.v1.PlatformFile.$Shape;
                static create(properties?: platform.agent.v1.PlatformFile.$Properties): platform.agent.v1.PlatformFile;

                /**
                 * Encodes the specified PlatformFile message. Does not implicitly {@link platform.agent.v1.PlatformFile.verify|verify} messages.
                 * @param m PlatformFile message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.PlatformFile.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a PlatformFile message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.PlatformFile & platform.agent.v1.PlatformFile.$Shape} PlatformFile
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.PlatformFile & platform.agent.v1.PlatformFile.$Shape;

                /**
                 * Creates a PlatformFile message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns PlatformFile
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.PlatformFile;

                /**
                 * Creates a plain object from a PlatformFile message. Also converts values to other types if specified.
                 * @param m PlatformFile
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.PlatformFile, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this PlatformFile to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for PlatformFile
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace PlatformFile {

                /** Properties of a PlatformFile. */
                interface $Properties {

                    /** PlatformFile name */
                    name?: (string|null);

                    /** PlatformFile content */
                    content?: (Uint8Array|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a PlatformFile. */
                type $Shape = platform.agent.v1.PlatformFile.$Properties;
            }

            /**
             * Properties of an EgressRule.
             * @deprecated Use platform.agent.v1.EgressRule.$Properties instead.
             */
            interface IEgressRule extends platform.agent.v1.EgressRule.$Properties {
            }

            /** Represents an EgressRule. */
            class EgressRule {

                /**
                 * Constructs a new EgressRule.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.EgressRule.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** EgressRule ipnet. */
                ipnet: string;

                /** EgressRule domainname. */
                domainname: string;

                /** EgressRule portFirst. */
                portFirst: number;

                /** EgressRule portLast. */
                portLast: number;

                /** EgressRule protocol. */
                protocol: string;

                /**
                 * Creates a new EgressRule instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns EgressRule instance
                 */
                static create(properties: platform.agent.v1.EgressRule.$Shape): platform.agent.v1.EgressRule & platform.agent.v1.EgressRule.$Shape;
                static create(properties?: platform.agent.v1.EgressRule.$Properties): platform.agent.v1.EgressRule;

                /**
                 * Encodes the specified EgressRule message. Does not implicitly {@link platform.agent.v1.EgressRule.verify|verify} messages.
                 * @param m EgressRule message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.EgressRule.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an EgressRule message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.EgressRule & platform.agent.v1.EgressRule.$Shape} EgressRule
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.EgressRule & platform.agent.v1.EgressRule.$Shape;

                /**
                 * Creates an EgressRule message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns EgressRule
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.EgressRule;

                /**
                 * Creates a plain object from an EgressRule message. Also converts values to other types if specified.
                 * @param m EgressRule
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.EgressRule, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this EgressRule to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for EgressRule
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace EgressRule {

                /** Properties of an EgressRule. */
                interface $Properties {

                    /** EgressRule ipnet */
                    ipnet?: (string|null);

                    /** EgressRule domainname */
                    domainname?: (string|null);

                    /** EgressRule portFirst */
                    portFirst?: (number|null);

                    /** EgressRule portLast */
                    portLast?: (number|null);

                    /** EgressRule protocol */
                    protocol?: (string|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an EgressRule. */
                type $Shape = platform.agent.v1.EgressRule.$Properties;
            }

            /**
             * Properties of a JobEgress.
             * @deprecated Use platform.agent.v1.JobEgress.$Properties instead.
             */
            interface IJobEgress extends platform.agent.v1.JobEgress.$Properties {
            }

            /** Represents a JobEgress. */
            class JobEgress {

                /**
                 * Constructs a new JobEgress.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.JobEgress.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** JobEgress jobUuid. */
                jobUuid: string;

                /** JobEgress rules. */
                rules: platform.agent.v1.EgressRule.$Properties[];

                /** JobEgress endpoints. */
                endpoints: string[];

                /** JobEgress requestId. */
                requestId: string;

                /**
                 * Creates a new JobEgress instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns JobEgress instance
                 */
                static create(properties: platform.agent.v1.JobEgress.$Shape): platform.agent.v1.JobEgress & platform.agent.v1.JobEgress.$Shape;
                static create(properties?: platform.agent.v1.JobEgress.$Properties): platform.agent.v1.JobEgress;

                /**
                 * Encodes the specified JobEgress message. Does not implicitly {@link platform.agent.v1.JobEgress.verify|verify} messages.
                 * @param m JobEgress message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.JobEgress.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a JobEgress message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.JobEgress & platform.agent.v1.JobEgress.$Shape} JobEgress
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.JobEgress & platform.agent.v1.JobEgress.$Shape;

                /**
                 * Creates a JobEgress message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns JobEgress
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.JobEgress;

                /**
                 * Creates a plain object from a JobEgress message. Also converts values to other types if specified.
                 * @param m JobEgress
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.JobEgress, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this JobEgress to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for JobEgress
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace JobEgress {

                /** Properties of a JobEgress. */
                interface $Properties {

                    /** JobEgress jobUuid */
                    jobUuid?: (string|null);

                    /** JobEgress rules */
                    rules?: (platform.agent.v1.EgressRule.$Properties[]|null);

                    /** JobEgress endpoints */
                    endpoints?: (string[]|null);

                    /** JobEgress requestId */
                    requestId?: (string|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a JobEgress. */
                type $Shape = platform.agent.v1.JobEgress.$Properties;
            }

            /**
             * Properties of an EgressApplied.
             * @deprecated Use platform.agent.v1.EgressApplied.$Properties instead.
             */
            interface IEgressApplied extends platform.agent.v1.EgressApplied.$Properties {
            }

            /** Represents an EgressApplied. */
            class EgressApplied {

                /**
                 * Constructs a new EgressApplied.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.EgressApplied.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** EgressApplied requestId. */
                requestId: string;

                /**
                 * Creates a new EgressApplied instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns EgressApplied instance
                 */
                static create(properties: platform.agent.v1.EgressApplied.$Shape): platform.agent.v1.EgressApplied & platform.agent.v1.EgressApplied.$Shape;
                static create(properties?: platform.agent.v1.EgressApplied.$Properties): platform.agent.v1.EgressApplied;

                /**
                 * Encodes the specified EgressApplied message. Does not implicitly {@link platform.agent.v1.EgressApplied.verify|verify} messages.
                 * @param m EgressApplied message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.EgressApplied.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an EgressApplied message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.EgressApplied & platform.agent.v1.EgressApplied.$Shape} EgressApplied
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.EgressApplied & platform.agent.v1.EgressApplied.$Shape;

                /**
                 * Creates an EgressApplied message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns EgressApplied
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.EgressApplied;

                /**
                 * Creates a plain object from an EgressApplied message. Also converts values to other types if specified.
                 * @param m EgressApplied
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.EgressApplied, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this EgressApplied to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for EgressApplied
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace EgressApplied {

                /** Properties of an EgressApplied. */
                interface $Properties {

                    /** EgressApplied requestId */
                    requestId?: (string|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an EgressApplied. */
                type $Shape = platform.agent.v1.EgressApplied.$Properties;
            }

            /**
             * Properties of a NetworkSpec.
             * @deprecated Use platform.agent.v1.NetworkSpec.$Properties instead.
             */
            interface INetworkSpec extends platform.agent.v1.NetworkSpec.$Properties {
            }

            /** Represents a NetworkSpec. */
            class NetworkSpec {

                /**
                 * Constructs a new NetworkSpec.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.NetworkSpec.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** NetworkSpec networkUuid. */
                networkUuid: string;

                /** NetworkSpec networkFqn. */
                networkFqn: string;

                /** NetworkSpec subnet. */
                subnet: string;

                /** NetworkSpec address. */
                address: string;

                /** NetworkSpec gateway. */
                gateway: string;

                /** NetworkSpec vni. */
                vni: number;

                /** NetworkSpec broadcastEnable. */
                broadcastEnable: boolean;

                /** NetworkSpec routes. */
                routes: string[];

                /** NetworkSpec multicastRoutes. */
                multicastRoutes: string[];

                /** NetworkSpec hosts. */
                hosts: platform.agent.v1.NetworkHost.$Properties[];

                /** NetworkSpec peers. */
                peers: string[];

                /** NetworkSpec hardwareAddress. */
                hardwareAddress: string;

                /**
                 * Creates a new NetworkSpec instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns NetworkSpec instance
                 */
                static create(properties: platform.agent.v1.NetworkSpec.$Shape): platform.agent.v1.NetworkSpec & platform.agent.v1.NetworkSpec.$Shape;
                static create(properties?: platform.agent.v1.NetworkSpec.$Properties): platform.agent.v1.NetworkSpec;

                /**
                 * Encodes the specified NetworkSpec message. Does not implicitly {@link platform.agent.v1.NetworkSpec.verify|verify} messages.
                 * @param m NetworkSpec message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.NetworkSpec.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a NetworkSpec message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.NetworkSpec & platform.agent.v1.NetworkSpec.$Shape} NetworkSpec
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.NetworkSpec & platform.agent.v1.NetworkSpec.$Shape;

                /**
                 * Creates a NetworkSpec message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns NetworkSpec
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.NetworkSpec;

                /**
                 * Creates a plain object from a NetworkSpec message. Also converts values to other types if specified.
                 * @param m NetworkSpec
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.NetworkSpec, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this NetworkSpec to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for NetworkSpec
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace NetworkSpec {

                /** Properties of a NetworkSpec. */
                interface $Properties {

                    /** NetworkSpec networkUuid */
                    networkUuid?: (string|null);

                    /** NetworkSpec networkFqn */
                    networkFqn?: (string|null);

                    /** NetworkSpec subnet */
                    subnet?: (string|null);

                    /** NetworkSpec address */
                    address?: (string|null);

                    /** NetworkSpec gateway */
                    gateway?: (string|null);

                    /** NetworkSpec vni */
                    vni?: (number|null);

                    /** NetworkSpec broadcastEnable */
                    broadcastEnable?: (boolean|null);

                    /** NetworkSpec routes */
                    routes?: (string[]|null);

                    /** NetworkSpec multicastRoutes */
                    multicastRoutes?: (string[]|null);

                    /** NetworkSpec hosts */
                    hosts?: (platform.agent.v1.NetworkHost.$Properties[]|null);

                    /** NetworkSpec peers */
                    peers?: (string[]|null);

                    /** NetworkSpec hardwareAddress */
                    hardwareAddress?: (string|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a NetworkSpec. */
                type $Shape = platform.agent.v1.NetworkSpec.$Properties;
            }

            /**
             * Properties of a DrainSpec.
             * @deprecated Use platform.agent.v1.DrainSpec.$Properties instead.
             */
            interface IDrainSpec extends platform.agent.v1.DrainSpec.$Properties {
            }

            /** Represents a DrainSpec. */
            class DrainSpec {

                /**
                 * Constructs a new DrainSpec.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.DrainSpec.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** DrainSpec uuid. */
                uuid: string;

                /** DrainSpec url. */
                url: string;

                /** DrainSpec priority. */
                priority: number;

                /** DrainSpec protocol. */
                protocol: string;

                /** DrainSpec maxSize. */
                maxSize: number;

                /**
                 * Creates a new DrainSpec instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns DrainSpec instance
                 */
                static create(properties: platform.agent.v1.DrainSpec.$Shape): platform.agent.v1.DrainSpec & platform.agent.v1.DrainSpec.$Shape;
                static create(properties?: platform.agent.v1.DrainSpec.$Properties): platform.agent.v1.DrainSpec;

                /**
                 * Encodes the specified DrainSpec message. Does not implicitly {@link platform.agent.v1.DrainSpec.verify|verify} messages.
                 * @param m DrainSpec message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.DrainSpec.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a DrainSpec message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.DrainSpec & platform.agent.v1.DrainSpec.$Shape} DrainSpec
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.DrainSpec & platform.agent.v1.DrainSpec.$Shape;

                /**
                 * Creates a DrainSpec message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns DrainSpec
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.DrainSpec;

                /**
                 * Creates a plain object from a DrainSpec message. Also converts values to other types if specified.
                 * @param m DrainSpec
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.DrainSpec, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this DrainSpec to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for DrainSpec
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace DrainSpec {

                /** Properties of a DrainSpec. */
                interface $Properties {

                    /** DrainSpec uuid */
                    uuid?: (string|null);

                    /** DrainSpec url */
                    url?: (string|null);

                    /** DrainSpec priority */
                    priority?: (number|null);

                    /** DrainSpec protocol */
                    protocol?: (string|null);

                    /** DrainSpec maxSize */
                    maxSize?: (number|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a DrainSpec. */
                type $Shape = platform.agent.v1.DrainSpec.$Properties;
            }

            /**
             * Properties of a LinkSpec.
             * @deprecated Use platform.agent.v1.LinkSpec.$Properties instead.
             */
            interface ILinkSpec extends platform.agent.v1.LinkSpec.$Properties {
            }

            /** Represents a LinkSpec. */
            class LinkSpec {

                /**
                 * Constructs a new LinkSpec.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.LinkSpec.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** LinkSpec bindingUuid. */
                bindingUuid: string;

                /** LinkSpec envVars. */
                envVars: string[];

                /** LinkSpec targetJobUuid. */
                targetJobUuid: string;

                /** LinkSpec targetPort. */
                targetPort: number;

                /** LinkSpec boundIp. */
                boundIp: string;

                /** LinkSpec boundPort. */
                boundPort: number;

                /** LinkSpec addresses. */
                addresses: string[];

                /**
                 * Creates a new LinkSpec instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns LinkSpec instance
                 */
                static create(properties: platform.agent.v1.LinkSpec.$Shape): platform.agent.v1.LinkSpec & platform.agent.v1.LinkSpec.$Shape;
                static create(properties?: platform.agent.v1.LinkSpec.$Properties): platform.agent.v1.LinkSpec;

                /**
                 * Encodes the specified LinkSpec message. Does not implicitly {@link platform.agent.v1.LinkSpec.verify|verify} messages.
                 * @param m LinkSpec message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.LinkSpec.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a LinkSpec message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.LinkSpec & platform.agent.v1.LinkSpec.$Shape} LinkSpec
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.LinkSpec & platform.agent.v1.LinkSpec.$Shape;

                /**
                 * Creates a LinkSpec message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns LinkSpec
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.LinkSpec;

                /**
                 * Creates a plain object from a LinkSpec message. Also converts values to other types if specified.
                 * @param m LinkSpec
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.LinkSpec, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this LinkSpec to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for LinkSpec
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace LinkSpec {

                /** Properties of a LinkSpec. */
                interface $Properties {

                    /** LinkSpec bindingUuid */
                    bindingUuid?: (string|null);

                    /** LinkSpec envVars */
                    envVars?: (string[]|null);

                    /** LinkSpec targetJobUuid */
                    targetJobUuid?: (string|null);

                    /** LinkSpec targetPort */
                    targetPort?: (number|null);

                    /** LinkSpec boundIp */
                    boundIp?: (string|null);

                    /** LinkSpec boundPort */
                    boundPort?: (number|null);

                    /** LinkSpec addresses */
                    addresses?: (string[]|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a LinkSpec. */
                type $Shape = platform.agent.v1.LinkSpec.$Properties;
            }

            /**
             * Properties of a PackageSpec.
             * @deprecated Use platform.agent.v1.PackageSpec.$Properties instead.
             */
            interface IPackageSpec extends platform.agent.v1.PackageSpec.$Properties {
            }

            /** Represents a PackageSpec. */
            class PackageSpec {

                /**
                 * Constructs a new PackageSpec.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.PackageSpec.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** PackageSpec uuid. */
                uuid: string;

                /** PackageSpec fqn. */
                fqn: string;

                /** PackageSpec digest. */
                digest: string;

                /** PackageSpec length. */
                length: number;

                /** PackageSpec installPath. */
                installPath: string;

                /** PackageSpec environment. */
                environment: { [k: string]: string };

                /** PackageSpec templates. */
                templates: platform.agent.v1.TemplateSpec.$Properties[];

                /** PackageSpec hostPaths. */
                hostPaths: string[];

                /** PackageSpec rootFilesystem. */
                rootFilesystem: boolean;

                /**
                 * Creates a new PackageSpec instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns PackageSpec instance
                 */
                static create(properties: platform.agent.v1.PackageSpec.$Shape): platform.agent.v1.PackageSpec & platform.agent.v1.PackageSpec.$Shape;
                static create(properties?: platform.agent.v1.PackageSpec.$Properties): platform.agent.v1.PackageSpec;

                /**
                 * Encodes the specified PackageSpec message. Does not implicitly {@link platform.agent.v1.PackageSpec.verify|verify} messages.
                 * @param m PackageSpec message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.PackageSpec.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a PackageSpec message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.PackageSpec & platform.agent.v1.PackageSpec.$Shape} PackageSpec
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.PackageSpec & platform.agent.v1.PackageSpec.$Shape;

                /**
                 * Creates a PackageSpec message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns PackageSpec
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.PackageSpec;

                /**
                 * Creates a plain object from a PackageSpec message. Also converts values to other types if specified.
                 * @param m PackageSpec
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.PackageSpec, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this PackageSpec to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for PackageSpec
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace PackageSpec {

                /** Properties of a PackageSpec. */
                interface $Properties {

                    /** PackageSpec uuid */
                    uuid?: (string|null);

                    /** PackageSpec fqn */
                    fqn?: (string|null);

                    /** PackageSpec digest */
                    digest?: (string|null);

                    /** PackageSpec length */
                    length?: (number|null);

                    /** PackageSpec installPath */
                    installPath?: (string|null);

                    /** PackageSpec environment */
                    environment?: ({ [k: string]: string }|null);

                    /** PackageSpec templates */
                    templates?: (platform.agent.v1.TemplateSpec.$Properties[]|null);

                    /** PackageSpec hostPaths */
                    hostPaths?: (string[]|null);

                    /** PackageSpec rootFilesystem */
                    rootFilesystem?: (boolean|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a PackageSpec. */
                type $Shape = platform.agent.v1.PackageSpec.$Properties;
            }

            /**
             * Properties of a TemplateSpec.
             * @deprecated Use platform.agent.v1.TemplateSpec.$Properties instead.
             */
            interface ITemplateSpec extends platform.agent.v1.TemplateSpec.$Properties {
            }

            /** Represents a TemplateSpec. */
            class TemplateSpec {

                /**
                 * Constructs a new TemplateSpec.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.TemplateSpec.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** TemplateSpec path. */
                path: string;

                /** TemplateSpec leftDelimiter. */
                leftDelimiter: string;

                /** TemplateSpec rightDelimiter. */
                rightDelimiter: string;

                /**
                 * Creates a new TemplateSpec instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns TemplateSpec instance
                 */
                static create(properties: platform.agent.v1.TemplateSpec.$Shape): platform.agent.v1.TemplateSpec & platform.agent.v1.TemplateSpec.$Shape;
                static create(properties?: platform.agent.v1.TemplateSpec.$Properties): platform.agent.v1.TemplateSpec;

                /**
                 * Encodes the specified TemplateSpec message. Does not implicitly {@link platform.agent.v1.TemplateSpec.verify|verify} messages.
                 * @param m TemplateSpec message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.TemplateSpec.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a TemplateSpec message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.TemplateSpec & platform.agent.v1.TemplateSpec.$Shape} TemplateSpec
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.TemplateSpec & platform.agent.v1.TemplateSpec.$Shape;

                /**
                 * Creates a TemplateSpec message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns TemplateSpec
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.TemplateSpec;

                /**
                 * Creates a plain object from a TemplateSpec message. Also converts values to other types if specified.
                 * @param m TemplateSpec
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.TemplateSpec, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this TemplateSpec to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for TemplateSpec
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace TemplateSpec {

                /** Properties of a TemplateSpec. */
                interface $Properties {

                    /** TemplateSpec path */
                    path?: (string|null);

                    /** TemplateSpec leftDelimiter */
                    leftDelimiter?: (string|null);

                    /** TemplateSpec rightDelimiter */
                    rightDelimiter?: (string|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a TemplateSpec. */
                type $Shape = platform.agent.v1.TemplateSpec.$Properties;
            }

            /**
             * Properties of a ProcessSpec.
             * @deprecated Use platform.agent.v1.ProcessSpec.$Properties instead.
             */
            interface IProcessSpec extends platform.agent.v1.ProcessSpec.$Properties {
            }

            /** Represents a ProcessSpec. */
            class ProcessSpec {

                /**
                 * Constructs a new ProcessSpec.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.ProcessSpec.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** ProcessSpec name. */
                name: string;

                /** ProcessSpec startCommand. */
                startCommand: string;

                /** ProcessSpec startCommandRaw. */
                startCommandRaw: string[];

                /** ProcessSpec startCommandTimeoutS. */
                startCommandTimeoutS: number;

                /** ProcessSpec stopCommand. */
                stopCommand: string;

                /** ProcessSpec stopCommandRaw. */
                stopCommandRaw: string[];

                /** ProcessSpec stopTimeoutS. */
                stopTimeoutS: number;

                /** ProcessSpec environment. */
                environment: { [k: string]: string };

                /** ProcessSpec user. */
                user: string;

                /** ProcessSpec group. */
                group: string;

                /**
                 * Creates a new ProcessSpec instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns ProcessSpec instance
                 */
                static create(properties: platform.agent.v1.ProcessSpec.$Shape): platform.agent.v1.ProcessSpec & platform.agent.v1.ProcessSpec.$Shape;
                static create(properties?: platform.agent.v1.ProcessSpec.$Properties): platform.agent.v1.ProcessSpec;

                /**
                 * Encodes the specified ProcessSpec message. Does not implicitly {@link platform.agent.v1.ProcessSpec.verify|verify} messages.
                 * @param m ProcessSpec message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.ProcessSpec.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a ProcessSpec message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.ProcessSpec & platform.agent.v1.ProcessSpec.$Shape} ProcessSpec
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.ProcessSpec & platform.agent.v1.ProcessSpec.$Shape;

                /**
                 * Creates a ProcessSpec message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns ProcessSpec
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.ProcessSpec;

                /**
                 * Creates a plain object from a ProcessSpec message. Also converts values to other types if specified.
                 * @param m ProcessSpec
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.ProcessSpec, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this ProcessSpec to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for ProcessSpec
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace ProcessSpec {

                /** Properties of a ProcessSpec. */
                interface $Properties {

                    /** ProcessSpec name */
                    name?: (string|null);

                    /** ProcessSpec startCommand */
                    startCommand?: (string|null);

                    /** ProcessSpec startCommandRaw */
                    startCommandRaw?: (string[]|null);

                    /** ProcessSpec startCommandTimeoutS */
                    startCommandTimeoutS?: (number|null);

                    /** ProcessSpec stopCommand */
                    stopCommand?: (string|null);

                    /** ProcessSpec stopCommandRaw */
                    stopCommandRaw?: (string[]|null);

                    /** ProcessSpec stopTimeoutS */
                    stopTimeoutS?: (number|null);

                    /** ProcessSpec environment */
                    environment?: ({ [k: string]: string }|null);

                    /** ProcessSpec user */
                    user?: (string|null);

                    /** ProcessSpec group */
                    group?: (string|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a ProcessSpec. */
                type $Shape = platform.agent.v1.ProcessSpec.$Properties;
            }

            /**
             * Properties of a PortSpec.
             * @deprecated Use platform.agent.v1.PortSpec.$Properties instead.
             */
            interface IPortSpec extends platform.agent.v1.PortSpec.$Properties {
            }

            /** Represents a PortSpec. */
            class PortSpec {

                /**
                 * Constructs a new PortSpec.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.PortSpec.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** PortSpec number. */
                number: number;

                /** PortSpec optional. */
                optional: boolean;

                /**
                 * Creates a new PortSpec instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns PortSpec instance
                 */
                static create(properties: platform.agent.v1.PortSpec.$Shape): platform.agent.v1.PortSpec & platform.agent.v1.PortSpec.$Shape;
                static create(properties?: platform.agent.v1.PortSpec.$Properties): platform.agent.v1.PortSpec;

                /**
                 * Encodes the specified PortSpec message. Does not implicitly {@link platform.agent.v1.PortSpec.verify|verify} messages.
                 * @param m PortSpec message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.PortSpec.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a PortSpec message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.PortSpec & platform.agent.v1.PortSpec.$Shape} PortSpec
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.PortSpec & platform.agent.v1.PortSpec.$Shape;

                /**
                 * Creates a PortSpec message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns PortSpec
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.PortSpec;

                /**
                 * Creates a plain object from a PortSpec message. Also converts values to other types if specified.
                 * @param m PortSpec
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.PortSpec, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this PortSpec to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for PortSpec
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace PortSpec {

                /** Properties of a PortSpec. */
                interface $Properties {

                    /** PortSpec number */
                    number?: (number|null);

                    /** PortSpec optional */
                    optional?: (boolean|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a PortSpec. */
                type $Shape = platform.agent.v1.PortSpec.$Properties;
            }

            /**
             * Properties of a LogSpec.
             * @deprecated Use platform.agent.v1.LogSpec.$Properties instead.
             */
            interface ILogSpec extends platform.agent.v1.LogSpec.$Properties {
            }

            /** Represents a LogSpec. */
            class LogSpec {

                /**
                 * Constructs a new LogSpec.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.LogSpec.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** LogSpec file. */
                file: string;

                /** LogSpec channel. */
                channel: string;

                /**
                 * Creates a new LogSpec instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns LogSpec instance
                 */
                static create(properties: platform.agent.v1.LogSpec.$Shape): platform.agent.v1.LogSpec & platform.agent.v1.LogSpec.$Shape;
                static create(properties?: platform.agent.v1.LogSpec.$Properties): platform.agent.v1.LogSpec;

                /**
                 * Encodes the specified LogSpec message. Does not implicitly {@link platform.agent.v1.LogSpec.verify|verify} messages.
                 * @param m LogSpec message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.LogSpec.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a LogSpec message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.LogSpec & platform.agent.v1.LogSpec.$Shape} LogSpec
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.LogSpec & platform.agent.v1.LogSpec.$Shape;

                /**
                 * Creates a LogSpec message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns LogSpec
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.LogSpec;

                /**
                 * Creates a plain object from a LogSpec message. Also converts values to other types if specified.
                 * @param m LogSpec
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.LogSpec, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this LogSpec to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for LogSpec
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace LogSpec {

                /** Properties of a LogSpec. */
                interface $Properties {

                    /** LogSpec file */
                    file?: (string|null);

                    /** LogSpec channel */
                    channel?: (string|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a LogSpec. */
                type $Shape = platform.agent.v1.LogSpec.$Properties;
            }

            /**
             * Properties of a FetchBlobRequest.
             * @deprecated Use platform.agent.v1.FetchBlobRequest.$Properties instead.
             */
            interface IFetchBlobRequest extends platform.agent.v1.FetchBlobRequest.$Properties {
            }

            /** Represents a FetchBlobRequest. */
            class FetchBlobRequest {

                /**
                 * Constructs a new FetchBlobRequest.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.FetchBlobRequest.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** FetchBlobRequest digest. */
                digest: string;

                /**
                 * Creates a new FetchBlobRequest instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns FetchBlobRequest instance
                 */
                static create(properties: platform.agent.v1.FetchBlobRequest.$Shape): platform.agent.v1.FetchBlobRequest & platform.agent.v1.FetchBlobRequest.$Shape;
                static create(properties?: platform.agent.v1.FetchBlobRequest.$Properties): platform.agent.v1.FetchBlobRequest;

                /**
                 * Encodes the specified FetchBlobRequest message. Does not implicitly {@link platform.agent.v1.FetchBlobRequest.verify|verify} messages.
                 * @param m FetchBlobRequest message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.FetchBlobRequest.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a FetchBlobRequest message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.FetchBlobRequest & platform.agent.v1.FetchBlobRequest.$Shape} FetchBlobRequest
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.FetchBlobRequest & platform.agent.v1.FetchBlobRequest.$Shape;

                /**
                 * Creates a FetchBlobRequest message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns FetchBlobRequest
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.FetchBlobRequest;

                /**
                 * Creates a plain object from a FetchBlobRequest message. Also converts values to other types if specified.
                 * @param m FetchBlobRequest
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.FetchBlobRequest, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this FetchBlobRequest to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for FetchBlobRequest
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace FetchBlobRequest {

                /** Properties of a FetchBlobRequest. */
                interface $Properties {

                    /** FetchBlobRequest digest */
                    digest?: (string|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a FetchBlobRequest. */
                type $Shape = platform.agent.v1.FetchBlobRequest.$Properties;
            }

            /**
             * Properties of a BlobChunk.
             * @deprecated Use platform.agent.v1.BlobChunk.$Properties instead.
             */
            interface IBlobChunk extends platform.agent.v1.BlobChunk.$Properties {
            }

            /** Represents a BlobChunk. */
            class BlobChunk {

                /**
                 * Constructs a new BlobChunk.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.BlobChunk.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** BlobChunk data. */
                data: Uint8Array;

                /** BlobChunk totalLength. */
                totalLength: number;

                /**
                 * Creates a new BlobChunk instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns BlobChunk instance
                 */
                static create(properties: platform.agent.v1.BlobChunk.$Shape): platform.agent.v1.BlobChunk & platform.agent.v1.BlobChunk.$Shape;
                static create(properties?: platform.agent.v1.BlobChunk.$Properties): platform.agent.v1.BlobChunk;

                /**
                 * Encodes the specified BlobChunk message. Does not implicitly {@link platform.agent.v1.BlobChunk.verify|verify} messages.
                 * @param m BlobChunk message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.BlobChunk.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a BlobChunk message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.BlobChunk & platform.agent.v1.BlobChunk.$Shape} BlobChunk
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.BlobChunk & platform.agent.v1.BlobChunk.$Shape;

                /**
                 * Creates a BlobChunk message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns BlobChunk
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.BlobChunk;

                /**
                 * Creates a plain object from a BlobChunk message. Also converts values to other types if specified.
                 * @param m BlobChunk
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.BlobChunk, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this BlobChunk to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for BlobChunk
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace BlobChunk {

                /** Properties of a BlobChunk. */
                interface $Properties {

                    /** BlobChunk data */
                    data?: (Uint8Array|null);

                    /** BlobChunk totalLength */
                    totalLength?: (number|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a BlobChunk. */
                type $Shape = platform.agent.v1.BlobChunk.$Properties;
            }

            /**
             * Properties of a SnapshotChunk.
             * @deprecated Use platform.agent.v1.SnapshotChunk.$Properties instead.
             */
            interface ISnapshotChunk extends platform.agent.v1.SnapshotChunk.$Properties {
            }

            /** Represents a SnapshotChunk. */
            class SnapshotChunk {

                /**
                 * Constructs a new SnapshotChunk.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.SnapshotChunk.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** SnapshotChunk requestId. */
                requestId: string;

                /** SnapshotChunk data. */
                data: Uint8Array;

                /** SnapshotChunk error. */
                error: string;

                /** SnapshotChunk errorKind. */
                errorKind: string;

                /**
                 * Creates a new SnapshotChunk instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns SnapshotChunk instance
                 */
                static create(properties: platform.agent.v1.SnapshotChunk.$Shape): platform.agent.v1.SnapshotChunk & platform.agent.v1.SnapshotChunk.$Shape;
                static create(properties?: platform.agent.v1.SnapshotChunk.$Properties): platform.agent.v1.SnapshotChunk;

                /**
                 * Encodes the specified SnapshotChunk message. Does not implicitly {@link platform.agent.v1.SnapshotChunk.verify|verify} messages.
                 * @param m SnapshotChunk message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.SnapshotChunk.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a SnapshotChunk message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.SnapshotChunk & platform.agent.v1.SnapshotChunk.$Shape} SnapshotChunk
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.SnapshotChunk & platform.agent.v1.SnapshotChunk.$Shape;

                /**
                 * Creates a SnapshotChunk message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns SnapshotChunk
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.SnapshotChunk;

                /**
                 * Creates a plain object from a SnapshotChunk message. Also converts values to other types if specified.
                 * @param m SnapshotChunk
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.SnapshotChunk, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this SnapshotChunk to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for SnapshotChunk
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace SnapshotChunk {

                /** Properties of a SnapshotChunk. */
                interface $Properties {

                    /** SnapshotChunk requestId */
                    requestId?: (string|null);

                    /** SnapshotChunk data */
                    data?: (Uint8Array|null);

                    /** SnapshotChunk error */
                    error?: (string|null);

                    /** SnapshotChunk errorKind */
                    errorKind?: (string|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a SnapshotChunk. */
                type $Shape = platform.agent.v1.SnapshotChunk.$Properties;
            }

            /**
             * Properties of a SnapshotAck.
             * @deprecated Use platform.agent.v1.SnapshotAck.$Properties instead.
             */
            interface ISnapshotAck extends platform.agent.v1.SnapshotAck.$Properties {
            }

            /** Represents a SnapshotAck. */
            class SnapshotAck {

                /**
                 * Constructs a new SnapshotAck.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.agent.v1.SnapshotAck.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /**
                 * Creates a new SnapshotAck instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns SnapshotAck instance
                 */
                static create(properties: platform.agent.v1.SnapshotAck.$Shape): platform.agent.v1.SnapshotAck & platform.agent.v1.SnapshotAck.$Shape;
                static create(properties?: platform.agent.v1.SnapshotAck.$Properties): platform.agent.v1.SnapshotAck;

                /**
                 * Encodes the specified SnapshotAck message. Does not implicitly {@link platform.agent.v1.SnapshotAck.verify|verify} messages.
                 * @param m SnapshotAck message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.agent.v1.SnapshotAck.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a SnapshotAck message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.agent.v1.SnapshotAck & platform.agent.v1.SnapshotAck.$Shape} SnapshotAck
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.agent.v1.SnapshotAck & platform.agent.v1.SnapshotAck.$Shape;

                /**
                 * Creates a SnapshotAck message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns SnapshotAck
                 */
                static fromObject(d: { [k: string]: any }): platform.agent.v1.SnapshotAck;

                /**
                 * Creates a plain object from a SnapshotAck message. Also converts values to other types if specified.
                 * @param m SnapshotAck
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.agent.v1.SnapshotAck, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this SnapshotAck to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for SnapshotAck
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace SnapshotAck {

                /** Properties of a SnapshotAck. */
                interface $Properties {

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a SnapshotAck. */
                type $Shape = platform.agent.v1.SnapshotAck.$Properties;
            }
        }
    }
}
