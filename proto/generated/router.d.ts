import * as $protobuf from "protobufjs";
import Long = require("long");

/** Namespace platform. */
export namespace platform {

    /** Namespace router. */
    namespace router {

        /** Namespace v1. */
        namespace v1 {

            /** Represents a RouteTableService */
            class RouteTableService extends $protobuf.rpc.Service {

                /**
                 * Constructs a new RouteTableService service.
                 * @param rpcImpl RPC implementation
                 * @param [requestDelimited=false] Whether requests are length-delimited
                 * @param [responseDelimited=false] Whether responses are length-delimited
                 */
                constructor(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean);

                /**
                 * Creates new RouteTableService service using the specified rpc implementation.
                 * @param rpcImpl RPC implementation
                 * @param [requestDelimited=false] Whether requests are length-delimited
                 * @param [responseDelimited=false] Whether responses are length-delimited
                 * @returns RPC service. Useful where requests and/or responses are streamed.
                 */
                static create(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean): RouteTableService;

                /** Calls Watch. */
                watch: platform.router.v1.RouteTableService.Watch;

                /** Calls ReportRequests. */
                reportRequests: platform.router.v1.RouteTableService.ReportRequests;
            }

            namespace RouteTableService {

                /**
                 * Callback as used by {@link platform.router.v1.RouteTableService#watch}.
                 * @param error Error, if any
                 * @param [response] TableUpdate
                 */
                type WatchCallback = (error: (Error|null), response?: platform.router.v1.TableUpdate) => void;

                /** Calls Watch. */
                type Watch = {
                  (request: platform.router.v1.IWatchRequest, callback: platform.router.v1.RouteTableService.WatchCallback): void;
                  (request: platform.router.v1.IWatchRequest): Promise<platform.router.v1.TableUpdate>;
                  readonly name: "Watch";
                  readonly path: "/platform.router.v1.RouteTableService/Watch";
                  readonly requestType: "WatchRequest";
                  readonly responseType: "TableUpdate";
                  readonly requestStream: undefined;
                  readonly responseStream: true;
                };

                /**
                 * Callback as used by {@link platform.router.v1.RouteTableService#reportRequests}.
                 * @param error Error, if any
                 * @param [response] RequestReportAck
                 */
                type ReportRequestsCallback = (error: (Error|null), response?: platform.router.v1.RequestReportAck) => void;

                /** Calls ReportRequests. */
                type ReportRequests = {
                  (request: platform.router.v1.IRequestReport, callback: platform.router.v1.RouteTableService.ReportRequestsCallback): void;
                  (request: platform.router.v1.IRequestReport): Promise<platform.router.v1.RequestReportAck>;
                  readonly name: "ReportRequests";
                  readonly path: "/platform.router.v1.RouteTableService/ReportRequests";
                  readonly requestType: "RequestReport";
                  readonly responseType: "RequestReportAck";
                  readonly requestStream: undefined;
                  readonly responseStream: undefined;
                };
            }

            /**
             * Properties of a WatchRequest.
             * @deprecated Use platform.router.v1.WatchRequest.$Properties instead.
             */
            interface IWatchRequest extends platform.router.v1.WatchRequest.$Properties {
            }

            /** Represents a WatchRequest. */
            class WatchRequest {

                /**
                 * Constructs a new WatchRequest.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.router.v1.WatchRequest.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** WatchRequest epoch. */
                epoch: string;

                /** WatchRequest version. */
                version: number;

                /** WatchRequest routerName. */
                routerName: string;

                /**
                 * Creates a new WatchRequest instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns WatchRequest instance
                 */
                static create(properties: platform.router.v1.WatchRequest.$Shape): platform.router.v1.WatchRequest & platform.router.v1.WatchRequest.$Shape;
                static create(properties?: platform.router.v1.WatchRequest.$Properties): platform.router.v1.WatchRequest;

                /**
                 * Encodes the specified WatchRequest message. Does not implicitly {@link platform.router.v1.WatchRequest.verify|verify} messages.
                 * @param m WatchRequest message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.router.v1.WatchRequest.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a WatchRequest message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.router.v1.WatchRequest & platform.router.v1.WatchRequest.$Shape} WatchRequest
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.router.v1.WatchRequest & platform.router.v1.WatchRequest.$Shape;

                /**
                 * Creates a WatchRequest message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns WatchRequest
                 */
                static fromObject(d: { [k: string]: any }): platform.router.v1.WatchRequest;

                /**
                 * Creates a plain object from a WatchRequest message. Also converts values to other types if specified.
                 * @param m WatchRequest
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.router.v1.WatchRequest, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this WatchRequest to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for WatchRequest
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace WatchRequest {

                /** Properties of a WatchRequest. */
                interface $Properties {

                    /** WatchRequest epoch */
                    epoch?: (string|null);

                    /** WatchRequest version */
                    version?: (number|null);

                    /** WatchRequest routerName */
                    routerName?: (string|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a WatchRequest. */
                type $Shape = platform.router.v1.WatchRequest.$Properties;
            }

            /**
             * Properties of a TableUpdate.
             * @deprecated Use platform.router.v1.TableUpdate.$Properties instead.
             */
            interface ITableUpdate extends platform.router.v1.TableUpdate.$Properties {
            }

            /** Represents a TableUpdate. */
            class TableUpdate {

                /**
                 * Constructs a new TableUpdate.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.router.v1.TableUpdate.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** TableUpdate epoch. */
                epoch: string;

                /** TableUpdate version. */
                version: number;

                /** TableUpdate snapshot. */
                snapshot: boolean;

                /** TableUpdate upserts. */
                upserts: platform.router.v1.TableEntry.$Properties[];

                /** TableUpdate removes. */
                removes: string[];

                /**
                 * Creates a new TableUpdate instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns TableUpdate instance
                 */
                static create(properties: platform.router.v1.TableUpdate.$Shape): platform.router.v1.TableUpdate & platform.router.v1.TableUpdate.$Shape;
                static create(properties?: platform.router.v1.TableUpdate.$Properties): platform.router.v1.TableUpdate;

                /**
                 * Encodes the specified TableUpdate message. Does not implicitly {@link platform.router.v1.TableUpdate.verify|verify} messages.
                 * @param m TableUpdate message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.router.v1.TableUpdate.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a TableUpdate message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.router.v1.TableUpdate & platform.router.v1.TableUpdate.$Shape} TableUpdate
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.router.v1.TableUpdate & platform.router.v1.TableUpdate.$Shape;

                /**
                 * Creates a TableUpdate message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns TableUpdate
                 */
                static fromObject(d: { [k: string]: any }): platform.router.v1.TableUpdate;

                /**
                 * Creates a plain object from a TableUpdate message. Also converts values to other types if specified.
                 * @param m TableUpdate
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.router.v1.TableUpdate, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this TableUpdate to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for TableUpdate
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace TableUpdate {

                /** Properties of a TableUpdate. */
                interface $Properties {

                    /** TableUpdate epoch */
                    epoch?: (string|null);

                    /** TableUpdate version */
                    version?: (number|null);

                    /** TableUpdate snapshot */
                    snapshot?: (boolean|null);

                    /** TableUpdate upserts */
                    upserts?: (platform.router.v1.TableEntry.$Properties[]|null);

                    /** TableUpdate removes */
                    removes?: (string[]|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a TableUpdate. */
                type $Shape = platform.router.v1.TableUpdate.$Properties;
            }

            /**
             * Properties of a TableEntry.
             * @deprecated Use platform.router.v1.TableEntry.$Properties instead.
             */
            interface ITableEntry extends platform.router.v1.TableEntry.$Properties {
            }

            /** Represents a TableEntry. */
            class TableEntry {

                /**
                 * Constructs a new TableEntry.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.router.v1.TableEntry.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** TableEntry type. */
                type: string;

                /** TableEntry endpoint. */
                endpoint: string;

                /** TableEntry paths. */
                paths: platform.router.v1.TablePath.$Properties[];

                /**
                 * Creates a new TableEntry instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns TableEntry instance
                 */
                static create(properties: platform.router.v1.TableEntry.$Shape): platform.router.v1.TableEntry & platform.router.v1.TableEntry.$Shape;
                static create(properties?: platform.router.v1.TableEntry.$Properties): platform.router.v1.TableEntry;

                /**
                 * Encodes the specified TableEntry message. Does not implicitly {@link platform.router.v1.TableEntry.verify|verify} messages.
                 * @param m TableEntry message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.router.v1.TableEntry.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a TableEntry message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.router.v1.TableEntry & platform.router.v1.TableEntry.$Shape} TableEntry
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.router.v1.TableEntry & platform.router.v1.TableEntry.$Shape;

                /**
                 * Creates a TableEntry message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns TableEntry
                 */
                static fromObject(d: { [k: string]: any }): platform.router.v1.TableEntry;

                /**
                 * Creates a plain object from a TableEntry message. Also converts values to other types if specified.
                 * @param m TableEntry
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.router.v1.TableEntry, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this TableEntry to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for TableEntry
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace TableEntry {

                /** Properties of a TableEntry. */
                interface $Properties {

                    /** TableEntry type */
                    type?: (string|null);

                    /** TableEntry endpoint */
                    endpoint?: (string|null);

                    /** TableEntry paths */
                    paths?: (platform.router.v1.TablePath.$Properties[]|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a TableEntry. */
                type $Shape = platform.router.v1.TableEntry.$Properties;
            }

            /**
             * Properties of a TablePath.
             * @deprecated Use platform.router.v1.TablePath.$Properties instead.
             */
            interface ITablePath extends platform.router.v1.TablePath.$Properties {
            }

            /** Represents a TablePath. */
            class TablePath {

                /**
                 * Constructs a new TablePath.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.router.v1.TablePath.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** TablePath path. */
                path: string;

                /** TablePath httpsOnly. */
                httpsOnly: boolean;

                /** TablePath jobs. */
                jobs: platform.router.v1.TableJob.$Properties[];

                /**
                 * Creates a new TablePath instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns TablePath instance
                 */
                static create(properties: platform.router.v1.TablePath.$Shape): platform.router.v1.TablePath & platform.router.v1.TablePath.$Shape;
                static create(properties?: platform.router.v1.TablePath.$Properties): platform.router.v1.TablePath;

                /**
                 * Encodes the specified TablePath message. Does not implicitly {@link platform.router.v1.TablePath.verify|verify} messages.
                 * @param m TablePath message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.router.v1.TablePath.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a TablePath message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.router.v1.TablePath & platform.router.v1.TablePath.$Shape} TablePath
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.router.v1.TablePath & platform.router.v1.TablePath.$Shape;

                /**
                 * Creates a TablePath message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns TablePath
                 */
                static fromObject(d: { [k: string]: any }): platform.router.v1.TablePath;

                /**
                 * Creates a plain object from a TablePath message. Also converts values to other types if specified.
                 * @param m TablePath
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.router.v1.TablePath, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this TablePath to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for TablePath
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace TablePath {

                /** Properties of a TablePath. */
                interface $Properties {

                    /** TablePath path */
                    path?: (string|null);

                    /** TablePath httpsOnly */
                    httpsOnly?: (boolean|null);

                    /** TablePath jobs */
                    jobs?: (platform.router.v1.TableJob.$Properties[]|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a TablePath. */
                type $Shape = platform.router.v1.TablePath.$Properties;
            }

            /**
             * Properties of a TableJob.
             * @deprecated Use platform.router.v1.TableJob.$Properties instead.
             */
            interface ITableJob extends platform.router.v1.TableJob.$Properties {
            }

            /** Represents a TableJob. */
            class TableJob {

                /**
                 * Constructs a new TableJob.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.router.v1.TableJob.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** TableJob job. */
                job: string;

                /** TableJob weight. */
                weight: number;

                /** TableJob stickyCookies. */
                stickyCookies: string[];

                /** TableJob backends. */
                backends: platform.router.v1.TableBackend.$Properties[];

                /**
                 * Creates a new TableJob instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns TableJob instance
                 */
                static create(properties: platform.router.v1.TableJob.$Shape): platform.router.v1.TableJob & platform.router.v1.TableJob.$Shape;
                static create(properties?: platform.router.v1.TableJob.$Properties): platform.router.v1.TableJob;

                /**
                 * Encodes the specified TableJob message. Does not implicitly {@link platform.router.v1.TableJob.verify|verify} messages.
                 * @param m TableJob message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.router.v1.TableJob.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a TableJob message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.router.v1.TableJob & platform.router.v1.TableJob.$Shape} TableJob
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.router.v1.TableJob & platform.router.v1.TableJob.$Shape;

                /**
                 * Creates a TableJob message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns TableJob
                 */
                static fromObject(d: { [k: string]: any }): platform.router.v1.TableJob;

                /**
                 * Creates a plain object from a TableJob message. Also converts values to other types if specified.
                 * @param m TableJob
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.router.v1.TableJob, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this TableJob to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for TableJob
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace TableJob {

                /** Properties of a TableJob. */
                interface $Properties {

                    /** TableJob job */
                    job?: (string|null);

                    /** TableJob weight */
                    weight?: (number|null);

                    /** TableJob stickyCookies */
                    stickyCookies?: (string[]|null);

                    /** TableJob backends */
                    backends?: (platform.router.v1.TableBackend.$Properties[]|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a TableJob. */
                type $Shape = platform.router.v1.TableJob.$Properties;
            }

            /**
             * Properties of a TableBackend.
             * @deprecated Use platform.router.v1.TableBackend.$Properties instead.
             */
            interface ITableBackend extends platform.router.v1.TableBackend.$Properties {
            }

            /** Represents a TableBackend. */
            class TableBackend {

                /**
                 * Constructs a new TableBackend.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.router.v1.TableBackend.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** TableBackend instance. */
                instance: string;

                /** TableBackend address. */
                address: string;

                /**
                 * Creates a new TableBackend instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns TableBackend instance
                 */
                static create(properties: platform.router.v1.TableBackend.$Shape): platform.router.v1.TableBackend & platform.router.v1.TableBackend.$Shape;
                static create(properties?: platform.router.v1.TableBackend.$Properties): platform.router.v1.TableBackend;

                /**
                 * Encodes the specified TableBackend message. Does not implicitly {@link platform.router.v1.TableBackend.verify|verify} messages.
                 * @param m TableBackend message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.router.v1.TableBackend.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a TableBackend message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.router.v1.TableBackend & platform.router.v1.TableBackend.$Shape} TableBackend
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.router.v1.TableBackend & platform.router.v1.TableBackend.$Shape;

                /**
                 * Creates a TableBackend message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns TableBackend
                 */
                static fromObject(d: { [k: string]: any }): platform.router.v1.TableBackend;

                /**
                 * Creates a plain object from a TableBackend message. Also converts values to other types if specified.
                 * @param m TableBackend
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.router.v1.TableBackend, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this TableBackend to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for TableBackend
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace TableBackend {

                /** Properties of a TableBackend. */
                interface $Properties {

                    /** TableBackend instance */
                    instance?: (string|null);

                    /** TableBackend address */
                    address?: (string|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a TableBackend. */
                type $Shape = platform.router.v1.TableBackend.$Properties;
            }

            /**
             * Properties of a RequestReport.
             * @deprecated Use platform.router.v1.RequestReport.$Properties instead.
             */
            interface IRequestReport extends platform.router.v1.RequestReport.$Properties {
            }

            /** Represents a RequestReport. */
            class RequestReport {

                /**
                 * Constructs a new RequestReport.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.router.v1.RequestReport.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** RequestReport routerId. */
                routerId: string;

                /** RequestReport sequence. */
                sequence: number;

                /** RequestReport routerName. */
                routerName: string;

                /** RequestReport jobs. */
                jobs: platform.router.v1.JobRequests.$Properties[];

                /**
                 * Creates a new RequestReport instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns RequestReport instance
                 */
                static create(properties: platform.router.v1.RequestReport.$Shape): platform.router.v1.RequestReport & platform.router.v1.RequestReport.$Shape;
                static create(properties?: platform.router.v1.RequestReport.$Properties): platform.router.v1.RequestReport;

                /**
                 * Encodes the specified RequestReport message. Does not implicitly {@link platform.router.v1.RequestReport.verify|verify} messages.
                 * @param m RequestReport message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.router.v1.RequestReport.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a RequestReport message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.router.v1.RequestReport & platform.router.v1.RequestReport.$Shape} RequestReport
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.router.v1.RequestReport & platform.router.v1.RequestReport.$Shape;

                /**
                 * Creates a RequestReport message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns RequestReport
                 */
                static fromObject(d: { [k: string]: any }): platform.router.v1.RequestReport;

                /**
                 * Creates a plain object from a RequestReport message. Also converts values to other types if specified.
                 * @param m RequestReport
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.router.v1.RequestReport, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this RequestReport to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for RequestReport
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace RequestReport {

                /** Properties of a RequestReport. */
                interface $Properties {

                    /** RequestReport routerId */
                    routerId?: (string|null);

                    /** RequestReport sequence */
                    sequence?: (number|null);

                    /** RequestReport routerName */
                    routerName?: (string|null);

                    /** RequestReport jobs */
                    jobs?: (platform.router.v1.JobRequests.$Properties[]|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a RequestReport. */
                type $Shape = platform.router.v1.RequestReport.$Properties;
            }

            /**
             * Properties of a JobRequests.
             * @deprecated Use platform.router.v1.JobRequests.$Properties instead.
             */
            interface IJobRequests extends platform.router.v1.JobRequests.$Properties {
            }

            /** Represents a JobRequests. */
            class JobRequests {

                /**
                 * Constructs a new JobRequests.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.router.v1.JobRequests.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** JobRequests job. */
                job: string;

                /** JobRequests requests. */
                requests: number;

                /** JobRequests errors. */
                errors: number;

                /** JobRequests latencySumMs. */
                latencySumMs: number;

                /** JobRequests latencyMaxMs. */
                latencyMaxMs: number;

                /** JobRequests latencyBuckets. */
                latencyBuckets: number[];

                /**
                 * Creates a new JobRequests instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns JobRequests instance
                 */
                static create(properties: platform.router.v1.JobRequests.$Shape): platform.router.v1.JobRequests & platform.router.v1.JobRequests.$Shape;
                static create(properties?: platform.router.v1.JobRequests.$Properties): platform.router.v1.JobRequests;

                /**
                 * Encodes the specified JobRequests message. Does not implicitly {@link platform.router.v1.JobRequests.verify|verify} messages.
                 * @param m JobRequests message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.router.v1.JobRequests.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a JobRequests message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.router.v1.JobRequests & platform.router.v1.JobRequests.$Shape} JobRequests
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.router.v1.JobRequests & platform.router.v1.JobRequests.$Shape;

                /**
                 * Creates a JobRequests message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns JobRequests
                 */
                static fromObject(d: { [k: string]: any }): platform.router.v1.JobRequests;

                /**
                 * Creates a plain object from a JobRequests message. Also converts values to other types if specified.
                 * @param m JobRequests
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.router.v1.JobRequests, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this JobRequests to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for JobRequests
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace JobRequests {

                /** Properties of a JobRequests. */
                interface $Properties {

                    /** JobRequests job */
                    job?: (string|null);

                    /** JobRequests requests */
                    requests?: (number|null);

                    /** JobRequests errors */
                    errors?: (number|null);

                    /** JobRequests latencySumMs */
                    latencySumMs?: (number|null);

                    /** JobRequests latencyMaxMs */
                    latencyMaxMs?: (number|null);

                    /** JobRequests latencyBuckets */
                    latencyBuckets?: (number[]|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a JobRequests. */
                type $Shape = platform.router.v1.JobRequests.$Properties;
            }

            /**
             * Properties of a RequestReportAck.
             * @deprecated Use platform.router.v1.RequestReportAck.$Properties instead.
             */
            interface IRequestReportAck extends platform.router.v1.RequestReportAck.$Properties {
            }

            /** Represents a RequestReportAck. */
            class RequestReportAck {

                /**
                 * Constructs a new RequestReportAck.
                 * @param [p] Properties to set
                 */
                constructor(p?: platform.router.v1.RequestReportAck.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** RequestReportAck counted. */
                counted: boolean;

                /**
                 * Creates a new RequestReportAck instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns RequestReportAck instance
                 */
                static create(properties: platform.router.v1.RequestReportAck.$Shape): platform.router.v1.RequestReportAck & platform.router.v1.RequestReportAck.$Shape;
                static create(properties?: platform.router.v1.RequestReportAck.$Properties): platform.router.v1.RequestReportAck;

                /**
                 * Encodes the specified RequestReportAck message. Does not implicitly {@link platform.router.v1.RequestReportAck.verify|verify} messages.
                 * @param m RequestReportAck message or plain object to encode
                 * @param [w] Writer to encode to
                 * @returns Writer
                 */
                static encode(m: platform.router.v1.RequestReportAck.$Properties, w?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a RequestReportAck message from the specified reader or buffer.
                 * @param r Reader or buffer to decode from
                 * @param [l] Message length if known beforehand
                 * @returns {platform.router.v1.RequestReportAck & platform.router.v1.RequestReportAck.$Shape} RequestReportAck
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(r: ($protobuf.Reader|Uint8Array), l?: number): platform.router.v1.RequestReportAck & platform.router.v1.RequestReportAck.$Shape;

                /**
                 * Creates a RequestReportAck message from a plain object. Also converts values to their respective internal types.
                 * @param d Plain object
                 * @returns RequestReportAck
                 */
                static fromObject(d: { [k: string]: any }): platform.router.v1.RequestReportAck;

                /**
                 * Creates a plain object from a RequestReportAck message. Also converts values to other types if specified.
                 * @param m RequestReportAck
                 * @param [o] Conversion options
                 * @returns Plain object
                 */
                static toObject(m: platform.router.v1.RequestReportAck, o?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this RequestReportAck to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for RequestReportAck
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace RequestReportAck {

                /** Properties of a RequestReportAck. */
                interface $Properties {

                    /** RequestReportAck counted */
                    counted?: (boolean|null);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a RequestReportAck. */
                type $Shape = platform.router.v1.RequestReportAck.$Properties;
            }
        }
    }
}
