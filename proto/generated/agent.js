/*eslint-disable block-scoped-var, id-length, no-control-regex, no-magic-numbers, no-mixed-operators, no-prototype-builtins, no-redeclare, no-shadow, no-var, sort-vars, default-case, jsdoc/require-param*/
import $protobuf from "protobufjs/minimal.js";

// Common aliases
const $Reader = $protobuf.Reader, $Writer = $protobuf.Writer, $util = $protobuf.util;
const $Object = $util.global.Object, $undefined = $util.global.undefined, $Error = $util.global.Error, $RangeError = $util.global.RangeError, $TypeError = $util.global.TypeError, $Number = $util.global.Number, $String = $util.global.String, $Array = $util.global.Array, $Boolean = $util.global.Boolean, $isFinite = $util.global.isFinite;

// Exported root namespace
const $root = $protobuf.roots["default"] || ($protobuf.roots["default"] = {});

export const platform = $root.platform = (() => {

    /**
     * Namespace platform.
     * @exports platform
     * @namespace
     */
    const platform = {};

    platform.agent = (function() {

        /**
         * Namespace agent.
         * @memberof platform
         * @namespace
         */
        const agent = {};

        agent.v1 = (function() {

            /**
             * Namespace v1.
             * @memberof platform.agent
             * @namespace
             */
            const v1 = {};

            v1.AgentService = (function() {

                /**
                 * Constructs a new AgentService service.
                 * @memberof platform.agent.v1
                 * @classdesc Represents an AgentService
                 * @extends $protobuf.rpc.Service
                 * @constructor
                 * @param {$protobuf.RPCImpl} rpcImpl RPC implementation
                 * @param {boolean} [requestDelimited=false] Whether requests are length-delimited
                 * @param {boolean} [responseDelimited=false] Whether responses are length-delimited
                 */
                const AgentService = function(rpcImpl, requestDelimited, responseDelimited) {
                    $protobuf.rpc.Service.call(this, rpcImpl, requestDelimited, responseDelimited);
                };

                $Object.defineProperty(AgentService.prototype = $Object.create($protobuf.rpc.Service.prototype), "constructor", { value: AgentService, writable: true, enumerable: false, configurable: true });

                /**
                 * Creates new AgentService service using the specified rpc implementation.
                 * @function create
                 * @memberof platform.agent.v1.AgentService
                 * @static
                 * @param {$protobuf.RPCImpl} rpcImpl RPC implementation
                 * @param {boolean} [requestDelimited=false] Whether requests are length-delimited
                 * @param {boolean} [responseDelimited=false] Whether responses are length-delimited
                 * @returns {AgentService} RPC service. Useful where requests and/or responses are streamed.
                 */
                AgentService.create = function(rpcImpl, requestDelimited, responseDelimited) {
                    return new this(rpcImpl, requestDelimited, responseDelimited);
                };

                /**
                 * Callback as used by {@link platform.agent.v1.AgentService#connect}.
                 * @memberof platform.agent.v1.AgentService
                 * @typedef ConnectCallback
                 * @type {function}
                 * @param {Error|null} error Error, if any
                 * @param {platform.agent.v1.ControllerMessage} [response] ControllerMessage
                 */

                /**
                 * Calls Connect.
                 * @memberof platform.agent.v1.AgentService
                 * @typedef Connect
                 * @type {{
                 *   (request: platform.agent.v1.IAgentMessage, callback: platform.agent.v1.AgentService.ConnectCallback): void;
                 *   (request: platform.agent.v1.IAgentMessage): Promise<platform.agent.v1.ControllerMessage>;
                 *   readonly name: "Connect";
                 *   readonly path: "/platform.agent.v1.AgentService/Connect";
                 *   readonly requestType: "AgentMessage";
                 *   readonly responseType: "ControllerMessage";
                 *   readonly requestStream: true;
                 *   readonly responseStream: true;
                 * }}
                 */

                /**
                 * Calls Connect.
                 * @name platform.agent.v1.AgentService#connect
                 * @type {platform.agent.v1.AgentService.Connect}
                 */
                $Object.defineProperties(AgentService.prototype.connect = function(request, callback) {
                    return $protobuf.rpc.Service.prototype.rpcCall.call(this, AgentService.prototype.connect, $root.platform.agent.v1.AgentMessage, $root.platform.agent.v1.ControllerMessage, request, callback);
                }, {
                    name: { value: "Connect" },
                    path: { value: "/platform.agent.v1.AgentService/Connect" },
                    requestType: { value: "AgentMessage" },
                    responseType: { value: "ControllerMessage" },
                    requestStream: { value: true },
                    responseStream: { value: true }
                });

                /**
                 * Callback as used by {@link platform.agent.v1.AgentService#fetchBlob}.
                 * @memberof platform.agent.v1.AgentService
                 * @typedef FetchBlobCallback
                 * @type {function}
                 * @param {Error|null} error Error, if any
                 * @param {platform.agent.v1.BlobChunk} [response] BlobChunk
                 */

                /**
                 * Calls FetchBlob.
                 * @memberof platform.agent.v1.AgentService
                 * @typedef FetchBlob
                 * @type {{
                 *   (request: platform.agent.v1.IFetchBlobRequest, callback: platform.agent.v1.AgentService.FetchBlobCallback): void;
                 *   (request: platform.agent.v1.IFetchBlobRequest): Promise<platform.agent.v1.BlobChunk>;
                 *   readonly name: "FetchBlob";
                 *   readonly path: "/platform.agent.v1.AgentService/FetchBlob";
                 *   readonly requestType: "FetchBlobRequest";
                 *   readonly responseType: "BlobChunk";
                 *   readonly requestStream: undefined;
                 *   readonly responseStream: true;
                 * }}
                 */

                /**
                 * Calls FetchBlob.
                 * @name platform.agent.v1.AgentService#fetchBlob
                 * @type {platform.agent.v1.AgentService.FetchBlob}
                 */
                $Object.defineProperties(AgentService.prototype.fetchBlob = function(request, callback) {
                    return $protobuf.rpc.Service.prototype.rpcCall.call(this, AgentService.prototype.fetchBlob, $root.platform.agent.v1.FetchBlobRequest, $root.platform.agent.v1.BlobChunk, request, callback);
                }, {
                    name: { value: "FetchBlob" },
                    path: { value: "/platform.agent.v1.AgentService/FetchBlob" },
                    requestType: { value: "FetchBlobRequest" },
                    responseType: { value: "BlobChunk" },
                    requestStream: { value: $undefined },
                    responseStream: { value: true }
                });

                /**
                 * Callback as used by {@link platform.agent.v1.AgentService#uploadSnapshot}.
                 * @memberof platform.agent.v1.AgentService
                 * @typedef UploadSnapshotCallback
                 * @type {function}
                 * @param {Error|null} error Error, if any
                 * @param {platform.agent.v1.SnapshotAck} [response] SnapshotAck
                 */

                /**
                 * Calls UploadSnapshot.
                 * @memberof platform.agent.v1.AgentService
                 * @typedef UploadSnapshot
                 * @type {{
                 *   (request: platform.agent.v1.ISnapshotChunk, callback: platform.agent.v1.AgentService.UploadSnapshotCallback): void;
                 *   (request: platform.agent.v1.ISnapshotChunk): Promise<platform.agent.v1.SnapshotAck>;
                 *   readonly name: "UploadSnapshot";
                 *   readonly path: "/platform.agent.v1.AgentService/UploadSnapshot";
                 *   readonly requestType: "SnapshotChunk";
                 *   readonly responseType: "SnapshotAck";
                 *   readonly requestStream: true;
                 *   readonly responseStream: undefined;
                 * }}
                 */

                /**
                 * Calls UploadSnapshot.
                 * @name platform.agent.v1.AgentService#uploadSnapshot
                 * @type {platform.agent.v1.AgentService.UploadSnapshot}
                 */
                $Object.defineProperties(AgentService.prototype.uploadSnapshot = function(request, callback) {
                    return $protobuf.rpc.Service.prototype.rpcCall.call(this, AgentService.prototype.uploadSnapshot, $root.platform.agent.v1.SnapshotChunk, $root.platform.agent.v1.SnapshotAck, request, callback);
                }, {
                    name: { value: "UploadSnapshot" },
                    path: { value: "/platform.agent.v1.AgentService/UploadSnapshot" },
                    requestType: { value: "SnapshotChunk" },
                    responseType: { value: "SnapshotAck" },
                    requestStream: { value: true },
                    responseStream: { value: $undefined }
                });

                return AgentService;
            })();

            v1.AgentMessage = (function() {

                /**
                 * Properties of an AgentMessage.
                 * @typedef {Object} platform.agent.v1.AgentMessage.$Properties
                 * @property {platform.agent.v1.Hello.$Properties|null} [hello] AgentMessage hello
                 * @property {platform.agent.v1.Heartbeat.$Properties|null} [heartbeat] AgentMessage heartbeat
                 * @property {platform.agent.v1.InstanceReport.$Properties|null} [instance] AgentMessage instance
                 * @property {platform.agent.v1.LogBatch.$Properties|null} [logs] AgentMessage logs
                 * @property {platform.agent.v1.FilesReply.$Properties|null} [files] AgentMessage files
                 * @property {platform.agent.v1.LogsFlushed.$Properties|null} [logsFlushed] AgentMessage logsFlushed
                 * @property {platform.agent.v1.UsageBatch.$Properties|null} [usage] AgentMessage usage
                 * @property {platform.agent.v1.EgressApplied.$Properties|null} [egressApplied] AgentMessage egressApplied
                 * @property {"hello"|"heartbeat"|"instance"|"logs"|"files"|"logsFlushed"|"usage"|"egressApplied"} [body] AgentMessage body
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of an AgentMessage.
                 * @memberof platform.agent.v1
                 * @interface IAgentMessage
                 * @augments platform.agent.v1.AgentMessage.$Properties
                 * @deprecated Use platform.agent.v1.AgentMessage.$Properties instead.
                 */

                /**
                 * Narrowed shape of an AgentMessage.
                 * @typedef {{
                 *   hello?: platform.agent.v1.Hello.$Shape|null;
                 *   heartbeat?: platform.agent.v1.Heartbeat.$Shape|null;
                 *   instance?: platform.agent.v1.InstanceReport.$Shape|null;
                 *   logs?: platform.agent.v1.LogBatch.$Shape|null;
                 *   files?: platform.agent.v1.FilesReply.$Shape|null;
                 *   logsFlushed?: platform.agent.v1.LogsFlushed.$Shape|null;
                 *   usage?: platform.agent.v1.UsageBatch.$Shape|null;
                 *   egressApplied?: platform.agent.v1.EgressApplied.$Shape|null;
                 *   $unknowns?: Array.<Uint8Array>;
                 * } & (
                 *   ({ body?: undefined; hello?: null; heartbeat?: null; instance?: null; logs?: null; files?: null; logsFlushed?: null; usage?: null; egressApplied?: null }|{ body?: "hello"; hello: platform.agent.v1.Hello.$Shape; heartbeat?: null; instance?: null; logs?: null; files?: null; logsFlushed?: null; usage?: null; egressApplied?: null }|{ body?: "heartbeat"; hello?: null; heartbeat: platform.agent.v1.Heartbeat.$Shape; instance?: null; logs?: null; files?: null; logsFlushed?: null; usage?: null; egressApplied?: null }|{ body?: "instance"; hello?: null; heartbeat?: null; instance: platform.agent.v1.InstanceReport.$Shape; logs?: null; files?: null; logsFlushed?: null; usage?: null; egressApplied?: null }|{ body?: "logs"; hello?: null; heartbeat?: null; instance?: null; logs: platform.agent.v1.LogBatch.$Shape; files?: null; logsFlushed?: null; usage?: null; egressApplied?: null }|{ body?: "files"; hello?: null; heartbeat?: null; instance?: null; logs?: null; files: platform.agent.v1.FilesReply.$Shape; logsFlushed?: null; usage?: null; egressApplied?: null }|{ body?: "logsFlushed"; hello?: null; heartbeat?: null; instance?: null; logs?: null; files?: null; logsFlushed: platform.agent.v1.LogsFlushed.$Shape; usage?: null; egressApplied?: null }|{ body?: "usage"; hello?: null; heartbeat?: null; instance?: null; logs?: null; files?: null; logsFlushed?: null; usage: platform.agent.v1.UsageBatch.$Shape; egressApplied?: null }|{ body?: "egressApplied"; hello?: null; heartbeat?: null; instance?: null; logs?: null; files?: null; logsFlushed?: null; usage?: null; egressApplied: platform.agent.v1.EgressApplied.$Shape })
                 * )} platform.agent.v1.AgentMessage.$Shape
                 */

                /**
                 * Constructs a new AgentMessage.
                 * @memberof platform.agent.v1
                 * @classdesc Represents an AgentMessage.
                 * @constructor
                 * @param {platform.agent.v1.AgentMessage.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const AgentMessage = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * AgentMessage hello.
                 * @member {platform.agent.v1.Hello.$Properties|null|undefined} hello
                 * @memberof platform.agent.v1.AgentMessage
                 * @instance
                 */
                AgentMessage.prototype.hello = null;

                /**
                 * AgentMessage heartbeat.
                 * @member {platform.agent.v1.Heartbeat.$Properties|null|undefined} heartbeat
                 * @memberof platform.agent.v1.AgentMessage
                 * @instance
                 */
                AgentMessage.prototype.heartbeat = null;

                /**
                 * AgentMessage instance.
                 * @member {platform.agent.v1.InstanceReport.$Properties|null|undefined} instance
                 * @memberof platform.agent.v1.AgentMessage
                 * @instance
                 */
                AgentMessage.prototype.instance = null;

                /**
                 * AgentMessage logs.
                 * @member {platform.agent.v1.LogBatch.$Properties|null|undefined} logs
                 * @memberof platform.agent.v1.AgentMessage
                 * @instance
                 */
                AgentMessage.prototype.logs = null;

                /**
                 * AgentMessage files.
                 * @member {platform.agent.v1.FilesReply.$Properties|null|undefined} files
                 * @memberof platform.agent.v1.AgentMessage
                 * @instance
                 */
                AgentMessage.prototype.files = null;

                /**
                 * AgentMessage logsFlushed.
                 * @member {platform.agent.v1.LogsFlushed.$Properties|null|undefined} logsFlushed
                 * @memberof platform.agent.v1.AgentMessage
                 * @instance
                 */
                AgentMessage.prototype.logsFlushed = null;

                /**
                 * AgentMessage usage.
                 * @member {platform.agent.v1.UsageBatch.$Properties|null|undefined} usage
                 * @memberof platform.agent.v1.AgentMessage
                 * @instance
                 */
                AgentMessage.prototype.usage = null;

                /**
                 * AgentMessage egressApplied.
                 * @member {platform.agent.v1.EgressApplied.$Properties|null|undefined} egressApplied
                 * @memberof platform.agent.v1.AgentMessage
                 * @instance
                 */
                AgentMessage.prototype.egressApplied = null;

                // OneOf field names bound to virtual getters and setters
                let $oneOfFields;

                /**
                 * AgentMessage body.
                 * @member {"hello"|"heartbeat"|"instance"|"logs"|"files"|"logsFlushed"|"usage"|"egressApplied"|undefined} body
                 * @memberof platform.agent.v1.AgentMessage
                 * @instance
                 */
                $Object.defineProperty(AgentMessage.prototype, "body", {
                    get: $util.oneOfGetter($oneOfFields = ["hello", "heartbeat", "instance", "logs", "files", "logsFlushed", "usage", "egressApplied"]),
                    set: $util.oneOfSetter($oneOfFields)
                });

                /**
                 * Creates a new AgentMessage instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.AgentMessage
                 * @static
                 * @param {platform.agent.v1.AgentMessage.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.AgentMessage} AgentMessage instance
                 * @type {{
                 *   (properties: platform.agent.v1.AgentMessage.$Shape): platform.agent.v1.AgentMessage & platform.agent.v1.AgentMessage.$Shape;
                 *   (properties?: platform.agent.v1.AgentMessage.$Properties): platform.agent.v1.AgentMessage;
                 * }}
                 */
                AgentMessage.create = function(properties) {
                    return new AgentMessage(properties);
                };

                /**
                 * Encodes the specified AgentMessage message. Does not implicitly {@link platform.agent.v1.AgentMessage.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.AgentMessage
                 * @static
                 * @param {platform.agent.v1.AgentMessage.$Properties} m AgentMessage message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                AgentMessage.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.hello != null && $Object.hasOwnProperty.call(m, "hello"))
                        $root.platform.agent.v1.Hello.encode(m.hello, w.uint32(/* id 1, wireType 2 =*/10).fork(), q + 1).ldelim();
                    if (m.heartbeat != null && $Object.hasOwnProperty.call(m, "heartbeat"))
                        $root.platform.agent.v1.Heartbeat.encode(m.heartbeat, w.uint32(/* id 2, wireType 2 =*/18).fork(), q + 1).ldelim();
                    if (m.instance != null && $Object.hasOwnProperty.call(m, "instance"))
                        $root.platform.agent.v1.InstanceReport.encode(m.instance, w.uint32(/* id 3, wireType 2 =*/26).fork(), q + 1).ldelim();
                    if (m.logs != null && $Object.hasOwnProperty.call(m, "logs"))
                        $root.platform.agent.v1.LogBatch.encode(m.logs, w.uint32(/* id 4, wireType 2 =*/34).fork(), q + 1).ldelim();
                    if (m.files != null && $Object.hasOwnProperty.call(m, "files"))
                        $root.platform.agent.v1.FilesReply.encode(m.files, w.uint32(/* id 5, wireType 2 =*/42).fork(), q + 1).ldelim();
                    if (m.logsFlushed != null && $Object.hasOwnProperty.call(m, "logsFlushed"))
                        $root.platform.agent.v1.LogsFlushed.encode(m.logsFlushed, w.uint32(/* id 6, wireType 2 =*/50).fork(), q + 1).ldelim();
                    if (m.usage != null && $Object.hasOwnProperty.call(m, "usage"))
                        $root.platform.agent.v1.UsageBatch.encode(m.usage, w.uint32(/* id 7, wireType 2 =*/58).fork(), q + 1).ldelim();
                    if (m.egressApplied != null && $Object.hasOwnProperty.call(m, "egressApplied"))
                        $root.platform.agent.v1.EgressApplied.encode(m.egressApplied, w.uint32(/* id 8, wireType 2 =*/66).fork(), q + 1).ldelim();
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes an AgentMessage message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.AgentMessage
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.AgentMessage & platform.agent.v1.AgentMessage.$Shape} AgentMessage
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                AgentMessage.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.AgentMessage();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                m.hello = $root.platform.agent.v1.Hello.decode(r, r.size(), $undefined, q + 1, m.hello);
                                m.body = "hello";
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                m.heartbeat = $root.platform.agent.v1.Heartbeat.decode(r, r.size(), $undefined, q + 1, m.heartbeat);
                                m.body = "heartbeat";
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                m.instance = $root.platform.agent.v1.InstanceReport.decode(r, r.size(), $undefined, q + 1, m.instance);
                                m.body = "instance";
                                continue;
                            }
                        case 4: {
                                if (u !== 2)
                                    break;
                                m.logs = $root.platform.agent.v1.LogBatch.decode(r, r.size(), $undefined, q + 1, m.logs);
                                m.body = "logs";
                                continue;
                            }
                        case 5: {
                                if (u !== 2)
                                    break;
                                m.files = $root.platform.agent.v1.FilesReply.decode(r, r.size(), $undefined, q + 1, m.files);
                                m.body = "files";
                                continue;
                            }
                        case 6: {
                                if (u !== 2)
                                    break;
                                m.logsFlushed = $root.platform.agent.v1.LogsFlushed.decode(r, r.size(), $undefined, q + 1, m.logsFlushed);
                                m.body = "logsFlushed";
                                continue;
                            }
                        case 7: {
                                if (u !== 2)
                                    break;
                                m.usage = $root.platform.agent.v1.UsageBatch.decode(r, r.size(), $undefined, q + 1, m.usage);
                                m.body = "usage";
                                continue;
                            }
                        case 8: {
                                if (u !== 2)
                                    break;
                                m.egressApplied = $root.platform.agent.v1.EgressApplied.decode(r, r.size(), $undefined, q + 1, m.egressApplied);
                                m.body = "egressApplied";
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates an AgentMessage message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.AgentMessage
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.AgentMessage} AgentMessage
                 */
                AgentMessage.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.AgentMessage)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.AgentMessage: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.AgentMessage();
                    if (d.hello != null) {
                        if (!$util.isObject(d.hello))
                            throw $TypeError(".platform.agent.v1.AgentMessage.hello: object expected");
                        m.hello = $root.platform.agent.v1.Hello.fromObject(d.hello, q + 1);
                    }
                    if (d.heartbeat != null) {
                        if (!$util.isObject(d.heartbeat))
                            throw $TypeError(".platform.agent.v1.AgentMessage.heartbeat: object expected");
                        m.heartbeat = $root.platform.agent.v1.Heartbeat.fromObject(d.heartbeat, q + 1);
                    }
                    if (d.instance != null) {
                        if (!$util.isObject(d.instance))
                            throw $TypeError(".platform.agent.v1.AgentMessage.instance: object expected");
                        m.instance = $root.platform.agent.v1.InstanceReport.fromObject(d.instance, q + 1);
                    }
                    if (d.logs != null) {
                        if (!$util.isObject(d.logs))
                            throw $TypeError(".platform.agent.v1.AgentMessage.logs: object expected");
                        m.logs = $root.platform.agent.v1.LogBatch.fromObject(d.logs, q + 1);
                    }
                    if (d.files != null) {
                        if (!$util.isObject(d.files))
                            throw $TypeError(".platform.agent.v1.AgentMessage.files: object expected");
                        m.files = $root.platform.agent.v1.FilesReply.fromObject(d.files, q + 1);
                    }
                    if (d.logsFlushed != null) {
                        if (!$util.isObject(d.logsFlushed))
                            throw $TypeError(".platform.agent.v1.AgentMessage.logsFlushed: object expected");
                        m.logsFlushed = $root.platform.agent.v1.LogsFlushed.fromObject(d.logsFlushed, q + 1);
                    }
                    if (d.usage != null) {
                        if (!$util.isObject(d.usage))
                            throw $TypeError(".platform.agent.v1.AgentMessage.usage: object expected");
                        m.usage = $root.platform.agent.v1.UsageBatch.fromObject(d.usage, q + 1);
                    }
                    if (d.egressApplied != null) {
                        if (!$util.isObject(d.egressApplied))
                            throw $TypeError(".platform.agent.v1.AgentMessage.egressApplied: object expected");
                        m.egressApplied = $root.platform.agent.v1.EgressApplied.fromObject(d.egressApplied, q + 1);
                    }
                    return m;
                };

                /**
                 * Creates a plain object from an AgentMessage message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.AgentMessage
                 * @static
                 * @param {platform.agent.v1.AgentMessage} m AgentMessage
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                AgentMessage.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (m.hello != null && $Object.hasOwnProperty.call(m, "hello")) {
                        d.hello = $root.platform.agent.v1.Hello.toObject(m.hello, o, q + 1);
                        if (o.oneofs)
                            d.body = "hello";
                    }
                    if (m.heartbeat != null && $Object.hasOwnProperty.call(m, "heartbeat")) {
                        d.heartbeat = $root.platform.agent.v1.Heartbeat.toObject(m.heartbeat, o, q + 1);
                        if (o.oneofs)
                            d.body = "heartbeat";
                    }
                    if (m.instance != null && $Object.hasOwnProperty.call(m, "instance")) {
                        d.instance = $root.platform.agent.v1.InstanceReport.toObject(m.instance, o, q + 1);
                        if (o.oneofs)
                            d.body = "instance";
                    }
                    if (m.logs != null && $Object.hasOwnProperty.call(m, "logs")) {
                        d.logs = $root.platform.agent.v1.LogBatch.toObject(m.logs, o, q + 1);
                        if (o.oneofs)
                            d.body = "logs";
                    }
                    if (m.files != null && $Object.hasOwnProperty.call(m, "files")) {
                        d.files = $root.platform.agent.v1.FilesReply.toObject(m.files, o, q + 1);
                        if (o.oneofs)
                            d.body = "files";
                    }
                    if (m.logsFlushed != null && $Object.hasOwnProperty.call(m, "logsFlushed")) {
                        d.logsFlushed = $root.platform.agent.v1.LogsFlushed.toObject(m.logsFlushed, o, q + 1);
                        if (o.oneofs)
                            d.body = "logsFlushed";
                    }
                    if (m.usage != null && $Object.hasOwnProperty.call(m, "usage")) {
                        d.usage = $root.platform.agent.v1.UsageBatch.toObject(m.usage, o, q + 1);
                        if (o.oneofs)
                            d.body = "usage";
                    }
                    if (m.egressApplied != null && $Object.hasOwnProperty.call(m, "egressApplied")) {
                        d.egressApplied = $root.platform.agent.v1.EgressApplied.toObject(m.egressApplied, o, q + 1);
                        if (o.oneofs)
                            d.body = "egressApplied";
                    }
                    return d;
                };

                /**
                 * Converts this AgentMessage to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.AgentMessage
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                AgentMessage.prototype.toJSON = function() {
                    return AgentMessage.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for AgentMessage
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.AgentMessage
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                AgentMessage.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.AgentMessage";
                };

                return AgentMessage;
            })();

            v1.Hello = (function() {

                /**
                 * Properties of a Hello.
                 * @typedef {Object} platform.agent.v1.Hello.$Properties
                 * @property {number|null} [protocolVersion] Hello protocolVersion
                 * @property {string|null} [agentUuid] Hello agentUuid
                 * @property {string|null} [hostname] Hello hostname
                 * @property {string|null} [datacenter] Hello datacenter
                 * @property {Array.<string>|null} [tags] Hello tags
                 * @property {Array.<string>|null} [systemTags] Hello systemTags
                 * @property {platform.agent.v1.Resources.$Properties|null} [total] Hello total
                 * @property {string|null} [isolation] Hello isolation
                 * @property {boolean|null} [cgroups] Hello cgroups
                 * @property {number|null} [startedAtMs] Hello startedAtMs
                 * @property {string|null} [address] Hello address
                 * @property {Array.<platform.agent.v1.InstanceReport.$Properties>|null} [instances] Hello instances
                 * @property {string|null} [version] Hello version
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a Hello.
                 * @memberof platform.agent.v1
                 * @interface IHello
                 * @augments platform.agent.v1.Hello.$Properties
                 * @deprecated Use platform.agent.v1.Hello.$Properties instead.
                 */

                /**
                 * Shape of a Hello.
                 * @typedef {platform.agent.v1.Hello.$Properties} platform.agent.v1.Hello.$Shape
                 */

                /**
                 * Constructs a new Hello.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a Hello.
                 * @constructor
                 * @param {platform.agent.v1.Hello.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const Hello = function (p) {
                    this.tags = [];
                    this.systemTags = [];
                    this.instances = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * Hello protocolVersion.
                 * @member {number} protocolVersion
                 * @memberof platform.agent.v1.Hello
                 * @instance
                 */
                Hello.prototype.protocolVersion = 0;

                /**
                 * Hello agentUuid.
                 * @member {string} agentUuid
                 * @memberof platform.agent.v1.Hello
                 * @instance
                 */
                Hello.prototype.agentUuid = "";

                /**
                 * Hello hostname.
                 * @member {string} hostname
                 * @memberof platform.agent.v1.Hello
                 * @instance
                 */
                Hello.prototype.hostname = "";

                /**
                 * Hello datacenter.
                 * @member {string} datacenter
                 * @memberof platform.agent.v1.Hello
                 * @instance
                 */
                Hello.prototype.datacenter = "";

                /**
                 * Hello tags.
                 * @member {Array.<string>} tags
                 * @memberof platform.agent.v1.Hello
                 * @instance
                 */
                Hello.prototype.tags = $util.emptyArray;

                /**
                 * Hello systemTags.
                 * @member {Array.<string>} systemTags
                 * @memberof platform.agent.v1.Hello
                 * @instance
                 */
                Hello.prototype.systemTags = $util.emptyArray;

                /**
                 * Hello total.
                 * @member {platform.agent.v1.Resources.$Properties|null|undefined} total
                 * @memberof platform.agent.v1.Hello
                 * @instance
                 */
                Hello.prototype.total = null;

                /**
                 * Hello isolation.
                 * @member {string} isolation
                 * @memberof platform.agent.v1.Hello
                 * @instance
                 */
                Hello.prototype.isolation = "";

                /**
                 * Hello cgroups.
                 * @member {boolean} cgroups
                 * @memberof platform.agent.v1.Hello
                 * @instance
                 */
                Hello.prototype.cgroups = false;

                /**
                 * Hello startedAtMs.
                 * @member {number} startedAtMs
                 * @memberof platform.agent.v1.Hello
                 * @instance
                 */
                Hello.prototype.startedAtMs = 0;

                /**
                 * Hello address.
                 * @member {string} address
                 * @memberof platform.agent.v1.Hello
                 * @instance
                 */
                Hello.prototype.address = "";

                /**
                 * Hello instances.
                 * @member {Array.<platform.agent.v1.InstanceReport.$Properties>} instances
                 * @memberof platform.agent.v1.Hello
                 * @instance
                 */
                Hello.prototype.instances = $util.emptyArray;

                /**
                 * Hello version.
                 * @member {string} version
                 * @memberof platform.agent.v1.Hello
                 * @instance
                 */
                Hello.prototype.version = "";

                /**
                 * Creates a new Hello instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.Hello
                 * @static
                 * @param {platform.agent.v1.Hello.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.Hello} Hello instance
                 * @type {{
                 *   (properties: platform.agent.v1.Hello.$Shape): platform.agent.v1.Hello & platform.agent.v1.Hello.$Shape;
                 *   (properties?: platform.agent.v1.Hello.$Properties): platform.agent.v1.Hello;
                 * }}
                 */
                Hello.create = function(properties) {
                    return new Hello(properties);
                };

                /**
                 * Encodes the specified Hello message. Does not implicitly {@link platform.agent.v1.Hello.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.Hello
                 * @static
                 * @param {platform.agent.v1.Hello.$Properties} m Hello message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                Hello.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.protocolVersion != null && $Object.hasOwnProperty.call(m, "protocolVersion") && m.protocolVersion !== 0)
                        w.uint32(/* id 1, wireType 0 =*/8).uint32(m.protocolVersion);
                    if (m.agentUuid != null && $Object.hasOwnProperty.call(m, "agentUuid") && m.agentUuid !== "")
                        w.uint32(/* id 2, wireType 2 =*/18).string(m.agentUuid);
                    if (m.hostname != null && $Object.hasOwnProperty.call(m, "hostname") && m.hostname !== "")
                        w.uint32(/* id 3, wireType 2 =*/26).string(m.hostname);
                    if (m.datacenter != null && $Object.hasOwnProperty.call(m, "datacenter") && m.datacenter !== "")
                        w.uint32(/* id 4, wireType 2 =*/34).string(m.datacenter);
                    if (m.tags != null && m.tags.length) {
                        for (var i = 0; i < m.tags.length; ++i)
                            w.uint32(/* id 5, wireType 2 =*/42).string(m.tags[i]);
                    }
                    if (m.systemTags != null && m.systemTags.length) {
                        for (var i = 0; i < m.systemTags.length; ++i)
                            w.uint32(/* id 6, wireType 2 =*/50).string(m.systemTags[i]);
                    }
                    if (m.total != null && $Object.hasOwnProperty.call(m, "total"))
                        $root.platform.agent.v1.Resources.encode(m.total, w.uint32(/* id 7, wireType 2 =*/58).fork(), q + 1).ldelim();
                    if (m.isolation != null && $Object.hasOwnProperty.call(m, "isolation") && m.isolation !== "")
                        w.uint32(/* id 8, wireType 2 =*/66).string(m.isolation);
                    if (m.cgroups != null && $Object.hasOwnProperty.call(m, "cgroups") && m.cgroups !== false)
                        w.uint32(/* id 9, wireType 0 =*/72).bool(m.cgroups);
                    if (m.startedAtMs != null && $Object.hasOwnProperty.call(m, "startedAtMs") && !$Object.is(m.startedAtMs, 0))
                        w.uint32(/* id 10, wireType 1 =*/81).double(m.startedAtMs);
                    if (m.address != null && $Object.hasOwnProperty.call(m, "address") && m.address !== "")
                        w.uint32(/* id 11, wireType 2 =*/90).string(m.address);
                    if (m.instances != null && m.instances.length) {
                        for (var i = 0; i < m.instances.length; ++i)
                            $root.platform.agent.v1.InstanceReport.encode(m.instances[i], w.uint32(/* id 12, wireType 2 =*/98).fork(), q + 1).ldelim();
                    }
                    if (m.version != null && $Object.hasOwnProperty.call(m, "version") && m.version !== "")
                        w.uint32(/* id 13, wireType 2 =*/106).string(m.version);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a Hello message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.Hello
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.Hello & platform.agent.v1.Hello.$Shape} Hello
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                Hello.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.Hello();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 0)
                                    break;
                                if (v = r.uint32())
                                    m.protocolVersion = v;
                                else
                                    delete m.protocolVersion;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.agentUuid = v;
                                else
                                    delete m.agentUuid;
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.hostname = v;
                                else
                                    delete m.hostname;
                                continue;
                            }
                        case 4: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.datacenter = v;
                                else
                                    delete m.datacenter;
                                continue;
                            }
                        case 5: {
                                if (u !== 2)
                                    break;
                                if (!(m.tags && m.tags.length))
                                    m.tags = [];
                                m.tags.push(r.stringVerify());
                                continue;
                            }
                        case 6: {
                                if (u !== 2)
                                    break;
                                if (!(m.systemTags && m.systemTags.length))
                                    m.systemTags = [];
                                m.systemTags.push(r.stringVerify());
                                continue;
                            }
                        case 7: {
                                if (u !== 2)
                                    break;
                                m.total = $root.platform.agent.v1.Resources.decode(r, r.size(), $undefined, q + 1, m.total);
                                continue;
                            }
                        case 8: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.isolation = v;
                                else
                                    delete m.isolation;
                                continue;
                            }
                        case 9: {
                                if (u !== 0)
                                    break;
                                if (v = r.bool())
                                    m.cgroups = v;
                                else
                                    delete m.cgroups;
                                continue;
                            }
                        case 10: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.startedAtMs = v;
                                else
                                    delete m.startedAtMs;
                                continue;
                            }
                        case 11: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.address = v;
                                else
                                    delete m.address;
                                continue;
                            }
                        case 12: {
                                if (u !== 2)
                                    break;
                                if (!(m.instances && m.instances.length))
                                    m.instances = [];
                                m.instances.push($root.platform.agent.v1.InstanceReport.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        case 13: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.version = v;
                                else
                                    delete m.version;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a Hello message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.Hello
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.Hello} Hello
                 */
                Hello.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.Hello)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.Hello: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.Hello();
                    if (d.protocolVersion != null) {
                        if ($Number(d.protocolVersion) !== 0) {
                            m.protocolVersion = d.protocolVersion >>> 0;
                        }
                    }
                    if (d.agentUuid != null) {
                        if (typeof d.agentUuid !== "string" || d.agentUuid.length) {
                            m.agentUuid = $String(d.agentUuid);
                        }
                    }
                    if (d.hostname != null) {
                        if (typeof d.hostname !== "string" || d.hostname.length) {
                            m.hostname = $String(d.hostname);
                        }
                    }
                    if (d.datacenter != null) {
                        if (typeof d.datacenter !== "string" || d.datacenter.length) {
                            m.datacenter = $String(d.datacenter);
                        }
                    }
                    if (d.tags) {
                        if (!$Array.isArray(d.tags))
                            throw $TypeError(".platform.agent.v1.Hello.tags: array expected");
                        m.tags = $Array(d.tags.length);
                        for (var i = 0; i < d.tags.length; ++i) {
                            m.tags[i] = $String(d.tags[i]);
                        }
                    }
                    if (d.systemTags) {
                        if (!$Array.isArray(d.systemTags))
                            throw $TypeError(".platform.agent.v1.Hello.systemTags: array expected");
                        m.systemTags = $Array(d.systemTags.length);
                        for (var i = 0; i < d.systemTags.length; ++i) {
                            m.systemTags[i] = $String(d.systemTags[i]);
                        }
                    }
                    if (d.total != null) {
                        if (!$util.isObject(d.total))
                            throw $TypeError(".platform.agent.v1.Hello.total: object expected");
                        m.total = $root.platform.agent.v1.Resources.fromObject(d.total, q + 1);
                    }
                    if (d.isolation != null) {
                        if (typeof d.isolation !== "string" || d.isolation.length) {
                            m.isolation = $String(d.isolation);
                        }
                    }
                    if (d.cgroups != null) {
                        if (d.cgroups) {
                            m.cgroups = $Boolean(d.cgroups);
                        }
                    }
                    if (d.startedAtMs != null) {
                        if (!$Object.is($Number(d.startedAtMs), 0)) {
                            m.startedAtMs = $Number(d.startedAtMs);
                        }
                    }
                    if (d.address != null) {
                        if (typeof d.address !== "string" || d.address.length) {
                            m.address = $String(d.address);
                        }
                    }
                    if (d.instances) {
                        if (!$Array.isArray(d.instances))
                            throw $TypeError(".platform.agent.v1.Hello.instances: array expected");
                        m.instances = $Array(d.instances.length);
                        for (var i = 0; i < d.instances.length; ++i) {
                            if (!$util.isObject(d.instances[i]))
                                throw $TypeError(".platform.agent.v1.Hello.instances: object expected");
                            m.instances[i] = $root.platform.agent.v1.InstanceReport.fromObject(d.instances[i], q + 1);
                        }
                    }
                    if (d.version != null) {
                        if (typeof d.version !== "string" || d.version.length) {
                            m.version = $String(d.version);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a Hello message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.Hello
                 * @static
                 * @param {platform.agent.v1.Hello} m Hello
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                Hello.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.tags = [];
                        d.systemTags = [];
                        d.instances = [];
                    }
                    if (o.defaults) {
                        d.protocolVersion = 0;
                        d.agentUuid = "";
                        d.hostname = "";
                        d.datacenter = "";
                        d.total = null;
                        d.isolation = "";
                        d.cgroups = false;
                        d.startedAtMs = 0;
                        d.address = "";
                        d.version = "";
                    }
                    if (m.protocolVersion != null && $Object.hasOwnProperty.call(m, "protocolVersion")) {
                        d.protocolVersion = m.protocolVersion;
                    }
                    if (m.agentUuid != null && $Object.hasOwnProperty.call(m, "agentUuid")) {
                        d.agentUuid = m.agentUuid;
                    }
                    if (m.hostname != null && $Object.hasOwnProperty.call(m, "hostname")) {
                        d.hostname = m.hostname;
                    }
                    if (m.datacenter != null && $Object.hasOwnProperty.call(m, "datacenter")) {
                        d.datacenter = m.datacenter;
                    }
                    if (m.tags && m.tags.length) {
                        d.tags = $Array(m.tags.length);
                        for (var j = 0; j < m.tags.length; ++j) {
                            d.tags[j] = m.tags[j];
                        }
                    }
                    if (m.systemTags && m.systemTags.length) {
                        d.systemTags = $Array(m.systemTags.length);
                        for (var j = 0; j < m.systemTags.length; ++j) {
                            d.systemTags[j] = m.systemTags[j];
                        }
                    }
                    if (m.total != null && $Object.hasOwnProperty.call(m, "total")) {
                        d.total = $root.platform.agent.v1.Resources.toObject(m.total, o, q + 1);
                    }
                    if (m.isolation != null && $Object.hasOwnProperty.call(m, "isolation")) {
                        d.isolation = m.isolation;
                    }
                    if (m.cgroups != null && $Object.hasOwnProperty.call(m, "cgroups")) {
                        d.cgroups = m.cgroups;
                    }
                    if (m.startedAtMs != null && $Object.hasOwnProperty.call(m, "startedAtMs")) {
                        d.startedAtMs = o.json && !$isFinite(m.startedAtMs) ? $String(m.startedAtMs) : m.startedAtMs;
                    }
                    if (m.address != null && $Object.hasOwnProperty.call(m, "address")) {
                        d.address = m.address;
                    }
                    if (m.instances && m.instances.length) {
                        d.instances = $Array(m.instances.length);
                        for (var j = 0; j < m.instances.length; ++j) {
                            d.instances[j] = $root.platform.agent.v1.InstanceReport.toObject(m.instances[j], o, q + 1);
                        }
                    }
                    if (m.version != null && $Object.hasOwnProperty.call(m, "version")) {
                        d.version = m.version;
                    }
                    return d;
                };

                /**
                 * Converts this Hello to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.Hello
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                Hello.prototype.toJSON = function() {
                    return Hello.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for Hello
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.Hello
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                Hello.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.Hello";
                };

                return Hello;
            })();

            v1.Heartbeat = (function() {

                /**
                 * Properties of a Heartbeat.
                 * @typedef {Object} platform.agent.v1.Heartbeat.$Properties
                 * @property {number|null} [sentAtMs] Heartbeat sentAtMs
                 * @property {platform.agent.v1.Resources.$Properties|null} [used] Heartbeat used
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a Heartbeat.
                 * @memberof platform.agent.v1
                 * @interface IHeartbeat
                 * @augments platform.agent.v1.Heartbeat.$Properties
                 * @deprecated Use platform.agent.v1.Heartbeat.$Properties instead.
                 */

                /**
                 * Shape of a Heartbeat.
                 * @typedef {platform.agent.v1.Heartbeat.$Properties} platform.agent.v1.Heartbeat.$Shape
                 */

                /**
                 * Constructs a new Heartbeat.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a Heartbeat.
                 * @constructor
                 * @param {platform.agent.v1.Heartbeat.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const Heartbeat = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * Heartbeat sentAtMs.
                 * @member {number} sentAtMs
                 * @memberof platform.agent.v1.Heartbeat
                 * @instance
                 */
                Heartbeat.prototype.sentAtMs = 0;

                /**
                 * Heartbeat used.
                 * @member {platform.agent.v1.Resources.$Properties|null|undefined} used
                 * @memberof platform.agent.v1.Heartbeat
                 * @instance
                 */
                Heartbeat.prototype.used = null;

                /**
                 * Creates a new Heartbeat instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.Heartbeat
                 * @static
                 * @param {platform.agent.v1.Heartbeat.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.Heartbeat} Heartbeat instance
                 * @type {{
                 *   (properties: platform.agent.v1.Heartbeat.$Shape): platform.agent.v1.Heartbeat & platform.agent.v1.Heartbeat.$Shape;
                 *   (properties?: platform.agent.v1.Heartbeat.$Properties): platform.agent.v1.Heartbeat;
                 * }}
                 */
                Heartbeat.create = function(properties) {
                    return new Heartbeat(properties);
                };

                /**
                 * Encodes the specified Heartbeat message. Does not implicitly {@link platform.agent.v1.Heartbeat.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.Heartbeat
                 * @static
                 * @param {platform.agent.v1.Heartbeat.$Properties} m Heartbeat message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                Heartbeat.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.sentAtMs != null && $Object.hasOwnProperty.call(m, "sentAtMs") && !$Object.is(m.sentAtMs, 0))
                        w.uint32(/* id 1, wireType 1 =*/9).double(m.sentAtMs);
                    if (m.used != null && $Object.hasOwnProperty.call(m, "used"))
                        $root.platform.agent.v1.Resources.encode(m.used, w.uint32(/* id 2, wireType 2 =*/18).fork(), q + 1).ldelim();
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a Heartbeat message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.Heartbeat
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.Heartbeat & platform.agent.v1.Heartbeat.$Shape} Heartbeat
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                Heartbeat.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.Heartbeat();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.sentAtMs = v;
                                else
                                    delete m.sentAtMs;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                m.used = $root.platform.agent.v1.Resources.decode(r, r.size(), $undefined, q + 1, m.used);
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a Heartbeat message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.Heartbeat
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.Heartbeat} Heartbeat
                 */
                Heartbeat.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.Heartbeat)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.Heartbeat: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.Heartbeat();
                    if (d.sentAtMs != null) {
                        if (!$Object.is($Number(d.sentAtMs), 0)) {
                            m.sentAtMs = $Number(d.sentAtMs);
                        }
                    }
                    if (d.used != null) {
                        if (!$util.isObject(d.used))
                            throw $TypeError(".platform.agent.v1.Heartbeat.used: object expected");
                        m.used = $root.platform.agent.v1.Resources.fromObject(d.used, q + 1);
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a Heartbeat message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.Heartbeat
                 * @static
                 * @param {platform.agent.v1.Heartbeat} m Heartbeat
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                Heartbeat.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.sentAtMs = 0;
                        d.used = null;
                    }
                    if (m.sentAtMs != null && $Object.hasOwnProperty.call(m, "sentAtMs")) {
                        d.sentAtMs = o.json && !$isFinite(m.sentAtMs) ? $String(m.sentAtMs) : m.sentAtMs;
                    }
                    if (m.used != null && $Object.hasOwnProperty.call(m, "used")) {
                        d.used = $root.platform.agent.v1.Resources.toObject(m.used, o, q + 1);
                    }
                    return d;
                };

                /**
                 * Converts this Heartbeat to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.Heartbeat
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                Heartbeat.prototype.toJSON = function() {
                    return Heartbeat.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for Heartbeat
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.Heartbeat
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                Heartbeat.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.Heartbeat";
                };

                return Heartbeat;
            })();

            v1.Resources = (function() {

                /**
                 * Properties of a Resources.
                 * @typedef {Object} platform.agent.v1.Resources.$Properties
                 * @property {number|null} [cpu] Resources cpu
                 * @property {number|null} [memory] Resources memory
                 * @property {number|null} [disk] Resources disk
                 * @property {number|null} [network] Resources network
                 * @property {number|null} [netmax] Resources netmax
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a Resources.
                 * @memberof platform.agent.v1
                 * @interface IResources
                 * @augments platform.agent.v1.Resources.$Properties
                 * @deprecated Use platform.agent.v1.Resources.$Properties instead.
                 */

                /**
                 * Shape of a Resources.
                 * @typedef {platform.agent.v1.Resources.$Properties} platform.agent.v1.Resources.$Shape
                 */

                /**
                 * Constructs a new Resources.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a Resources.
                 * @constructor
                 * @param {platform.agent.v1.Resources.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const Resources = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * Resources cpu.
                 * @member {number} cpu
                 * @memberof platform.agent.v1.Resources
                 * @instance
                 */
                Resources.prototype.cpu = 0;

                /**
                 * Resources memory.
                 * @member {number} memory
                 * @memberof platform.agent.v1.Resources
                 * @instance
                 */
                Resources.prototype.memory = 0;

                /**
                 * Resources disk.
                 * @member {number} disk
                 * @memberof platform.agent.v1.Resources
                 * @instance
                 */
                Resources.prototype.disk = 0;

                /**
                 * Resources network.
                 * @member {number} network
                 * @memberof platform.agent.v1.Resources
                 * @instance
                 */
                Resources.prototype.network = 0;

                /**
                 * Resources netmax.
                 * @member {number} netmax
                 * @memberof platform.agent.v1.Resources
                 * @instance
                 */
                Resources.prototype.netmax = 0;

                /**
                 * Creates a new Resources instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.Resources
                 * @static
                 * @param {platform.agent.v1.Resources.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.Resources} Resources instance
                 * @type {{
                 *   (properties: platform.agent.v1.Resources.$Shape): platform.agent.v1.Resources & platform.agent.v1.Resources.$Shape;
                 *   (properties?: platform.agent.v1.Resources.$Properties): platform.agent.v1.Resources;
                 * }}
                 */
                Resources.create = function(properties) {
                    return new Resources(properties);
                };

                /**
                 * Encodes the specified Resources message. Does not implicitly {@link platform.agent.v1.Resources.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.Resources
                 * @static
                 * @param {platform.agent.v1.Resources.$Properties} m Resources message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                Resources.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.cpu != null && $Object.hasOwnProperty.call(m, "cpu") && !$Object.is(m.cpu, 0))
                        w.uint32(/* id 1, wireType 1 =*/9).double(m.cpu);
                    if (m.memory != null && $Object.hasOwnProperty.call(m, "memory") && !$Object.is(m.memory, 0))
                        w.uint32(/* id 2, wireType 1 =*/17).double(m.memory);
                    if (m.disk != null && $Object.hasOwnProperty.call(m, "disk") && !$Object.is(m.disk, 0))
                        w.uint32(/* id 3, wireType 1 =*/25).double(m.disk);
                    if (m.network != null && $Object.hasOwnProperty.call(m, "network") && !$Object.is(m.network, 0))
                        w.uint32(/* id 4, wireType 1 =*/33).double(m.network);
                    if (m.netmax != null && $Object.hasOwnProperty.call(m, "netmax") && !$Object.is(m.netmax, 0))
                        w.uint32(/* id 5, wireType 1 =*/41).double(m.netmax);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a Resources message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.Resources
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.Resources & platform.agent.v1.Resources.$Shape} Resources
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                Resources.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.Resources();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.cpu = v;
                                else
                                    delete m.cpu;
                                continue;
                            }
                        case 2: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.memory = v;
                                else
                                    delete m.memory;
                                continue;
                            }
                        case 3: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.disk = v;
                                else
                                    delete m.disk;
                                continue;
                            }
                        case 4: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.network = v;
                                else
                                    delete m.network;
                                continue;
                            }
                        case 5: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.netmax = v;
                                else
                                    delete m.netmax;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a Resources message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.Resources
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.Resources} Resources
                 */
                Resources.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.Resources)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.Resources: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.Resources();
                    if (d.cpu != null) {
                        if (!$Object.is($Number(d.cpu), 0)) {
                            m.cpu = $Number(d.cpu);
                        }
                    }
                    if (d.memory != null) {
                        if (!$Object.is($Number(d.memory), 0)) {
                            m.memory = $Number(d.memory);
                        }
                    }
                    if (d.disk != null) {
                        if (!$Object.is($Number(d.disk), 0)) {
                            m.disk = $Number(d.disk);
                        }
                    }
                    if (d.network != null) {
                        if (!$Object.is($Number(d.network), 0)) {
                            m.network = $Number(d.network);
                        }
                    }
                    if (d.netmax != null) {
                        if (!$Object.is($Number(d.netmax), 0)) {
                            m.netmax = $Number(d.netmax);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a Resources message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.Resources
                 * @static
                 * @param {platform.agent.v1.Resources} m Resources
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                Resources.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.cpu = 0;
                        d.memory = 0;
                        d.disk = 0;
                        d.network = 0;
                        d.netmax = 0;
                    }
                    if (m.cpu != null && $Object.hasOwnProperty.call(m, "cpu")) {
                        d.cpu = o.json && !$isFinite(m.cpu) ? $String(m.cpu) : m.cpu;
                    }
                    if (m.memory != null && $Object.hasOwnProperty.call(m, "memory")) {
                        d.memory = o.json && !$isFinite(m.memory) ? $String(m.memory) : m.memory;
                    }
                    if (m.disk != null && $Object.hasOwnProperty.call(m, "disk")) {
                        d.disk = o.json && !$isFinite(m.disk) ? $String(m.disk) : m.disk;
                    }
                    if (m.network != null && $Object.hasOwnProperty.call(m, "network")) {
                        d.network = o.json && !$isFinite(m.network) ? $String(m.network) : m.network;
                    }
                    if (m.netmax != null && $Object.hasOwnProperty.call(m, "netmax")) {
                        d.netmax = o.json && !$isFinite(m.netmax) ? $String(m.netmax) : m.netmax;
                    }
                    return d;
                };

                /**
                 * Converts this Resources to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.Resources
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                Resources.prototype.toJSON = function() {
                    return Resources.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for Resources
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.Resources
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                Resources.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.Resources";
                };

                return Resources;
            })();

            /**
             * InstanceState enum.
             * @name platform.agent.v1.InstanceState
             * @enum {number}
             * @property {number} INSTANCE_STATE_UNSPECIFIED=0 INSTANCE_STATE_UNSPECIFIED value
             * @property {number} NEW=1 NEW value
             * @property {number} SETUP=2 SETUP value
             * @property {number} STARTING_WAIT=3 STARTING_WAIT value
             * @property {number} STARTING=4 STARTING value
             * @property {number} FIRST_RUNNING=5 FIRST_RUNNING value
             * @property {number} RUNNING=6 RUNNING value
             * @property {number} UPDATING=7 UPDATING value
             * @property {number} STOPPING_WAIT=8 STOPPING_WAIT value
             * @property {number} STOPPING=9 STOPPING value
             * @property {number} TEARDOWN=10 TEARDOWN value
             * @property {number} REMOVED=11 REMOVED value
             */
            v1.InstanceState = (function() {
                const valuesById = $Object.create(null), values = $Object.create(valuesById);
                values[valuesById[0] = "INSTANCE_STATE_UNSPECIFIED"] = 0;
                values[valuesById[1] = "NEW"] = 1;
                values[valuesById[2] = "SETUP"] = 2;
                values[valuesById[3] = "STARTING_WAIT"] = 3;
                values[valuesById[4] = "STARTING"] = 4;
                values[valuesById[5] = "FIRST_RUNNING"] = 5;
                values[valuesById[6] = "RUNNING"] = 6;
                values[valuesById[7] = "UPDATING"] = 7;
                values[valuesById[8] = "STOPPING_WAIT"] = 8;
                values[valuesById[9] = "STOPPING"] = 9;
                values[valuesById[10] = "TEARDOWN"] = 10;
                values[valuesById[11] = "REMOVED"] = 11;
                return values;
            })();

            v1.InstanceReport = (function() {

                /**
                 * Properties of an InstanceReport.
                 * @typedef {Object} platform.agent.v1.InstanceReport.$Properties
                 * @property {string|null} [instanceUuid] InstanceReport instanceUuid
                 * @property {string|null} [jobUuid] InstanceReport jobUuid
                 * @property {number|null} [jobVersionId] InstanceReport jobVersionId
                 * @property {platform.agent.v1.InstanceState|null} [state] InstanceReport state
                 * @property {boolean|null} [exited] InstanceReport exited
                 * @property {number|null} [exitCode] InstanceReport exitCode
                 * @property {boolean|null} [failed] InstanceReport failed
                 * @property {string|null} [reason] InstanceReport reason
                 * @property {Object.<string,string>|null} [ports] InstanceReport ports
                 * @property {number|null} [timeMs] InstanceReport timeMs
                 * @property {number|null} [createdMs] InstanceReport createdMs
                 * @property {boolean|null} [stopRequested] InstanceReport stopRequested
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of an InstanceReport.
                 * @memberof platform.agent.v1
                 * @interface IInstanceReport
                 * @augments platform.agent.v1.InstanceReport.$Properties
                 * @deprecated Use platform.agent.v1.InstanceReport.$Properties instead.
                 */

                /**
                 * Shape of an InstanceReport.
                 * @typedef {platform.agent.v1.InstanceReport.$Properties} platform.agent.v1.InstanceReport.$Shape
                 */

                /**
                 * Constructs a new InstanceReport.
                 * @memberof platform.agent.v1
                 * @classdesc Represents an InstanceReport.
                 * @constructor
                 * @param {platform.agent.v1.InstanceReport.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const InstanceReport = function (p) {
                    this.ports = {};
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * InstanceReport instanceUuid.
                 * @member {string} instanceUuid
                 * @memberof platform.agent.v1.InstanceReport
                 * @instance
                 */
                InstanceReport.prototype.instanceUuid = "";

                /**
                 * InstanceReport jobUuid.
                 * @member {string} jobUuid
                 * @memberof platform.agent.v1.InstanceReport
                 * @instance
                 */
                InstanceReport.prototype.jobUuid = "";

                /**
                 * InstanceReport jobVersionId.
                 * @member {number} jobVersionId
                 * @memberof platform.agent.v1.InstanceReport
                 * @instance
                 */
                InstanceReport.prototype.jobVersionId = 0;

                /**
                 * InstanceReport state.
                 * @member {platform.agent.v1.InstanceState} state
                 * @memberof platform.agent.v1.InstanceReport
                 * @instance
                 */
                InstanceReport.prototype.state = 0;

                /**
                 * InstanceReport exited.
                 * @member {boolean} exited
                 * @memberof platform.agent.v1.InstanceReport
                 * @instance
                 */
                InstanceReport.prototype.exited = false;

                /**
                 * InstanceReport exitCode.
                 * @member {number} exitCode
                 * @memberof platform.agent.v1.InstanceReport
                 * @instance
                 */
                InstanceReport.prototype.exitCode = 0;

                /**
                 * InstanceReport failed.
                 * @member {boolean} failed
                 * @memberof platform.agent.v1.InstanceReport
                 * @instance
                 */
                InstanceReport.prototype.failed = false;

                /**
                 * InstanceReport reason.
                 * @member {string} reason
                 * @memberof platform.agent.v1.InstanceReport
                 * @instance
                 */
                InstanceReport.prototype.reason = "";

                /**
                 * InstanceReport ports.
                 * @member {Object.<string,string>} ports
                 * @memberof platform.agent.v1.InstanceReport
                 * @instance
                 */
                InstanceReport.prototype.ports = $util.emptyObject;

                /**
                 * InstanceReport timeMs.
                 * @member {number} timeMs
                 * @memberof platform.agent.v1.InstanceReport
                 * @instance
                 */
                InstanceReport.prototype.timeMs = 0;

                /**
                 * InstanceReport createdMs.
                 * @member {number} createdMs
                 * @memberof platform.agent.v1.InstanceReport
                 * @instance
                 */
                InstanceReport.prototype.createdMs = 0;

                /**
                 * InstanceReport stopRequested.
                 * @member {boolean} stopRequested
                 * @memberof platform.agent.v1.InstanceReport
                 * @instance
                 */
                InstanceReport.prototype.stopRequested = false;

                /**
                 * Creates a new InstanceReport instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.InstanceReport
                 * @static
                 * @param {platform.agent.v1.InstanceReport.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.InstanceReport} InstanceReport instance
                 * @type {{
                 *   (properties: platform.agent.v1.InstanceReport.$Shape): platform.agent.v1.InstanceReport & platform.agent.v1.InstanceReport.$Shape;
                 *   (properties?: platform.agent.v1.InstanceReport.$Properties): platform.agent.v1.InstanceReport;
                 * }}
                 */
                InstanceReport.create = function(properties) {
                    return new InstanceReport(properties);
                };

                /**
                 * Encodes the specified InstanceReport message. Does not implicitly {@link platform.agent.v1.InstanceReport.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.InstanceReport
                 * @static
                 * @param {platform.agent.v1.InstanceReport.$Properties} m InstanceReport message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                InstanceReport.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.instanceUuid != null && $Object.hasOwnProperty.call(m, "instanceUuid") && m.instanceUuid !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.instanceUuid);
                    if (m.jobUuid != null && $Object.hasOwnProperty.call(m, "jobUuid") && m.jobUuid !== "")
                        w.uint32(/* id 2, wireType 2 =*/18).string(m.jobUuid);
                    if (m.jobVersionId != null && $Object.hasOwnProperty.call(m, "jobVersionId") && !$Object.is(m.jobVersionId, 0))
                        w.uint32(/* id 3, wireType 1 =*/25).double(m.jobVersionId);
                    if (m.state != null && $Object.hasOwnProperty.call(m, "state") && m.state !== 0)
                        w.uint32(/* id 4, wireType 0 =*/32).int32(m.state);
                    if (m.exited != null && $Object.hasOwnProperty.call(m, "exited") && m.exited !== false)
                        w.uint32(/* id 5, wireType 0 =*/40).bool(m.exited);
                    if (m.exitCode != null && $Object.hasOwnProperty.call(m, "exitCode") && m.exitCode !== 0)
                        w.uint32(/* id 6, wireType 0 =*/48).int32(m.exitCode);
                    if (m.failed != null && $Object.hasOwnProperty.call(m, "failed") && m.failed !== false)
                        w.uint32(/* id 7, wireType 0 =*/56).bool(m.failed);
                    if (m.reason != null && $Object.hasOwnProperty.call(m, "reason") && m.reason !== "")
                        w.uint32(/* id 8, wireType 2 =*/66).string(m.reason);
                    if (m.ports != null && $Object.hasOwnProperty.call(m, "ports")) {
                        for (var ks = $Object.keys(m.ports), i = 0; i < ks.length; ++i) {
                            w.uint32(/* id 9, wireType 2 =*/74).fork().uint32(/* id 1, wireType 0 =*/8).uint32(ks[i]).uint32(/* id 2, wireType 2 =*/18).string(m.ports[ks[i]]).ldelim();
                        }
                    }
                    if (m.timeMs != null && $Object.hasOwnProperty.call(m, "timeMs") && !$Object.is(m.timeMs, 0))
                        w.uint32(/* id 10, wireType 1 =*/81).double(m.timeMs);
                    if (m.createdMs != null && $Object.hasOwnProperty.call(m, "createdMs") && !$Object.is(m.createdMs, 0))
                        w.uint32(/* id 11, wireType 1 =*/89).double(m.createdMs);
                    if (m.stopRequested != null && $Object.hasOwnProperty.call(m, "stopRequested") && m.stopRequested !== false)
                        w.uint32(/* id 12, wireType 0 =*/96).bool(m.stopRequested);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes an InstanceReport message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.InstanceReport
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.InstanceReport & platform.agent.v1.InstanceReport.$Shape} InstanceReport
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                InstanceReport.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, k, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.InstanceReport();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.instanceUuid = v;
                                else
                                    delete m.instanceUuid;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.jobUuid = v;
                                else
                                    delete m.jobUuid;
                                continue;
                            }
                        case 3: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.jobVersionId = v;
                                else
                                    delete m.jobVersionId;
                                continue;
                            }
                        case 4: {
                                if (u !== 0)
                                    break;
                                if (v = r.int32())
                                    m.state = v;
                                else
                                    delete m.state;
                                continue;
                            }
                        case 5: {
                                if (u !== 0)
                                    break;
                                if (v = r.bool())
                                    m.exited = v;
                                else
                                    delete m.exited;
                                continue;
                            }
                        case 6: {
                                if (u !== 0)
                                    break;
                                if (v = r.int32())
                                    m.exitCode = v;
                                else
                                    delete m.exitCode;
                                continue;
                            }
                        case 7: {
                                if (u !== 0)
                                    break;
                                if (v = r.bool())
                                    m.failed = v;
                                else
                                    delete m.failed;
                                continue;
                            }
                        case 8: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.reason = v;
                                else
                                    delete m.reason;
                                continue;
                            }
                        case 9: {
                                if (u !== 2)
                                    break;
                                if (m.ports === $util.emptyObject)
                                    m.ports = {};
                                var c2 = r.size() + r.pos;
                                if (c2 > r.len)
                                    throw $RangeError("index out of range");
                                r.len = c2;
                                k = 0;
                                v = "";
                                while (r.pos < c2) {
                                    var t2 = r.tag();
                                    u = t2 & 7;
                                    switch (t2 >>>= 3) {
                                    case 1:
                                        if (u !== 0)
                                            break;
                                        k = r.uint32();
                                        continue;
                                    case 2:
                                        if (u !== 2)
                                            break;
                                        v = r.stringVerify();
                                        continue;
                                    }
                                    r.skipType(u, q, t2);
                                }
                                if (r.pos !== c2)
                                    throw $RangeError("index out of range");
                                r.len = c;
                                m.ports[k] = v;
                                continue;
                            }
                        case 10: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.timeMs = v;
                                else
                                    delete m.timeMs;
                                continue;
                            }
                        case 11: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.createdMs = v;
                                else
                                    delete m.createdMs;
                                continue;
                            }
                        case 12: {
                                if (u !== 0)
                                    break;
                                if (v = r.bool())
                                    m.stopRequested = v;
                                else
                                    delete m.stopRequested;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates an InstanceReport message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.InstanceReport
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.InstanceReport} InstanceReport
                 */
                InstanceReport.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.InstanceReport)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.InstanceReport: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.InstanceReport();
                    if (d.instanceUuid != null) {
                        if (typeof d.instanceUuid !== "string" || d.instanceUuid.length) {
                            m.instanceUuid = $String(d.instanceUuid);
                        }
                    }
                    if (d.jobUuid != null) {
                        if (typeof d.jobUuid !== "string" || d.jobUuid.length) {
                            m.jobUuid = $String(d.jobUuid);
                        }
                    }
                    if (d.jobVersionId != null) {
                        if (!$Object.is($Number(d.jobVersionId), 0)) {
                            m.jobVersionId = $Number(d.jobVersionId);
                        }
                    }
                    if (d.state !== 0 && (typeof d.state !== "string" || $root.platform.agent.v1.InstanceState[d.state] !== 0)) {
                        switch (d.state) {
                        case "INSTANCE_STATE_UNSPECIFIED":
                        case 0:
                            m.state = 0;
                            break;
                        case "NEW":
                        case 1:
                            m.state = 1;
                            break;
                        case "SETUP":
                        case 2:
                            m.state = 2;
                            break;
                        case "STARTING_WAIT":
                        case 3:
                            m.state = 3;
                            break;
                        case "STARTING":
                        case 4:
                            m.state = 4;
                            break;
                        case "FIRST_RUNNING":
                        case 5:
                            m.state = 5;
                            break;
                        case "RUNNING":
                        case 6:
                            m.state = 6;
                            break;
                        case "UPDATING":
                        case 7:
                            m.state = 7;
                            break;
                        case "STOPPING_WAIT":
                        case 8:
                            m.state = 8;
                            break;
                        case "STOPPING":
                        case 9:
                            m.state = 9;
                            break;
                        case "TEARDOWN":
                        case 10:
                            m.state = 10;
                            break;
                        case "REMOVED":
                        case 11:
                            m.state = 11;
                            break;
                        default:
                            if (typeof d.state === "number" && (d.state | 0) === d.state)
                                m.state = d.state;
                        }
                    }
                    if (d.exited != null) {
                        if (d.exited) {
                            m.exited = $Boolean(d.exited);
                        }
                    }
                    if (d.exitCode != null) {
                        if ($Number(d.exitCode) !== 0) {
                            m.exitCode = d.exitCode | 0;
                        }
                    }
                    if (d.failed != null) {
                        if (d.failed) {
                            m.failed = $Boolean(d.failed);
                        }
                    }
                    if (d.reason != null) {
                        if (typeof d.reason !== "string" || d.reason.length) {
                            m.reason = $String(d.reason);
                        }
                    }
                    if (d.ports) {
                        if (!$util.isObject(d.ports))
                            throw $TypeError(".platform.agent.v1.InstanceReport.ports: object expected");
                        m.ports = {};
                        for (var ks = $Object.keys(d.ports), i = 0; i < ks.length; ++i) {
                            if (ks[i] === "__proto__")
                                $util.makeProp(m.ports, ks[i]);
                            m.ports[ks[i]] = $String(d.ports[ks[i]]);
                        }
                    }
                    if (d.timeMs != null) {
                        if (!$Object.is($Number(d.timeMs), 0)) {
                            m.timeMs = $Number(d.timeMs);
                        }
                    }
                    if (d.createdMs != null) {
                        if (!$Object.is($Number(d.createdMs), 0)) {
                            m.createdMs = $Number(d.createdMs);
                        }
                    }
                    if (d.stopRequested != null) {
                        if (d.stopRequested) {
                            m.stopRequested = $Boolean(d.stopRequested);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from an InstanceReport message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.InstanceReport
                 * @static
                 * @param {platform.agent.v1.InstanceReport} m InstanceReport
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                InstanceReport.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.objects || o.defaults) {
                        d.ports = {};
                    }
                    if (o.defaults) {
                        d.instanceUuid = "";
                        d.jobUuid = "";
                        d.jobVersionId = 0;
                        d.state = o.enums === $String ? "INSTANCE_STATE_UNSPECIFIED" : 0;
                        d.exited = false;
                        d.exitCode = 0;
                        d.failed = false;
                        d.reason = "";
                        d.timeMs = 0;
                        d.createdMs = 0;
                        d.stopRequested = false;
                    }
                    if (m.instanceUuid != null && $Object.hasOwnProperty.call(m, "instanceUuid")) {
                        d.instanceUuid = m.instanceUuid;
                    }
                    if (m.jobUuid != null && $Object.hasOwnProperty.call(m, "jobUuid")) {
                        d.jobUuid = m.jobUuid;
                    }
                    if (m.jobVersionId != null && $Object.hasOwnProperty.call(m, "jobVersionId")) {
                        d.jobVersionId = o.json && !$isFinite(m.jobVersionId) ? $String(m.jobVersionId) : m.jobVersionId;
                    }
                    if (m.state != null && $Object.hasOwnProperty.call(m, "state")) {
                        d.state = o.enums === $String ? $root.platform.agent.v1.InstanceState[m.state] === $undefined ? m.state : $root.platform.agent.v1.InstanceState[m.state] : m.state;
                    }
                    if (m.exited != null && $Object.hasOwnProperty.call(m, "exited")) {
                        d.exited = m.exited;
                    }
                    if (m.exitCode != null && $Object.hasOwnProperty.call(m, "exitCode")) {
                        d.exitCode = m.exitCode;
                    }
                    if (m.failed != null && $Object.hasOwnProperty.call(m, "failed")) {
                        d.failed = m.failed;
                    }
                    if (m.reason != null && $Object.hasOwnProperty.call(m, "reason")) {
                        d.reason = m.reason;
                    }
                    var ks2;
                    if (m.ports && (ks2 = $Object.keys(m.ports)).length) {
                        d.ports = {};
                        for (var j = 0; j < ks2.length; ++j) {
                            if (ks2[j] === "__proto__")
                                $util.makeProp(d.ports, ks2[j]);
                            d.ports[ks2[j]] = m.ports[ks2[j]];
                        }
                    }
                    if (m.timeMs != null && $Object.hasOwnProperty.call(m, "timeMs")) {
                        d.timeMs = o.json && !$isFinite(m.timeMs) ? $String(m.timeMs) : m.timeMs;
                    }
                    if (m.createdMs != null && $Object.hasOwnProperty.call(m, "createdMs")) {
                        d.createdMs = o.json && !$isFinite(m.createdMs) ? $String(m.createdMs) : m.createdMs;
                    }
                    if (m.stopRequested != null && $Object.hasOwnProperty.call(m, "stopRequested")) {
                        d.stopRequested = m.stopRequested;
                    }
                    return d;
                };

                /**
                 * Converts this InstanceReport to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.InstanceReport
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                InstanceReport.prototype.toJSON = function() {
                    return InstanceReport.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for InstanceReport
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.InstanceReport
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                InstanceReport.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.InstanceReport";
                };

                return InstanceReport;
            })();

            v1.UsageBatch = (function() {

                /**
                 * Properties of a UsageBatch.
                 * @typedef {Object} platform.agent.v1.UsageBatch.$Properties
                 * @property {Array.<platform.agent.v1.UsageSample.$Properties>|null} [samples] UsageBatch samples
                 * @property {number|null} [droppedTotal] UsageBatch droppedTotal
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a UsageBatch.
                 * @memberof platform.agent.v1
                 * @interface IUsageBatch
                 * @augments platform.agent.v1.UsageBatch.$Properties
                 * @deprecated Use platform.agent.v1.UsageBatch.$Properties instead.
                 */

                /**
                 * Shape of a UsageBatch.
                 * @typedef {platform.agent.v1.UsageBatch.$Properties} platform.agent.v1.UsageBatch.$Shape
                 */

                /**
                 * Constructs a new UsageBatch.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a UsageBatch.
                 * @constructor
                 * @param {platform.agent.v1.UsageBatch.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const UsageBatch = function (p) {
                    this.samples = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * UsageBatch samples.
                 * @member {Array.<platform.agent.v1.UsageSample.$Properties>} samples
                 * @memberof platform.agent.v1.UsageBatch
                 * @instance
                 */
                UsageBatch.prototype.samples = $util.emptyArray;

                /**
                 * UsageBatch droppedTotal.
                 * @member {number} droppedTotal
                 * @memberof platform.agent.v1.UsageBatch
                 * @instance
                 */
                UsageBatch.prototype.droppedTotal = 0;

                /**
                 * Creates a new UsageBatch instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.UsageBatch
                 * @static
                 * @param {platform.agent.v1.UsageBatch.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.UsageBatch} UsageBatch instance
                 * @type {{
                 *   (properties: platform.agent.v1.UsageBatch.$Shape): platform.agent.v1.UsageBatch & platform.agent.v1.UsageBatch.$Shape;
                 *   (properties?: platform.agent.v1.UsageBatch.$Properties): platform.agent.v1.UsageBatch;
                 * }}
                 */
                UsageBatch.create = function(properties) {
                    return new UsageBatch(properties);
                };

                /**
                 * Encodes the specified UsageBatch message. Does not implicitly {@link platform.agent.v1.UsageBatch.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.UsageBatch
                 * @static
                 * @param {platform.agent.v1.UsageBatch.$Properties} m UsageBatch message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                UsageBatch.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.samples != null && m.samples.length) {
                        for (var i = 0; i < m.samples.length; ++i)
                            $root.platform.agent.v1.UsageSample.encode(m.samples[i], w.uint32(/* id 1, wireType 2 =*/10).fork(), q + 1).ldelim();
                    }
                    if (m.droppedTotal != null && $Object.hasOwnProperty.call(m, "droppedTotal") && !$Object.is(m.droppedTotal, 0))
                        w.uint32(/* id 2, wireType 1 =*/17).double(m.droppedTotal);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a UsageBatch message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.UsageBatch
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.UsageBatch & platform.agent.v1.UsageBatch.$Shape} UsageBatch
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                UsageBatch.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.UsageBatch();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if (!(m.samples && m.samples.length))
                                    m.samples = [];
                                m.samples.push($root.platform.agent.v1.UsageSample.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        case 2: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.droppedTotal = v;
                                else
                                    delete m.droppedTotal;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a UsageBatch message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.UsageBatch
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.UsageBatch} UsageBatch
                 */
                UsageBatch.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.UsageBatch)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.UsageBatch: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.UsageBatch();
                    if (d.samples) {
                        if (!$Array.isArray(d.samples))
                            throw $TypeError(".platform.agent.v1.UsageBatch.samples: array expected");
                        m.samples = $Array(d.samples.length);
                        for (var i = 0; i < d.samples.length; ++i) {
                            if (!$util.isObject(d.samples[i]))
                                throw $TypeError(".platform.agent.v1.UsageBatch.samples: object expected");
                            m.samples[i] = $root.platform.agent.v1.UsageSample.fromObject(d.samples[i], q + 1);
                        }
                    }
                    if (d.droppedTotal != null) {
                        if (!$Object.is($Number(d.droppedTotal), 0)) {
                            m.droppedTotal = $Number(d.droppedTotal);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a UsageBatch message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.UsageBatch
                 * @static
                 * @param {platform.agent.v1.UsageBatch} m UsageBatch
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                UsageBatch.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.samples = [];
                    }
                    if (o.defaults) {
                        d.droppedTotal = 0;
                    }
                    if (m.samples && m.samples.length) {
                        d.samples = $Array(m.samples.length);
                        for (var j = 0; j < m.samples.length; ++j) {
                            d.samples[j] = $root.platform.agent.v1.UsageSample.toObject(m.samples[j], o, q + 1);
                        }
                    }
                    if (m.droppedTotal != null && $Object.hasOwnProperty.call(m, "droppedTotal")) {
                        d.droppedTotal = o.json && !$isFinite(m.droppedTotal) ? $String(m.droppedTotal) : m.droppedTotal;
                    }
                    return d;
                };

                /**
                 * Converts this UsageBatch to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.UsageBatch
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                UsageBatch.prototype.toJSON = function() {
                    return UsageBatch.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for UsageBatch
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.UsageBatch
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                UsageBatch.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.UsageBatch";
                };

                return UsageBatch;
            })();

            v1.UsageSample = (function() {

                /**
                 * Properties of a UsageSample.
                 * @typedef {Object} platform.agent.v1.UsageSample.$Properties
                 * @property {number|null} [timeMs] UsageSample timeMs
                 * @property {number|null} [intervalMs] UsageSample intervalMs
                 * @property {platform.agent.v1.HostUsage.$Properties|null} [host] UsageSample host
                 * @property {Array.<platform.agent.v1.InstanceUsage.$Properties>|null} [instances] UsageSample instances
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a UsageSample.
                 * @memberof platform.agent.v1
                 * @interface IUsageSample
                 * @augments platform.agent.v1.UsageSample.$Properties
                 * @deprecated Use platform.agent.v1.UsageSample.$Properties instead.
                 */

                /**
                 * Shape of a UsageSample.
                 * @typedef {platform.agent.v1.UsageSample.$Properties} platform.agent.v1.UsageSample.$Shape
                 */

                /**
                 * Constructs a new UsageSample.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a UsageSample.
                 * @constructor
                 * @param {platform.agent.v1.UsageSample.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const UsageSample = function (p) {
                    this.instances = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * UsageSample timeMs.
                 * @member {number} timeMs
                 * @memberof platform.agent.v1.UsageSample
                 * @instance
                 */
                UsageSample.prototype.timeMs = 0;

                /**
                 * UsageSample intervalMs.
                 * @member {number} intervalMs
                 * @memberof platform.agent.v1.UsageSample
                 * @instance
                 */
                UsageSample.prototype.intervalMs = 0;

                /**
                 * UsageSample host.
                 * @member {platform.agent.v1.HostUsage.$Properties|null|undefined} host
                 * @memberof platform.agent.v1.UsageSample
                 * @instance
                 */
                UsageSample.prototype.host = null;

                /**
                 * UsageSample instances.
                 * @member {Array.<platform.agent.v1.InstanceUsage.$Properties>} instances
                 * @memberof platform.agent.v1.UsageSample
                 * @instance
                 */
                UsageSample.prototype.instances = $util.emptyArray;

                /**
                 * Creates a new UsageSample instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.UsageSample
                 * @static
                 * @param {platform.agent.v1.UsageSample.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.UsageSample} UsageSample instance
                 * @type {{
                 *   (properties: platform.agent.v1.UsageSample.$Shape): platform.agent.v1.UsageSample & platform.agent.v1.UsageSample.$Shape;
                 *   (properties?: platform.agent.v1.UsageSample.$Properties): platform.agent.v1.UsageSample;
                 * }}
                 */
                UsageSample.create = function(properties) {
                    return new UsageSample(properties);
                };

                /**
                 * Encodes the specified UsageSample message. Does not implicitly {@link platform.agent.v1.UsageSample.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.UsageSample
                 * @static
                 * @param {platform.agent.v1.UsageSample.$Properties} m UsageSample message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                UsageSample.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.timeMs != null && $Object.hasOwnProperty.call(m, "timeMs") && !$Object.is(m.timeMs, 0))
                        w.uint32(/* id 1, wireType 1 =*/9).double(m.timeMs);
                    if (m.intervalMs != null && $Object.hasOwnProperty.call(m, "intervalMs") && !$Object.is(m.intervalMs, 0))
                        w.uint32(/* id 2, wireType 1 =*/17).double(m.intervalMs);
                    if (m.host != null && $Object.hasOwnProperty.call(m, "host"))
                        $root.platform.agent.v1.HostUsage.encode(m.host, w.uint32(/* id 3, wireType 2 =*/26).fork(), q + 1).ldelim();
                    if (m.instances != null && m.instances.length) {
                        for (var i = 0; i < m.instances.length; ++i)
                            $root.platform.agent.v1.InstanceUsage.encode(m.instances[i], w.uint32(/* id 4, wireType 2 =*/34).fork(), q + 1).ldelim();
                    }
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a UsageSample message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.UsageSample
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.UsageSample & platform.agent.v1.UsageSample.$Shape} UsageSample
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                UsageSample.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.UsageSample();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.timeMs = v;
                                else
                                    delete m.timeMs;
                                continue;
                            }
                        case 2: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.intervalMs = v;
                                else
                                    delete m.intervalMs;
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                m.host = $root.platform.agent.v1.HostUsage.decode(r, r.size(), $undefined, q + 1, m.host);
                                continue;
                            }
                        case 4: {
                                if (u !== 2)
                                    break;
                                if (!(m.instances && m.instances.length))
                                    m.instances = [];
                                m.instances.push($root.platform.agent.v1.InstanceUsage.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a UsageSample message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.UsageSample
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.UsageSample} UsageSample
                 */
                UsageSample.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.UsageSample)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.UsageSample: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.UsageSample();
                    if (d.timeMs != null) {
                        if (!$Object.is($Number(d.timeMs), 0)) {
                            m.timeMs = $Number(d.timeMs);
                        }
                    }
                    if (d.intervalMs != null) {
                        if (!$Object.is($Number(d.intervalMs), 0)) {
                            m.intervalMs = $Number(d.intervalMs);
                        }
                    }
                    if (d.host != null) {
                        if (!$util.isObject(d.host))
                            throw $TypeError(".platform.agent.v1.UsageSample.host: object expected");
                        m.host = $root.platform.agent.v1.HostUsage.fromObject(d.host, q + 1);
                    }
                    if (d.instances) {
                        if (!$Array.isArray(d.instances))
                            throw $TypeError(".platform.agent.v1.UsageSample.instances: array expected");
                        m.instances = $Array(d.instances.length);
                        for (var i = 0; i < d.instances.length; ++i) {
                            if (!$util.isObject(d.instances[i]))
                                throw $TypeError(".platform.agent.v1.UsageSample.instances: object expected");
                            m.instances[i] = $root.platform.agent.v1.InstanceUsage.fromObject(d.instances[i], q + 1);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a UsageSample message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.UsageSample
                 * @static
                 * @param {platform.agent.v1.UsageSample} m UsageSample
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                UsageSample.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.instances = [];
                    }
                    if (o.defaults) {
                        d.timeMs = 0;
                        d.intervalMs = 0;
                        d.host = null;
                    }
                    if (m.timeMs != null && $Object.hasOwnProperty.call(m, "timeMs")) {
                        d.timeMs = o.json && !$isFinite(m.timeMs) ? $String(m.timeMs) : m.timeMs;
                    }
                    if (m.intervalMs != null && $Object.hasOwnProperty.call(m, "intervalMs")) {
                        d.intervalMs = o.json && !$isFinite(m.intervalMs) ? $String(m.intervalMs) : m.intervalMs;
                    }
                    if (m.host != null && $Object.hasOwnProperty.call(m, "host")) {
                        d.host = $root.platform.agent.v1.HostUsage.toObject(m.host, o, q + 1);
                    }
                    if (m.instances && m.instances.length) {
                        d.instances = $Array(m.instances.length);
                        for (var j = 0; j < m.instances.length; ++j) {
                            d.instances[j] = $root.platform.agent.v1.InstanceUsage.toObject(m.instances[j], o, q + 1);
                        }
                    }
                    return d;
                };

                /**
                 * Converts this UsageSample to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.UsageSample
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                UsageSample.prototype.toJSON = function() {
                    return UsageSample.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for UsageSample
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.UsageSample
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                UsageSample.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.UsageSample";
                };

                return UsageSample;
            })();

            v1.InstanceUsage = (function() {

                /**
                 * Properties of an InstanceUsage.
                 * @typedef {Object} platform.agent.v1.InstanceUsage.$Properties
                 * @property {string|null} [instanceUuid] InstanceUsage instanceUuid
                 * @property {string|null} [jobUuid] InstanceUsage jobUuid
                 * @property {number|null} [cpuNs] InstanceUsage cpuNs
                 * @property {number|null} [memoryUsed] InstanceUsage memoryUsed
                 * @property {number|null} [memoryLimit] InstanceUsage memoryLimit
                 * @property {number|null} [diskUsed] InstanceUsage diskUsed
                 * @property {number|null} [diskLimit] InstanceUsage diskLimit
                 * @property {number|null} [networkRx] InstanceUsage networkRx
                 * @property {number|null} [networkTx] InstanceUsage networkTx
                 * @property {boolean|null} [networkMeasured] InstanceUsage networkMeasured
                 * @property {number|null} [bandwidthLimit] InstanceUsage bandwidthLimit
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of an InstanceUsage.
                 * @memberof platform.agent.v1
                 * @interface IInstanceUsage
                 * @augments platform.agent.v1.InstanceUsage.$Properties
                 * @deprecated Use platform.agent.v1.InstanceUsage.$Properties instead.
                 */

                /**
                 * Shape of an InstanceUsage.
                 * @typedef {platform.agent.v1.InstanceUsage.$Properties} platform.agent.v1.InstanceUsage.$Shape
                 */

                /**
                 * Constructs a new InstanceUsage.
                 * @memberof platform.agent.v1
                 * @classdesc Represents an InstanceUsage.
                 * @constructor
                 * @param {platform.agent.v1.InstanceUsage.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const InstanceUsage = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * InstanceUsage instanceUuid.
                 * @member {string} instanceUuid
                 * @memberof platform.agent.v1.InstanceUsage
                 * @instance
                 */
                InstanceUsage.prototype.instanceUuid = "";

                /**
                 * InstanceUsage jobUuid.
                 * @member {string} jobUuid
                 * @memberof platform.agent.v1.InstanceUsage
                 * @instance
                 */
                InstanceUsage.prototype.jobUuid = "";

                /**
                 * InstanceUsage cpuNs.
                 * @member {number} cpuNs
                 * @memberof platform.agent.v1.InstanceUsage
                 * @instance
                 */
                InstanceUsage.prototype.cpuNs = 0;

                /**
                 * InstanceUsage memoryUsed.
                 * @member {number} memoryUsed
                 * @memberof platform.agent.v1.InstanceUsage
                 * @instance
                 */
                InstanceUsage.prototype.memoryUsed = 0;

                /**
                 * InstanceUsage memoryLimit.
                 * @member {number} memoryLimit
                 * @memberof platform.agent.v1.InstanceUsage
                 * @instance
                 */
                InstanceUsage.prototype.memoryLimit = 0;

                /**
                 * InstanceUsage diskUsed.
                 * @member {number} diskUsed
                 * @memberof platform.agent.v1.InstanceUsage
                 * @instance
                 */
                InstanceUsage.prototype.diskUsed = 0;

                /**
                 * InstanceUsage diskLimit.
                 * @member {number} diskLimit
                 * @memberof platform.agent.v1.InstanceUsage
                 * @instance
                 */
                InstanceUsage.prototype.diskLimit = 0;

                /**
                 * InstanceUsage networkRx.
                 * @member {number} networkRx
                 * @memberof platform.agent.v1.InstanceUsage
                 * @instance
                 */
                InstanceUsage.prototype.networkRx = 0;

                /**
                 * InstanceUsage networkTx.
                 * @member {number} networkTx
                 * @memberof platform.agent.v1.InstanceUsage
                 * @instance
                 */
                InstanceUsage.prototype.networkTx = 0;

                /**
                 * InstanceUsage networkMeasured.
                 * @member {boolean} networkMeasured
                 * @memberof platform.agent.v1.InstanceUsage
                 * @instance
                 */
                InstanceUsage.prototype.networkMeasured = false;

                /**
                 * InstanceUsage bandwidthLimit.
                 * @member {number} bandwidthLimit
                 * @memberof platform.agent.v1.InstanceUsage
                 * @instance
                 */
                InstanceUsage.prototype.bandwidthLimit = 0;

                /**
                 * Creates a new InstanceUsage instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.InstanceUsage
                 * @static
                 * @param {platform.agent.v1.InstanceUsage.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.InstanceUsage} InstanceUsage instance
                 * @type {{
                 *   (properties: platform.agent.v1.InstanceUsage.$Shape): platform.agent.v1.InstanceUsage & platform.agent.v1.InstanceUsage.$Shape;
                 *   (properties?: platform.agent.v1.InstanceUsage.$Properties): platform.agent.v1.InstanceUsage;
                 * }}
                 */
                InstanceUsage.create = function(properties) {
                    return new InstanceUsage(properties);
                };

                /**
                 * Encodes the specified InstanceUsage message. Does not implicitly {@link platform.agent.v1.InstanceUsage.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.InstanceUsage
                 * @static
                 * @param {platform.agent.v1.InstanceUsage.$Properties} m InstanceUsage message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                InstanceUsage.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.instanceUuid != null && $Object.hasOwnProperty.call(m, "instanceUuid") && m.instanceUuid !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.instanceUuid);
                    if (m.jobUuid != null && $Object.hasOwnProperty.call(m, "jobUuid") && m.jobUuid !== "")
                        w.uint32(/* id 2, wireType 2 =*/18).string(m.jobUuid);
                    if (m.cpuNs != null && $Object.hasOwnProperty.call(m, "cpuNs") && !$Object.is(m.cpuNs, 0))
                        w.uint32(/* id 3, wireType 1 =*/25).double(m.cpuNs);
                    if (m.memoryUsed != null && $Object.hasOwnProperty.call(m, "memoryUsed") && !$Object.is(m.memoryUsed, 0))
                        w.uint32(/* id 4, wireType 1 =*/33).double(m.memoryUsed);
                    if (m.memoryLimit != null && $Object.hasOwnProperty.call(m, "memoryLimit") && !$Object.is(m.memoryLimit, 0))
                        w.uint32(/* id 5, wireType 1 =*/41).double(m.memoryLimit);
                    if (m.diskUsed != null && $Object.hasOwnProperty.call(m, "diskUsed") && !$Object.is(m.diskUsed, 0))
                        w.uint32(/* id 6, wireType 1 =*/49).double(m.diskUsed);
                    if (m.diskLimit != null && $Object.hasOwnProperty.call(m, "diskLimit") && !$Object.is(m.diskLimit, 0))
                        w.uint32(/* id 7, wireType 1 =*/57).double(m.diskLimit);
                    if (m.networkRx != null && $Object.hasOwnProperty.call(m, "networkRx") && !$Object.is(m.networkRx, 0))
                        w.uint32(/* id 8, wireType 1 =*/65).double(m.networkRx);
                    if (m.networkTx != null && $Object.hasOwnProperty.call(m, "networkTx") && !$Object.is(m.networkTx, 0))
                        w.uint32(/* id 9, wireType 1 =*/73).double(m.networkTx);
                    if (m.networkMeasured != null && $Object.hasOwnProperty.call(m, "networkMeasured") && m.networkMeasured !== false)
                        w.uint32(/* id 10, wireType 0 =*/80).bool(m.networkMeasured);
                    if (m.bandwidthLimit != null && $Object.hasOwnProperty.call(m, "bandwidthLimit") && !$Object.is(m.bandwidthLimit, 0))
                        w.uint32(/* id 11, wireType 1 =*/89).double(m.bandwidthLimit);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes an InstanceUsage message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.InstanceUsage
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.InstanceUsage & platform.agent.v1.InstanceUsage.$Shape} InstanceUsage
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                InstanceUsage.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.InstanceUsage();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.instanceUuid = v;
                                else
                                    delete m.instanceUuid;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.jobUuid = v;
                                else
                                    delete m.jobUuid;
                                continue;
                            }
                        case 3: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.cpuNs = v;
                                else
                                    delete m.cpuNs;
                                continue;
                            }
                        case 4: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.memoryUsed = v;
                                else
                                    delete m.memoryUsed;
                                continue;
                            }
                        case 5: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.memoryLimit = v;
                                else
                                    delete m.memoryLimit;
                                continue;
                            }
                        case 6: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.diskUsed = v;
                                else
                                    delete m.diskUsed;
                                continue;
                            }
                        case 7: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.diskLimit = v;
                                else
                                    delete m.diskLimit;
                                continue;
                            }
                        case 8: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.networkRx = v;
                                else
                                    delete m.networkRx;
                                continue;
                            }
                        case 9: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.networkTx = v;
                                else
                                    delete m.networkTx;
                                continue;
                            }
                        case 10: {
                                if (u !== 0)
                                    break;
                                if (v = r.bool())
                                    m.networkMeasured = v;
                                else
                                    delete m.networkMeasured;
                                continue;
                            }
                        case 11: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.bandwidthLimit = v;
                                else
                                    delete m.bandwidthLimit;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates an InstanceUsage message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.InstanceUsage
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.InstanceUsage} InstanceUsage
                 */
                InstanceUsage.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.InstanceUsage)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.InstanceUsage: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.InstanceUsage();
                    if (d.instanceUuid != null) {
                        if (typeof d.instanceUuid !== "string" || d.instanceUuid.length) {
                            m.instanceUuid = $String(d.instanceUuid);
                        }
                    }
                    if (d.jobUuid != null) {
                        if (typeof d.jobUuid !== "string" || d.jobUuid.length) {
                            m.jobUuid = $String(d.jobUuid);
                        }
                    }
                    if (d.cpuNs != null) {
                        if (!$Object.is($Number(d.cpuNs), 0)) {
                            m.cpuNs = $Number(d.cpuNs);
                        }
                    }
                    if (d.memoryUsed != null) {
                        if (!$Object.is($Number(d.memoryUsed), 0)) {
                            m.memoryUsed = $Number(d.memoryUsed);
                        }
                    }
                    if (d.memoryLimit != null) {
                        if (!$Object.is($Number(d.memoryLimit), 0)) {
                            m.memoryLimit = $Number(d.memoryLimit);
                        }
                    }
                    if (d.diskUsed != null) {
                        if (!$Object.is($Number(d.diskUsed), 0)) {
                            m.diskUsed = $Number(d.diskUsed);
                        }
                    }
                    if (d.diskLimit != null) {
                        if (!$Object.is($Number(d.diskLimit), 0)) {
                            m.diskLimit = $Number(d.diskLimit);
                        }
                    }
                    if (d.networkRx != null) {
                        if (!$Object.is($Number(d.networkRx), 0)) {
                            m.networkRx = $Number(d.networkRx);
                        }
                    }
                    if (d.networkTx != null) {
                        if (!$Object.is($Number(d.networkTx), 0)) {
                            m.networkTx = $Number(d.networkTx);
                        }
                    }
                    if (d.networkMeasured != null) {
                        if (d.networkMeasured) {
                            m.networkMeasured = $Boolean(d.networkMeasured);
                        }
                    }
                    if (d.bandwidthLimit != null) {
                        if (!$Object.is($Number(d.bandwidthLimit), 0)) {
                            m.bandwidthLimit = $Number(d.bandwidthLimit);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from an InstanceUsage message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.InstanceUsage
                 * @static
                 * @param {platform.agent.v1.InstanceUsage} m InstanceUsage
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                InstanceUsage.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.instanceUuid = "";
                        d.jobUuid = "";
                        d.cpuNs = 0;
                        d.memoryUsed = 0;
                        d.memoryLimit = 0;
                        d.diskUsed = 0;
                        d.diskLimit = 0;
                        d.networkRx = 0;
                        d.networkTx = 0;
                        d.networkMeasured = false;
                        d.bandwidthLimit = 0;
                    }
                    if (m.instanceUuid != null && $Object.hasOwnProperty.call(m, "instanceUuid")) {
                        d.instanceUuid = m.instanceUuid;
                    }
                    if (m.jobUuid != null && $Object.hasOwnProperty.call(m, "jobUuid")) {
                        d.jobUuid = m.jobUuid;
                    }
                    if (m.cpuNs != null && $Object.hasOwnProperty.call(m, "cpuNs")) {
                        d.cpuNs = o.json && !$isFinite(m.cpuNs) ? $String(m.cpuNs) : m.cpuNs;
                    }
                    if (m.memoryUsed != null && $Object.hasOwnProperty.call(m, "memoryUsed")) {
                        d.memoryUsed = o.json && !$isFinite(m.memoryUsed) ? $String(m.memoryUsed) : m.memoryUsed;
                    }
                    if (m.memoryLimit != null && $Object.hasOwnProperty.call(m, "memoryLimit")) {
                        d.memoryLimit = o.json && !$isFinite(m.memoryLimit) ? $String(m.memoryLimit) : m.memoryLimit;
                    }
                    if (m.diskUsed != null && $Object.hasOwnProperty.call(m, "diskUsed")) {
                        d.diskUsed = o.json && !$isFinite(m.diskUsed) ? $String(m.diskUsed) : m.diskUsed;
                    }
                    if (m.diskLimit != null && $Object.hasOwnProperty.call(m, "diskLimit")) {
                        d.diskLimit = o.json && !$isFinite(m.diskLimit) ? $String(m.diskLimit) : m.diskLimit;
                    }
                    if (m.networkRx != null && $Object.hasOwnProperty.call(m, "networkRx")) {
                        d.networkRx = o.json && !$isFinite(m.networkRx) ? $String(m.networkRx) : m.networkRx;
                    }
                    if (m.networkTx != null && $Object.hasOwnProperty.call(m, "networkTx")) {
                        d.networkTx = o.json && !$isFinite(m.networkTx) ? $String(m.networkTx) : m.networkTx;
                    }
                    if (m.networkMeasured != null && $Object.hasOwnProperty.call(m, "networkMeasured")) {
                        d.networkMeasured = m.networkMeasured;
                    }
                    if (m.bandwidthLimit != null && $Object.hasOwnProperty.call(m, "bandwidthLimit")) {
                        d.bandwidthLimit = o.json && !$isFinite(m.bandwidthLimit) ? $String(m.bandwidthLimit) : m.bandwidthLimit;
                    }
                    return d;
                };

                /**
                 * Converts this InstanceUsage to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.InstanceUsage
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                InstanceUsage.prototype.toJSON = function() {
                    return InstanceUsage.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for InstanceUsage
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.InstanceUsage
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                InstanceUsage.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.InstanceUsage";
                };

                return InstanceUsage;
            })();

            v1.HostUsage = (function() {

                /**
                 * Properties of a HostUsage.
                 * @typedef {Object} platform.agent.v1.HostUsage.$Properties
                 * @property {number|null} [cpuNs] HostUsage cpuNs
                 * @property {number|null} [cpuTotal] HostUsage cpuTotal
                 * @property {number|null} [memoryUsed] HostUsage memoryUsed
                 * @property {number|null} [memoryTotal] HostUsage memoryTotal
                 * @property {number|null} [diskUsed] HostUsage diskUsed
                 * @property {number|null} [diskTotal] HostUsage diskTotal
                 * @property {number|null} [networkRx] HostUsage networkRx
                 * @property {number|null} [networkTx] HostUsage networkTx
                 * @property {number|null} [bandwidthTotal] HostUsage bandwidthTotal
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a HostUsage.
                 * @memberof platform.agent.v1
                 * @interface IHostUsage
                 * @augments platform.agent.v1.HostUsage.$Properties
                 * @deprecated Use platform.agent.v1.HostUsage.$Properties instead.
                 */

                /**
                 * Shape of a HostUsage.
                 * @typedef {platform.agent.v1.HostUsage.$Properties} platform.agent.v1.HostUsage.$Shape
                 */

                /**
                 * Constructs a new HostUsage.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a HostUsage.
                 * @constructor
                 * @param {platform.agent.v1.HostUsage.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const HostUsage = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * HostUsage cpuNs.
                 * @member {number} cpuNs
                 * @memberof platform.agent.v1.HostUsage
                 * @instance
                 */
                HostUsage.prototype.cpuNs = 0;

                /**
                 * HostUsage cpuTotal.
                 * @member {number} cpuTotal
                 * @memberof platform.agent.v1.HostUsage
                 * @instance
                 */
                HostUsage.prototype.cpuTotal = 0;

                /**
                 * HostUsage memoryUsed.
                 * @member {number} memoryUsed
                 * @memberof platform.agent.v1.HostUsage
                 * @instance
                 */
                HostUsage.prototype.memoryUsed = 0;

                /**
                 * HostUsage memoryTotal.
                 * @member {number} memoryTotal
                 * @memberof platform.agent.v1.HostUsage
                 * @instance
                 */
                HostUsage.prototype.memoryTotal = 0;

                /**
                 * HostUsage diskUsed.
                 * @member {number} diskUsed
                 * @memberof platform.agent.v1.HostUsage
                 * @instance
                 */
                HostUsage.prototype.diskUsed = 0;

                /**
                 * HostUsage diskTotal.
                 * @member {number} diskTotal
                 * @memberof platform.agent.v1.HostUsage
                 * @instance
                 */
                HostUsage.prototype.diskTotal = 0;

                /**
                 * HostUsage networkRx.
                 * @member {number} networkRx
                 * @memberof platform.agent.v1.HostUsage
                 * @instance
                 */
                HostUsage.prototype.networkRx = 0;

                /**
                 * HostUsage networkTx.
                 * @member {number} networkTx
                 * @memberof platform.agent.v1.HostUsage
                 * @instance
                 */
                HostUsage.prototype.networkTx = 0;

                /**
                 * HostUsage bandwidthTotal.
                 * @member {number} bandwidthTotal
                 * @memberof platform.agent.v1.HostUsage
                 * @instance
                 */
                HostUsage.prototype.bandwidthTotal = 0;

                /**
                 * Creates a new HostUsage instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.HostUsage
                 * @static
                 * @param {platform.agent.v1.HostUsage.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.HostUsage} HostUsage instance
                 * @type {{
                 *   (properties: platform.agent.v1.HostUsage.$Shape): platform.agent.v1.HostUsage & platform.agent.v1.HostUsage.$Shape;
                 *   (properties?: platform.agent.v1.HostUsage.$Properties): platform.agent.v1.HostUsage;
                 * }}
                 */
                HostUsage.create = function(properties) {
                    return new HostUsage(properties);
                };

                /**
                 * Encodes the specified HostUsage message. Does not implicitly {@link platform.agent.v1.HostUsage.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.HostUsage
                 * @static
                 * @param {platform.agent.v1.HostUsage.$Properties} m HostUsage message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                HostUsage.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.cpuNs != null && $Object.hasOwnProperty.call(m, "cpuNs") && !$Object.is(m.cpuNs, 0))
                        w.uint32(/* id 1, wireType 1 =*/9).double(m.cpuNs);
                    if (m.cpuTotal != null && $Object.hasOwnProperty.call(m, "cpuTotal") && !$Object.is(m.cpuTotal, 0))
                        w.uint32(/* id 2, wireType 1 =*/17).double(m.cpuTotal);
                    if (m.memoryUsed != null && $Object.hasOwnProperty.call(m, "memoryUsed") && !$Object.is(m.memoryUsed, 0))
                        w.uint32(/* id 3, wireType 1 =*/25).double(m.memoryUsed);
                    if (m.memoryTotal != null && $Object.hasOwnProperty.call(m, "memoryTotal") && !$Object.is(m.memoryTotal, 0))
                        w.uint32(/* id 4, wireType 1 =*/33).double(m.memoryTotal);
                    if (m.diskUsed != null && $Object.hasOwnProperty.call(m, "diskUsed") && !$Object.is(m.diskUsed, 0))
                        w.uint32(/* id 5, wireType 1 =*/41).double(m.diskUsed);
                    if (m.diskTotal != null && $Object.hasOwnProperty.call(m, "diskTotal") && !$Object.is(m.diskTotal, 0))
                        w.uint32(/* id 6, wireType 1 =*/49).double(m.diskTotal);
                    if (m.networkRx != null && $Object.hasOwnProperty.call(m, "networkRx") && !$Object.is(m.networkRx, 0))
                        w.uint32(/* id 7, wireType 1 =*/57).double(m.networkRx);
                    if (m.networkTx != null && $Object.hasOwnProperty.call(m, "networkTx") && !$Object.is(m.networkTx, 0))
                        w.uint32(/* id 8, wireType 1 =*/65).double(m.networkTx);
                    if (m.bandwidthTotal != null && $Object.hasOwnProperty.call(m, "bandwidthTotal") && !$Object.is(m.bandwidthTotal, 0))
                        w.uint32(/* id 9, wireType 1 =*/73).double(m.bandwidthTotal);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a HostUsage message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.HostUsage
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.HostUsage & platform.agent.v1.HostUsage.$Shape} HostUsage
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                HostUsage.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.HostUsage();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.cpuNs = v;
                                else
                                    delete m.cpuNs;
                                continue;
                            }
                        case 2: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.cpuTotal = v;
                                else
                                    delete m.cpuTotal;
                                continue;
                            }
                        case 3: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.memoryUsed = v;
                                else
                                    delete m.memoryUsed;
                                continue;
                            }
                        case 4: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.memoryTotal = v;
                                else
                                    delete m.memoryTotal;
                                continue;
                            }
                        case 5: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.diskUsed = v;
                                else
                                    delete m.diskUsed;
                                continue;
                            }
                        case 6: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.diskTotal = v;
                                else
                                    delete m.diskTotal;
                                continue;
                            }
                        case 7: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.networkRx = v;
                                else
                                    delete m.networkRx;
                                continue;
                            }
                        case 8: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.networkTx = v;
                                else
                                    delete m.networkTx;
                                continue;
                            }
                        case 9: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.bandwidthTotal = v;
                                else
                                    delete m.bandwidthTotal;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a HostUsage message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.HostUsage
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.HostUsage} HostUsage
                 */
                HostUsage.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.HostUsage)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.HostUsage: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.HostUsage();
                    if (d.cpuNs != null) {
                        if (!$Object.is($Number(d.cpuNs), 0)) {
                            m.cpuNs = $Number(d.cpuNs);
                        }
                    }
                    if (d.cpuTotal != null) {
                        if (!$Object.is($Number(d.cpuTotal), 0)) {
                            m.cpuTotal = $Number(d.cpuTotal);
                        }
                    }
                    if (d.memoryUsed != null) {
                        if (!$Object.is($Number(d.memoryUsed), 0)) {
                            m.memoryUsed = $Number(d.memoryUsed);
                        }
                    }
                    if (d.memoryTotal != null) {
                        if (!$Object.is($Number(d.memoryTotal), 0)) {
                            m.memoryTotal = $Number(d.memoryTotal);
                        }
                    }
                    if (d.diskUsed != null) {
                        if (!$Object.is($Number(d.diskUsed), 0)) {
                            m.diskUsed = $Number(d.diskUsed);
                        }
                    }
                    if (d.diskTotal != null) {
                        if (!$Object.is($Number(d.diskTotal), 0)) {
                            m.diskTotal = $Number(d.diskTotal);
                        }
                    }
                    if (d.networkRx != null) {
                        if (!$Object.is($Number(d.networkRx), 0)) {
                            m.networkRx = $Number(d.networkRx);
                        }
                    }
                    if (d.networkTx != null) {
                        if (!$Object.is($Number(d.networkTx), 0)) {
                            m.networkTx = $Number(d.networkTx);
                        }
                    }
                    if (d.bandwidthTotal != null) {
                        if (!$Object.is($Number(d.bandwidthTotal), 0)) {
                            m.bandwidthTotal = $Number(d.bandwidthTotal);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a HostUsage message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.HostUsage
                 * @static
                 * @param {platform.agent.v1.HostUsage} m HostUsage
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                HostUsage.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.cpuNs = 0;
                        d.cpuTotal = 0;
                        d.memoryUsed = 0;
                        d.memoryTotal = 0;
                        d.diskUsed = 0;
                        d.diskTotal = 0;
                        d.networkRx = 0;
                        d.networkTx = 0;
                        d.bandwidthTotal = 0;
                    }
                    if (m.cpuNs != null && $Object.hasOwnProperty.call(m, "cpuNs")) {
                        d.cpuNs = o.json && !$isFinite(m.cpuNs) ? $String(m.cpuNs) : m.cpuNs;
                    }
                    if (m.cpuTotal != null && $Object.hasOwnProperty.call(m, "cpuTotal")) {
                        d.cpuTotal = o.json && !$isFinite(m.cpuTotal) ? $String(m.cpuTotal) : m.cpuTotal;
                    }
                    if (m.memoryUsed != null && $Object.hasOwnProperty.call(m, "memoryUsed")) {
                        d.memoryUsed = o.json && !$isFinite(m.memoryUsed) ? $String(m.memoryUsed) : m.memoryUsed;
                    }
                    if (m.memoryTotal != null && $Object.hasOwnProperty.call(m, "memoryTotal")) {
                        d.memoryTotal = o.json && !$isFinite(m.memoryTotal) ? $String(m.memoryTotal) : m.memoryTotal;
                    }
                    if (m.diskUsed != null && $Object.hasOwnProperty.call(m, "diskUsed")) {
                        d.diskUsed = o.json && !$isFinite(m.diskUsed) ? $String(m.diskUsed) : m.diskUsed;
                    }
                    if (m.diskTotal != null && $Object.hasOwnProperty.call(m, "diskTotal")) {
                        d.diskTotal = o.json && !$isFinite(m.diskTotal) ? $String(m.diskTotal) : m.diskTotal;
                    }
                    if (m.networkRx != null && $Object.hasOwnProperty.call(m, "networkRx")) {
                        d.networkRx = o.json && !$isFinite(m.networkRx) ? $String(m.networkRx) : m.networkRx;
                    }
                    if (m.networkTx != null && $Object.hasOwnProperty.call(m, "networkTx")) {
                        d.networkTx = o.json && !$isFinite(m.networkTx) ? $String(m.networkTx) : m.networkTx;
                    }
                    if (m.bandwidthTotal != null && $Object.hasOwnProperty.call(m, "bandwidthTotal")) {
                        d.bandwidthTotal = o.json && !$isFinite(m.bandwidthTotal) ? $String(m.bandwidthTotal) : m.bandwidthTotal;
                    }
                    return d;
                };

                /**
                 * Converts this HostUsage to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.HostUsage
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                HostUsage.prototype.toJSON = function() {
                    return HostUsage.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for HostUsage
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.HostUsage
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                HostUsage.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.HostUsage";
                };

                return HostUsage;
            })();

            v1.LogBatch = (function() {

                /**
                 * Properties of a LogBatch.
                 * @typedef {Object} platform.agent.v1.LogBatch.$Properties
                 * @property {Array.<platform.agent.v1.LogLine.$Properties>|null} [lines] LogBatch lines
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a LogBatch.
                 * @memberof platform.agent.v1
                 * @interface ILogBatch
                 * @augments platform.agent.v1.LogBatch.$Properties
                 * @deprecated Use platform.agent.v1.LogBatch.$Properties instead.
                 */

                /**
                 * Shape of a LogBatch.
                 * @typedef {platform.agent.v1.LogBatch.$Properties} platform.agent.v1.LogBatch.$Shape
                 */

                /**
                 * Constructs a new LogBatch.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a LogBatch.
                 * @constructor
                 * @param {platform.agent.v1.LogBatch.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const LogBatch = function (p) {
                    this.lines = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * LogBatch lines.
                 * @member {Array.<platform.agent.v1.LogLine.$Properties>} lines
                 * @memberof platform.agent.v1.LogBatch
                 * @instance
                 */
                LogBatch.prototype.lines = $util.emptyArray;

                /**
                 * Creates a new LogBatch instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.LogBatch
                 * @static
                 * @param {platform.agent.v1.LogBatch.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.LogBatch} LogBatch instance
                 * @type {{
                 *   (properties: platform.agent.v1.LogBatch.$Shape): platform.agent.v1.LogBatch & platform.agent.v1.LogBatch.$Shape;
                 *   (properties?: platform.agent.v1.LogBatch.$Properties): platform.agent.v1.LogBatch;
                 * }}
                 */
                LogBatch.create = function(properties) {
                    return new LogBatch(properties);
                };

                /**
                 * Encodes the specified LogBatch message. Does not implicitly {@link platform.agent.v1.LogBatch.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.LogBatch
                 * @static
                 * @param {platform.agent.v1.LogBatch.$Properties} m LogBatch message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                LogBatch.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.lines != null && m.lines.length) {
                        for (var i = 0; i < m.lines.length; ++i)
                            $root.platform.agent.v1.LogLine.encode(m.lines[i], w.uint32(/* id 1, wireType 2 =*/10).fork(), q + 1).ldelim();
                    }
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a LogBatch message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.LogBatch
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.LogBatch & platform.agent.v1.LogBatch.$Shape} LogBatch
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                LogBatch.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.LogBatch();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if (!(m.lines && m.lines.length))
                                    m.lines = [];
                                m.lines.push($root.platform.agent.v1.LogLine.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a LogBatch message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.LogBatch
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.LogBatch} LogBatch
                 */
                LogBatch.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.LogBatch)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.LogBatch: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.LogBatch();
                    if (d.lines) {
                        if (!$Array.isArray(d.lines))
                            throw $TypeError(".platform.agent.v1.LogBatch.lines: array expected");
                        m.lines = $Array(d.lines.length);
                        for (var i = 0; i < d.lines.length; ++i) {
                            if (!$util.isObject(d.lines[i]))
                                throw $TypeError(".platform.agent.v1.LogBatch.lines: object expected");
                            m.lines[i] = $root.platform.agent.v1.LogLine.fromObject(d.lines[i], q + 1);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a LogBatch message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.LogBatch
                 * @static
                 * @param {platform.agent.v1.LogBatch} m LogBatch
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                LogBatch.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.lines = [];
                    }
                    if (m.lines && m.lines.length) {
                        d.lines = $Array(m.lines.length);
                        for (var j = 0; j < m.lines.length; ++j) {
                            d.lines[j] = $root.platform.agent.v1.LogLine.toObject(m.lines[j], o, q + 1);
                        }
                    }
                    return d;
                };

                /**
                 * Converts this LogBatch to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.LogBatch
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                LogBatch.prototype.toJSON = function() {
                    return LogBatch.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for LogBatch
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.LogBatch
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                LogBatch.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.LogBatch";
                };

                return LogBatch;
            })();

            v1.LogLine = (function() {

                /**
                 * Properties of a LogLine.
                 * @typedef {Object} platform.agent.v1.LogLine.$Properties
                 * @property {string|null} [instanceUuid] LogLine instanceUuid
                 * @property {string|null} [jobUuid] LogLine jobUuid
                 * @property {string|null} [stream] LogLine stream
                 * @property {string|null} [text] LogLine text
                 * @property {number|null} [timeMs] LogLine timeMs
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a LogLine.
                 * @memberof platform.agent.v1
                 * @interface ILogLine
                 * @augments platform.agent.v1.LogLine.$Properties
                 * @deprecated Use platform.agent.v1.LogLine.$Properties instead.
                 */

                /**
                 * Shape of a LogLine.
                 * @typedef {platform.agent.v1.LogLine.$Properties} platform.agent.v1.LogLine.$Shape
                 */

                /**
                 * Constructs a new LogLine.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a LogLine.
                 * @constructor
                 * @param {platform.agent.v1.LogLine.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const LogLine = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * LogLine instanceUuid.
                 * @member {string} instanceUuid
                 * @memberof platform.agent.v1.LogLine
                 * @instance
                 */
                LogLine.prototype.instanceUuid = "";

                /**
                 * LogLine jobUuid.
                 * @member {string} jobUuid
                 * @memberof platform.agent.v1.LogLine
                 * @instance
                 */
                LogLine.prototype.jobUuid = "";

                /**
                 * LogLine stream.
                 * @member {string} stream
                 * @memberof platform.agent.v1.LogLine
                 * @instance
                 */
                LogLine.prototype.stream = "";

                /**
                 * LogLine text.
                 * @member {string} text
                 * @memberof platform.agent.v1.LogLine
                 * @instance
                 */
                LogLine.prototype.text = "";

                /**
                 * LogLine timeMs.
                 * @member {number} timeMs
                 * @memberof platform.agent.v1.LogLine
                 * @instance
                 */
                LogLine.prototype.timeMs = 0;

                /**
                 * Creates a new LogLine instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.LogLine
                 * @static
                 * @param {platform.agent.v1.LogLine.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.LogLine} LogLine instance
                 * @type {{
                 *   (properties: platform.agent.v1.LogLine.$Shape): platform.agent.v1.LogLine & platform.agent.v1.LogLine.$Shape;
                 *   (properties?: platform.agent.v1.LogLine.$Properties): platform.agent.v1.LogLine;
                 * }}
                 */
                LogLine.create = function(properties) {
                    return new LogLine(properties);
                };

                /**
                 * Encodes the specified LogLine message. Does not implicitly {@link platform.agent.v1.LogLine.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.LogLine
                 * @static
                 * @param {platform.agent.v1.LogLine.$Properties} m LogLine message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                LogLine.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.instanceUuid != null && $Object.hasOwnProperty.call(m, "instanceUuid") && m.instanceUuid !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.instanceUuid);
                    if (m.jobUuid != null && $Object.hasOwnProperty.call(m, "jobUuid") && m.jobUuid !== "")
                        w.uint32(/* id 2, wireType 2 =*/18).string(m.jobUuid);
                    if (m.stream != null && $Object.hasOwnProperty.call(m, "stream") && m.stream !== "")
                        w.uint32(/* id 3, wireType 2 =*/26).string(m.stream);
                    if (m.text != null && $Object.hasOwnProperty.call(m, "text") && m.text !== "")
                        w.uint32(/* id 4, wireType 2 =*/34).string(m.text);
                    if (m.timeMs != null && $Object.hasOwnProperty.call(m, "timeMs") && !$Object.is(m.timeMs, 0))
                        w.uint32(/* id 5, wireType 1 =*/41).double(m.timeMs);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a LogLine message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.LogLine
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.LogLine & platform.agent.v1.LogLine.$Shape} LogLine
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                LogLine.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.LogLine();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.instanceUuid = v;
                                else
                                    delete m.instanceUuid;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.jobUuid = v;
                                else
                                    delete m.jobUuid;
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.stream = v;
                                else
                                    delete m.stream;
                                continue;
                            }
                        case 4: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.text = v;
                                else
                                    delete m.text;
                                continue;
                            }
                        case 5: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.timeMs = v;
                                else
                                    delete m.timeMs;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a LogLine message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.LogLine
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.LogLine} LogLine
                 */
                LogLine.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.LogLine)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.LogLine: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.LogLine();
                    if (d.instanceUuid != null) {
                        if (typeof d.instanceUuid !== "string" || d.instanceUuid.length) {
                            m.instanceUuid = $String(d.instanceUuid);
                        }
                    }
                    if (d.jobUuid != null) {
                        if (typeof d.jobUuid !== "string" || d.jobUuid.length) {
                            m.jobUuid = $String(d.jobUuid);
                        }
                    }
                    if (d.stream != null) {
                        if (typeof d.stream !== "string" || d.stream.length) {
                            m.stream = $String(d.stream);
                        }
                    }
                    if (d.text != null) {
                        if (typeof d.text !== "string" || d.text.length) {
                            m.text = $String(d.text);
                        }
                    }
                    if (d.timeMs != null) {
                        if (!$Object.is($Number(d.timeMs), 0)) {
                            m.timeMs = $Number(d.timeMs);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a LogLine message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.LogLine
                 * @static
                 * @param {platform.agent.v1.LogLine} m LogLine
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                LogLine.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.instanceUuid = "";
                        d.jobUuid = "";
                        d.stream = "";
                        d.text = "";
                        d.timeMs = 0;
                    }
                    if (m.instanceUuid != null && $Object.hasOwnProperty.call(m, "instanceUuid")) {
                        d.instanceUuid = m.instanceUuid;
                    }
                    if (m.jobUuid != null && $Object.hasOwnProperty.call(m, "jobUuid")) {
                        d.jobUuid = m.jobUuid;
                    }
                    if (m.stream != null && $Object.hasOwnProperty.call(m, "stream")) {
                        d.stream = m.stream;
                    }
                    if (m.text != null && $Object.hasOwnProperty.call(m, "text")) {
                        d.text = m.text;
                    }
                    if (m.timeMs != null && $Object.hasOwnProperty.call(m, "timeMs")) {
                        d.timeMs = o.json && !$isFinite(m.timeMs) ? $String(m.timeMs) : m.timeMs;
                    }
                    return d;
                };

                /**
                 * Converts this LogLine to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.LogLine
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                LogLine.prototype.toJSON = function() {
                    return LogLine.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for LogLine
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.LogLine
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                LogLine.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.LogLine";
                };

                return LogLine;
            })();

            v1.LogsFlushed = (function() {

                /**
                 * Properties of a LogsFlushed.
                 * @typedef {Object} platform.agent.v1.LogsFlushed.$Properties
                 * @property {string|null} [requestId] LogsFlushed requestId
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a LogsFlushed.
                 * @memberof platform.agent.v1
                 * @interface ILogsFlushed
                 * @augments platform.agent.v1.LogsFlushed.$Properties
                 * @deprecated Use platform.agent.v1.LogsFlushed.$Properties instead.
                 */

                /**
                 * Shape of a LogsFlushed.
                 * @typedef {platform.agent.v1.LogsFlushed.$Properties} platform.agent.v1.LogsFlushed.$Shape
                 */

                /**
                 * Constructs a new LogsFlushed.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a LogsFlushed.
                 * @constructor
                 * @param {platform.agent.v1.LogsFlushed.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const LogsFlushed = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * LogsFlushed requestId.
                 * @member {string} requestId
                 * @memberof platform.agent.v1.LogsFlushed
                 * @instance
                 */
                LogsFlushed.prototype.requestId = "";

                /**
                 * Creates a new LogsFlushed instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.LogsFlushed
                 * @static
                 * @param {platform.agent.v1.LogsFlushed.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.LogsFlushed} LogsFlushed instance
                 * @type {{
                 *   (properties: platform.agent.v1.LogsFlushed.$Shape): platform.agent.v1.LogsFlushed & platform.agent.v1.LogsFlushed.$Shape;
                 *   (properties?: platform.agent.v1.LogsFlushed.$Properties): platform.agent.v1.LogsFlushed;
                 * }}
                 */
                LogsFlushed.create = function(properties) {
                    return new LogsFlushed(properties);
                };

                /**
                 * Encodes the specified LogsFlushed message. Does not implicitly {@link platform.agent.v1.LogsFlushed.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.LogsFlushed
                 * @static
                 * @param {platform.agent.v1.LogsFlushed.$Properties} m LogsFlushed message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                LogsFlushed.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.requestId != null && $Object.hasOwnProperty.call(m, "requestId") && m.requestId !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.requestId);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a LogsFlushed message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.LogsFlushed
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.LogsFlushed & platform.agent.v1.LogsFlushed.$Shape} LogsFlushed
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                LogsFlushed.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.LogsFlushed();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.requestId = v;
                                else
                                    delete m.requestId;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a LogsFlushed message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.LogsFlushed
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.LogsFlushed} LogsFlushed
                 */
                LogsFlushed.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.LogsFlushed)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.LogsFlushed: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.LogsFlushed();
                    if (d.requestId != null) {
                        if (typeof d.requestId !== "string" || d.requestId.length) {
                            m.requestId = $String(d.requestId);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a LogsFlushed message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.LogsFlushed
                 * @static
                 * @param {platform.agent.v1.LogsFlushed} m LogsFlushed
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                LogsFlushed.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.requestId = "";
                    }
                    if (m.requestId != null && $Object.hasOwnProperty.call(m, "requestId")) {
                        d.requestId = m.requestId;
                    }
                    return d;
                };

                /**
                 * Converts this LogsFlushed to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.LogsFlushed
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                LogsFlushed.prototype.toJSON = function() {
                    return LogsFlushed.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for LogsFlushed
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.LogsFlushed
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                LogsFlushed.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.LogsFlushed";
                };

                return LogsFlushed;
            })();

            v1.FilesReply = (function() {

                /**
                 * Properties of a FilesReply.
                 * @typedef {Object} platform.agent.v1.FilesReply.$Properties
                 * @property {string|null} [requestId] FilesReply requestId
                 * @property {Array.<platform.agent.v1.FileEntry.$Properties>|null} [entries] FilesReply entries
                 * @property {string|null} [error] FilesReply error
                 * @property {string|null} [errorKind] FilesReply errorKind
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a FilesReply.
                 * @memberof platform.agent.v1
                 * @interface IFilesReply
                 * @augments platform.agent.v1.FilesReply.$Properties
                 * @deprecated Use platform.agent.v1.FilesReply.$Properties instead.
                 */

                /**
                 * Shape of a FilesReply.
                 * @typedef {platform.agent.v1.FilesReply.$Properties} platform.agent.v1.FilesReply.$Shape
                 */

                /**
                 * Constructs a new FilesReply.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a FilesReply.
                 * @constructor
                 * @param {platform.agent.v1.FilesReply.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const FilesReply = function (p) {
                    this.entries = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * FilesReply requestId.
                 * @member {string} requestId
                 * @memberof platform.agent.v1.FilesReply
                 * @instance
                 */
                FilesReply.prototype.requestId = "";

                /**
                 * FilesReply entries.
                 * @member {Array.<platform.agent.v1.FileEntry.$Properties>} entries
                 * @memberof platform.agent.v1.FilesReply
                 * @instance
                 */
                FilesReply.prototype.entries = $util.emptyArray;

                /**
                 * FilesReply error.
                 * @member {string} error
                 * @memberof platform.agent.v1.FilesReply
                 * @instance
                 */
                FilesReply.prototype.error = "";

                /**
                 * FilesReply errorKind.
                 * @member {string} errorKind
                 * @memberof platform.agent.v1.FilesReply
                 * @instance
                 */
                FilesReply.prototype.errorKind = "";

                /**
                 * Creates a new FilesReply instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.FilesReply
                 * @static
                 * @param {platform.agent.v1.FilesReply.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.FilesReply} FilesReply instance
                 * @type {{
                 *   (properties: platform.agent.v1.FilesReply.$Shape): platform.agent.v1.FilesReply & platform.agent.v1.FilesReply.$Shape;
                 *   (properties?: platform.agent.v1.FilesReply.$Properties): platform.agent.v1.FilesReply;
                 * }}
                 */
                FilesReply.create = function(properties) {
                    return new FilesReply(properties);
                };

                /**
                 * Encodes the specified FilesReply message. Does not implicitly {@link platform.agent.v1.FilesReply.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.FilesReply
                 * @static
                 * @param {platform.agent.v1.FilesReply.$Properties} m FilesReply message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                FilesReply.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.requestId != null && $Object.hasOwnProperty.call(m, "requestId") && m.requestId !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.requestId);
                    if (m.entries != null && m.entries.length) {
                        for (var i = 0; i < m.entries.length; ++i)
                            $root.platform.agent.v1.FileEntry.encode(m.entries[i], w.uint32(/* id 2, wireType 2 =*/18).fork(), q + 1).ldelim();
                    }
                    if (m.error != null && $Object.hasOwnProperty.call(m, "error") && m.error !== "")
                        w.uint32(/* id 3, wireType 2 =*/26).string(m.error);
                    if (m.errorKind != null && $Object.hasOwnProperty.call(m, "errorKind") && m.errorKind !== "")
                        w.uint32(/* id 4, wireType 2 =*/34).string(m.errorKind);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a FilesReply message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.FilesReply
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.FilesReply & platform.agent.v1.FilesReply.$Shape} FilesReply
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                FilesReply.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.FilesReply();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.requestId = v;
                                else
                                    delete m.requestId;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if (!(m.entries && m.entries.length))
                                    m.entries = [];
                                m.entries.push($root.platform.agent.v1.FileEntry.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.error = v;
                                else
                                    delete m.error;
                                continue;
                            }
                        case 4: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.errorKind = v;
                                else
                                    delete m.errorKind;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a FilesReply message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.FilesReply
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.FilesReply} FilesReply
                 */
                FilesReply.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.FilesReply)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.FilesReply: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.FilesReply();
                    if (d.requestId != null) {
                        if (typeof d.requestId !== "string" || d.requestId.length) {
                            m.requestId = $String(d.requestId);
                        }
                    }
                    if (d.entries) {
                        if (!$Array.isArray(d.entries))
                            throw $TypeError(".platform.agent.v1.FilesReply.entries: array expected");
                        m.entries = $Array(d.entries.length);
                        for (var i = 0; i < d.entries.length; ++i) {
                            if (!$util.isObject(d.entries[i]))
                                throw $TypeError(".platform.agent.v1.FilesReply.entries: object expected");
                            m.entries[i] = $root.platform.agent.v1.FileEntry.fromObject(d.entries[i], q + 1);
                        }
                    }
                    if (d.error != null) {
                        if (typeof d.error !== "string" || d.error.length) {
                            m.error = $String(d.error);
                        }
                    }
                    if (d.errorKind != null) {
                        if (typeof d.errorKind !== "string" || d.errorKind.length) {
                            m.errorKind = $String(d.errorKind);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a FilesReply message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.FilesReply
                 * @static
                 * @param {platform.agent.v1.FilesReply} m FilesReply
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                FilesReply.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.entries = [];
                    }
                    if (o.defaults) {
                        d.requestId = "";
                        d.error = "";
                        d.errorKind = "";
                    }
                    if (m.requestId != null && $Object.hasOwnProperty.call(m, "requestId")) {
                        d.requestId = m.requestId;
                    }
                    if (m.entries && m.entries.length) {
                        d.entries = $Array(m.entries.length);
                        for (var j = 0; j < m.entries.length; ++j) {
                            d.entries[j] = $root.platform.agent.v1.FileEntry.toObject(m.entries[j], o, q + 1);
                        }
                    }
                    if (m.error != null && $Object.hasOwnProperty.call(m, "error")) {
                        d.error = m.error;
                    }
                    if (m.errorKind != null && $Object.hasOwnProperty.call(m, "errorKind")) {
                        d.errorKind = m.errorKind;
                    }
                    return d;
                };

                /**
                 * Converts this FilesReply to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.FilesReply
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                FilesReply.prototype.toJSON = function() {
                    return FilesReply.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for FilesReply
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.FilesReply
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                FilesReply.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.FilesReply";
                };

                return FilesReply;
            })();

            v1.FileEntry = (function() {

                /**
                 * Properties of a FileEntry.
                 * @typedef {Object} platform.agent.v1.FileEntry.$Properties
                 * @property {string|null} [name] FileEntry name
                 * @property {number|null} [size] FileEntry size
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a FileEntry.
                 * @memberof platform.agent.v1
                 * @interface IFileEntry
                 * @augments platform.agent.v1.FileEntry.$Properties
                 * @deprecated Use platform.agent.v1.FileEntry.$Properties instead.
                 */

                /**
                 * Shape of a FileEntry.
                 * @typedef {platform.agent.v1.FileEntry.$Properties} platform.agent.v1.FileEntry.$Shape
                 */

                /**
                 * Constructs a new FileEntry.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a FileEntry.
                 * @constructor
                 * @param {platform.agent.v1.FileEntry.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const FileEntry = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * FileEntry name.
                 * @member {string} name
                 * @memberof platform.agent.v1.FileEntry
                 * @instance
                 */
                FileEntry.prototype.name = "";

                /**
                 * FileEntry size.
                 * @member {number} size
                 * @memberof platform.agent.v1.FileEntry
                 * @instance
                 */
                FileEntry.prototype.size = 0;

                /**
                 * Creates a new FileEntry instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.FileEntry
                 * @static
                 * @param {platform.agent.v1.FileEntry.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.FileEntry} FileEntry instance
                 * @type {{
                 *   (properties: platform.agent.v1.FileEntry.$Shape): platform.agent.v1.FileEntry & platform.agent.v1.FileEntry.$Shape;
                 *   (properties?: platform.agent.v1.FileEntry.$Properties): platform.agent.v1.FileEntry;
                 * }}
                 */
                FileEntry.create = function(properties) {
                    return new FileEntry(properties);
                };

                /**
                 * Encodes the specified FileEntry message. Does not implicitly {@link platform.agent.v1.FileEntry.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.FileEntry
                 * @static
                 * @param {platform.agent.v1.FileEntry.$Properties} m FileEntry message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                FileEntry.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.name != null && $Object.hasOwnProperty.call(m, "name") && m.name !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.name);
                    if (m.size != null && $Object.hasOwnProperty.call(m, "size") && !$Object.is(m.size, 0))
                        w.uint32(/* id 2, wireType 1 =*/17).double(m.size);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a FileEntry message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.FileEntry
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.FileEntry & platform.agent.v1.FileEntry.$Shape} FileEntry
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                FileEntry.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.FileEntry();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.name = v;
                                else
                                    delete m.name;
                                continue;
                            }
                        case 2: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.size = v;
                                else
                                    delete m.size;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a FileEntry message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.FileEntry
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.FileEntry} FileEntry
                 */
                FileEntry.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.FileEntry)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.FileEntry: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.FileEntry();
                    if (d.name != null) {
                        if (typeof d.name !== "string" || d.name.length) {
                            m.name = $String(d.name);
                        }
                    }
                    if (d.size != null) {
                        if (!$Object.is($Number(d.size), 0)) {
                            m.size = $Number(d.size);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a FileEntry message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.FileEntry
                 * @static
                 * @param {platform.agent.v1.FileEntry} m FileEntry
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                FileEntry.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.name = "";
                        d.size = 0;
                    }
                    if (m.name != null && $Object.hasOwnProperty.call(m, "name")) {
                        d.name = m.name;
                    }
                    if (m.size != null && $Object.hasOwnProperty.call(m, "size")) {
                        d.size = o.json && !$isFinite(m.size) ? $String(m.size) : m.size;
                    }
                    return d;
                };

                /**
                 * Converts this FileEntry to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.FileEntry
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                FileEntry.prototype.toJSON = function() {
                    return FileEntry.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for FileEntry
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.FileEntry
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                FileEntry.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.FileEntry";
                };

                return FileEntry;
            })();

            v1.ControllerMessage = (function() {

                /**
                 * Properties of a ControllerMessage.
                 * @typedef {Object} platform.agent.v1.ControllerMessage.$Properties
                 * @property {platform.agent.v1.Welcome.$Properties|null} [welcome] ControllerMessage welcome
                 * @property {platform.agent.v1.StartInstance.$Properties|null} [start] ControllerMessage start
                 * @property {platform.agent.v1.StopInstance.$Properties|null} [stop] ControllerMessage stop
                 * @property {platform.agent.v1.ListFiles.$Properties|null} [listFiles] ControllerMessage listFiles
                 * @property {platform.agent.v1.Snapshot.$Properties|null} [snapshot] ControllerMessage snapshot
                 * @property {platform.agent.v1.FlushLogs.$Properties|null} [flushLogs] ControllerMessage flushLogs
                 * @property {platform.agent.v1.LinkTargets.$Properties|null} [linkTargets] ControllerMessage linkTargets
                 * @property {platform.agent.v1.JobDrains.$Properties|null} [jobDrains] ControllerMessage jobDrains
                 * @property {platform.agent.v1.NetworkState.$Properties|null} [networkState] ControllerMessage networkState
                 * @property {platform.agent.v1.InstanceFiles.$Properties|null} [instanceFiles] ControllerMessage instanceFiles
                 * @property {platform.agent.v1.JobEgress.$Properties|null} [jobEgress] ControllerMessage jobEgress
                 * @property {"welcome"|"start"|"stop"|"listFiles"|"snapshot"|"flushLogs"|"linkTargets"|"jobDrains"|"networkState"|"instanceFiles"|"jobEgress"} [body] ControllerMessage body
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a ControllerMessage.
                 * @memberof platform.agent.v1
                 * @interface IControllerMessage
                 * @augments platform.agent.v1.ControllerMessage.$Properties
                 * @deprecated Use platform.agent.v1.ControllerMessage.$Properties instead.
                 */

                /**
                 * Narrowed shape of a ControllerMessage.
                 * @typedef {{
                 *   welcome?: platform.agent.v1.Welcome.$Shape|null;
                 *   start?: platform.agent.v1.StartInstance.$Shape|null;
                 *   stop?: platform.agent.v1.StopInstance.$Shape|null;
                 *   listFiles?: platform.agent.v1.ListFiles.$Shape|null;
                 *   snapshot?: platform.agent.v1.Snapshot.$Shape|null;
                 *   flushLogs?: platform.agent.v1.FlushLogs.$Shape|null;
                 *   linkTargets?: platform.agent.v1.LinkTargets.$Shape|null;
                 *   jobDrains?: platform.agent.v1.JobDrains.$Shape|null;
                 *   networkState?: platform.agent.v1.NetworkState.$Shape|null;
                 *   instanceFiles?: platform.agent.v1.InstanceFiles.$Shape|null;
                 *   jobEgress?: platform.agent.v1.JobEgress.$Shape|null;
                 *   $unknowns?: Array.<Uint8Array>;
                 * } & (
                 *   ({ body?: undefined; welcome?: null; start?: null; stop?: null; listFiles?: null; snapshot?: null; flushLogs?: null; linkTargets?: null; jobDrains?: null; networkState?: null; instanceFiles?: null; jobEgress?: null }|{ body?: "welcome"; welcome: platform.agent.v1.Welcome.$Shape; start?: null; stop?: null; listFiles?: null; snapshot?: null; flushLogs?: null; linkTargets?: null; jobDrains?: null; networkState?: null; instanceFiles?: null; jobEgress?: null }|{ body?: "start"; welcome?: null; start: platform.agent.v1.StartInstance.$Shape; stop?: null; listFiles?: null; snapshot?: null; flushLogs?: null; linkTargets?: null; jobDrains?: null; networkState?: null; instanceFiles?: null; jobEgress?: null }|{ body?: "stop"; welcome?: null; start?: null; stop: platform.agent.v1.StopInstance.$Shape; listFiles?: null; snapshot?: null; flushLogs?: null; linkTargets?: null; jobDrains?: null; networkState?: null; instanceFiles?: null; jobEgress?: null }|{ body?: "listFiles"; welcome?: null; start?: null; stop?: null; listFiles: platform.agent.v1.ListFiles.$Shape; snapshot?: null; flushLogs?: null; linkTargets?: null; jobDrains?: null; networkState?: null; instanceFiles?: null; jobEgress?: null }|{ body?: "snapshot"; welcome?: null; start?: null; stop?: null; listFiles?: null; snapshot: platform.agent.v1.Snapshot.$Shape; flushLogs?: null; linkTargets?: null; jobDrains?: null; networkState?: null; instanceFiles?: null; jobEgress?: null }|{ body?: "flushLogs"; welcome?: null; start?: null; stop?: null; listFiles?: null; snapshot?: null; flushLogs: platform.agent.v1.FlushLogs.$Shape; linkTargets?: null; jobDrains?: null; networkState?: null; instanceFiles?: null; jobEgress?: null }|{ body?: "linkTargets"; welcome?: null; start?: null; stop?: null; listFiles?: null; snapshot?: null; flushLogs?: null; linkTargets: platform.agent.v1.LinkTargets.$Shape; jobDrains?: null; networkState?: null; instanceFiles?: null; jobEgress?: null }|{ body?: "jobDrains"; welcome?: null; start?: null; stop?: null; listFiles?: null; snapshot?: null; flushLogs?: null; linkTargets?: null; jobDrains: platform.agent.v1.JobDrains.$Shape; networkState?: null; instanceFiles?: null; jobEgress?: null }|{ body?: "networkState"; welcome?: null; start?: null; stop?: null; listFiles?: null; snapshot?: null; flushLogs?: null; linkTargets?: null; jobDrains?: null; networkState: platform.agent.v1.NetworkState.$Shape; instanceFiles?: null; jobEgress?: null }|{ body?: "instanceFiles"; welcome?: null; start?: null; stop?: null; listFiles?: null; snapshot?: null; flushLogs?: null; linkTargets?: null; jobDrains?: null; networkState?: null; instanceFiles: platform.agent.v1.InstanceFiles.$Shape; jobEgress?: null }|{ body?: "jobEgress"; welcome?: null; start?: null; stop?: null; listFiles?: null; snapshot?: null; flushLogs?: null; linkTargets?: null; jobDrains?: null; networkState?: null; instanceFiles?: null; jobEgress: platform.agent.v1.JobEgress.$Shape })
                 * )} platform.agent.v1.ControllerMessage.$Shape
                 */

                /**
                 * Constructs a new ControllerMessage.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a ControllerMessage.
                 * @constructor
                 * @param {platform.agent.v1.ControllerMessage.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const ControllerMessage = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * ControllerMessage welcome.
                 * @member {platform.agent.v1.Welcome.$Properties|null|undefined} welcome
                 * @memberof platform.agent.v1.ControllerMessage
                 * @instance
                 */
                ControllerMessage.prototype.welcome = null;

                /**
                 * ControllerMessage start.
                 * @member {platform.agent.v1.StartInstance.$Properties|null|undefined} start
                 * @memberof platform.agent.v1.ControllerMessage
                 * @instance
                 */
                ControllerMessage.prototype.start = null;

                /**
                 * ControllerMessage stop.
                 * @member {platform.agent.v1.StopInstance.$Properties|null|undefined} stop
                 * @memberof platform.agent.v1.ControllerMessage
                 * @instance
                 */
                ControllerMessage.prototype.stop = null;

                /**
                 * ControllerMessage listFiles.
                 * @member {platform.agent.v1.ListFiles.$Properties|null|undefined} listFiles
                 * @memberof platform.agent.v1.ControllerMessage
                 * @instance
                 */
                ControllerMessage.prototype.listFiles = null;

                /**
                 * ControllerMessage snapshot.
                 * @member {platform.agent.v1.Snapshot.$Properties|null|undefined} snapshot
                 * @memberof platform.agent.v1.ControllerMessage
                 * @instance
                 */
                ControllerMessage.prototype.snapshot = null;

                /**
                 * ControllerMessage flushLogs.
                 * @member {platform.agent.v1.FlushLogs.$Properties|null|undefined} flushLogs
                 * @memberof platform.agent.v1.ControllerMessage
                 * @instance
                 */
                ControllerMessage.prototype.flushLogs = null;

                /**
                 * ControllerMessage linkTargets.
                 * @member {platform.agent.v1.LinkTargets.$Properties|null|undefined} linkTargets
                 * @memberof platform.agent.v1.ControllerMessage
                 * @instance
                 */
                ControllerMessage.prototype.linkTargets = null;

                /**
                 * ControllerMessage jobDrains.
                 * @member {platform.agent.v1.JobDrains.$Properties|null|undefined} jobDrains
                 * @memberof platform.agent.v1.ControllerMessage
                 * @instance
                 */
                ControllerMessage.prototype.jobDrains = null;

                /**
                 * ControllerMessage networkState.
                 * @member {platform.agent.v1.NetworkState.$Properties|null|undefined} networkState
                 * @memberof platform.agent.v1.ControllerMessage
                 * @instance
                 */
                ControllerMessage.prototype.networkState = null;

                /**
                 * ControllerMessage instanceFiles.
                 * @member {platform.agent.v1.InstanceFiles.$Properties|null|undefined} instanceFiles
                 * @memberof platform.agent.v1.ControllerMessage
                 * @instance
                 */
                ControllerMessage.prototype.instanceFiles = null;

                /**
                 * ControllerMessage jobEgress.
                 * @member {platform.agent.v1.JobEgress.$Properties|null|undefined} jobEgress
                 * @memberof platform.agent.v1.ControllerMessage
                 * @instance
                 */
                ControllerMessage.prototype.jobEgress = null;

                // OneOf field names bound to virtual getters and setters
                let $oneOfFields;

                /**
                 * ControllerMessage body.
                 * @member {"welcome"|"start"|"stop"|"listFiles"|"snapshot"|"flushLogs"|"linkTargets"|"jobDrains"|"networkState"|"instanceFiles"|"jobEgress"|undefined} body
                 * @memberof platform.agent.v1.ControllerMessage
                 * @instance
                 */
                $Object.defineProperty(ControllerMessage.prototype, "body", {
                    get: $util.oneOfGetter($oneOfFields = ["welcome", "start", "stop", "listFiles", "snapshot", "flushLogs", "linkTargets", "jobDrains", "networkState", "instanceFiles", "jobEgress"]),
                    set: $util.oneOfSetter($oneOfFields)
                });

                /**
                 * Creates a new ControllerMessage instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.ControllerMessage
                 * @static
                 * @param {platform.agent.v1.ControllerMessage.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.ControllerMessage} ControllerMessage instance
                 * @type {{
                 *   (properties: platform.agent.v1.ControllerMessage.$Shape): platform.agent.v1.ControllerMessage & platform.agent.v1.ControllerMessage.$Shape;
                 *   (properties?: platform.agent.v1.ControllerMessage.$Properties): platform.agent.v1.ControllerMessage;
                 * }}
                 */
                ControllerMessage.create = function(properties) {
                    return new ControllerMessage(properties);
                };

                /**
                 * Encodes the specified ControllerMessage message. Does not implicitly {@link platform.agent.v1.ControllerMessage.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.ControllerMessage
                 * @static
                 * @param {platform.agent.v1.ControllerMessage.$Properties} m ControllerMessage message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                ControllerMessage.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.welcome != null && $Object.hasOwnProperty.call(m, "welcome"))
                        $root.platform.agent.v1.Welcome.encode(m.welcome, w.uint32(/* id 1, wireType 2 =*/10).fork(), q + 1).ldelim();
                    if (m.start != null && $Object.hasOwnProperty.call(m, "start"))
                        $root.platform.agent.v1.StartInstance.encode(m.start, w.uint32(/* id 2, wireType 2 =*/18).fork(), q + 1).ldelim();
                    if (m.stop != null && $Object.hasOwnProperty.call(m, "stop"))
                        $root.platform.agent.v1.StopInstance.encode(m.stop, w.uint32(/* id 3, wireType 2 =*/26).fork(), q + 1).ldelim();
                    if (m.listFiles != null && $Object.hasOwnProperty.call(m, "listFiles"))
                        $root.platform.agent.v1.ListFiles.encode(m.listFiles, w.uint32(/* id 4, wireType 2 =*/34).fork(), q + 1).ldelim();
                    if (m.snapshot != null && $Object.hasOwnProperty.call(m, "snapshot"))
                        $root.platform.agent.v1.Snapshot.encode(m.snapshot, w.uint32(/* id 5, wireType 2 =*/42).fork(), q + 1).ldelim();
                    if (m.flushLogs != null && $Object.hasOwnProperty.call(m, "flushLogs"))
                        $root.platform.agent.v1.FlushLogs.encode(m.flushLogs, w.uint32(/* id 6, wireType 2 =*/50).fork(), q + 1).ldelim();
                    if (m.linkTargets != null && $Object.hasOwnProperty.call(m, "linkTargets"))
                        $root.platform.agent.v1.LinkTargets.encode(m.linkTargets, w.uint32(/* id 7, wireType 2 =*/58).fork(), q + 1).ldelim();
                    if (m.jobDrains != null && $Object.hasOwnProperty.call(m, "jobDrains"))
                        $root.platform.agent.v1.JobDrains.encode(m.jobDrains, w.uint32(/* id 8, wireType 2 =*/66).fork(), q + 1).ldelim();
                    if (m.networkState != null && $Object.hasOwnProperty.call(m, "networkState"))
                        $root.platform.agent.v1.NetworkState.encode(m.networkState, w.uint32(/* id 9, wireType 2 =*/74).fork(), q + 1).ldelim();
                    if (m.jobEgress != null && $Object.hasOwnProperty.call(m, "jobEgress"))
                        $root.platform.agent.v1.JobEgress.encode(m.jobEgress, w.uint32(/* id 10, wireType 2 =*/82).fork(), q + 1).ldelim();
                    if (m.instanceFiles != null && $Object.hasOwnProperty.call(m, "instanceFiles"))
                        $root.platform.agent.v1.InstanceFiles.encode(m.instanceFiles, w.uint32(/* id 20, wireType 2 =*/162).fork(), q + 1).ldelim();
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a ControllerMessage message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.ControllerMessage
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.ControllerMessage & platform.agent.v1.ControllerMessage.$Shape} ControllerMessage
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                ControllerMessage.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.ControllerMessage();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                m.welcome = $root.platform.agent.v1.Welcome.decode(r, r.size(), $undefined, q + 1, m.welcome);
                                m.body = "welcome";
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                m.start = $root.platform.agent.v1.StartInstance.decode(r, r.size(), $undefined, q + 1, m.start);
                                m.body = "start";
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                m.stop = $root.platform.agent.v1.StopInstance.decode(r, r.size(), $undefined, q + 1, m.stop);
                                m.body = "stop";
                                continue;
                            }
                        case 4: {
                                if (u !== 2)
                                    break;
                                m.listFiles = $root.platform.agent.v1.ListFiles.decode(r, r.size(), $undefined, q + 1, m.listFiles);
                                m.body = "listFiles";
                                continue;
                            }
                        case 5: {
                                if (u !== 2)
                                    break;
                                m.snapshot = $root.platform.agent.v1.Snapshot.decode(r, r.size(), $undefined, q + 1, m.snapshot);
                                m.body = "snapshot";
                                continue;
                            }
                        case 6: {
                                if (u !== 2)
                                    break;
                                m.flushLogs = $root.platform.agent.v1.FlushLogs.decode(r, r.size(), $undefined, q + 1, m.flushLogs);
                                m.body = "flushLogs";
                                continue;
                            }
                        case 7: {
                                if (u !== 2)
                                    break;
                                m.linkTargets = $root.platform.agent.v1.LinkTargets.decode(r, r.size(), $undefined, q + 1, m.linkTargets);
                                m.body = "linkTargets";
                                continue;
                            }
                        case 8: {
                                if (u !== 2)
                                    break;
                                m.jobDrains = $root.platform.agent.v1.JobDrains.decode(r, r.size(), $undefined, q + 1, m.jobDrains);
                                m.body = "jobDrains";
                                continue;
                            }
                        case 9: {
                                if (u !== 2)
                                    break;
                                m.networkState = $root.platform.agent.v1.NetworkState.decode(r, r.size(), $undefined, q + 1, m.networkState);
                                m.body = "networkState";
                                continue;
                            }
                        case 20: {
                                if (u !== 2)
                                    break;
                                m.instanceFiles = $root.platform.agent.v1.InstanceFiles.decode(r, r.size(), $undefined, q + 1, m.instanceFiles);
                                m.body = "instanceFiles";
                                continue;
                            }
                        case 10: {
                                if (u !== 2)
                                    break;
                                m.jobEgress = $root.platform.agent.v1.JobEgress.decode(r, r.size(), $undefined, q + 1, m.jobEgress);
                                m.body = "jobEgress";
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a ControllerMessage message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.ControllerMessage
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.ControllerMessage} ControllerMessage
                 */
                ControllerMessage.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.ControllerMessage)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.ControllerMessage: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.ControllerMessage();
                    if (d.welcome != null) {
                        if (!$util.isObject(d.welcome))
                            throw $TypeError(".platform.agent.v1.ControllerMessage.welcome: object expected");
                        m.welcome = $root.platform.agent.v1.Welcome.fromObject(d.welcome, q + 1);
                    }
                    if (d.start != null) {
                        if (!$util.isObject(d.start))
                            throw $TypeError(".platform.agent.v1.ControllerMessage.start: object expected");
                        m.start = $root.platform.agent.v1.StartInstance.fromObject(d.start, q + 1);
                    }
                    if (d.stop != null) {
                        if (!$util.isObject(d.stop))
                            throw $TypeError(".platform.agent.v1.ControllerMessage.stop: object expected");
                        m.stop = $root.platform.agent.v1.StopInstance.fromObject(d.stop, q + 1);
                    }
                    if (d.listFiles != null) {
                        if (!$util.isObject(d.listFiles))
                            throw $TypeError(".platform.agent.v1.ControllerMessage.listFiles: object expected");
                        m.listFiles = $root.platform.agent.v1.ListFiles.fromObject(d.listFiles, q + 1);
                    }
                    if (d.snapshot != null) {
                        if (!$util.isObject(d.snapshot))
                            throw $TypeError(".platform.agent.v1.ControllerMessage.snapshot: object expected");
                        m.snapshot = $root.platform.agent.v1.Snapshot.fromObject(d.snapshot, q + 1);
                    }
                    if (d.flushLogs != null) {
                        if (!$util.isObject(d.flushLogs))
                            throw $TypeError(".platform.agent.v1.ControllerMessage.flushLogs: object expected");
                        m.flushLogs = $root.platform.agent.v1.FlushLogs.fromObject(d.flushLogs, q + 1);
                    }
                    if (d.linkTargets != null) {
                        if (!$util.isObject(d.linkTargets))
                            throw $TypeError(".platform.agent.v1.ControllerMessage.linkTargets: object expected");
                        m.linkTargets = $root.platform.agent.v1.LinkTargets.fromObject(d.linkTargets, q + 1);
                    }
                    if (d.jobDrains != null) {
                        if (!$util.isObject(d.jobDrains))
                            throw $TypeError(".platform.agent.v1.ControllerMessage.jobDrains: object expected");
                        m.jobDrains = $root.platform.agent.v1.JobDrains.fromObject(d.jobDrains, q + 1);
                    }
                    if (d.networkState != null) {
                        if (!$util.isObject(d.networkState))
                            throw $TypeError(".platform.agent.v1.ControllerMessage.networkState: object expected");
                        m.networkState = $root.platform.agent.v1.NetworkState.fromObject(d.networkState, q + 1);
                    }
                    if (d.instanceFiles != null) {
                        if (!$util.isObject(d.instanceFiles))
                            throw $TypeError(".platform.agent.v1.ControllerMessage.instanceFiles: object expected");
                        m.instanceFiles = $root.platform.agent.v1.InstanceFiles.fromObject(d.instanceFiles, q + 1);
                    }
                    if (d.jobEgress != null) {
                        if (!$util.isObject(d.jobEgress))
                            throw $TypeError(".platform.agent.v1.ControllerMessage.jobEgress: object expected");
                        m.jobEgress = $root.platform.agent.v1.JobEgress.fromObject(d.jobEgress, q + 1);
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a ControllerMessage message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.ControllerMessage
                 * @static
                 * @param {platform.agent.v1.ControllerMessage} m ControllerMessage
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                ControllerMessage.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (m.welcome != null && $Object.hasOwnProperty.call(m, "welcome")) {
                        d.welcome = $root.platform.agent.v1.Welcome.toObject(m.welcome, o, q + 1);
                        if (o.oneofs)
                            d.body = "welcome";
                    }
                    if (m.start != null && $Object.hasOwnProperty.call(m, "start")) {
                        d.start = $root.platform.agent.v1.StartInstance.toObject(m.start, o, q + 1);
                        if (o.oneofs)
                            d.body = "start";
                    }
                    if (m.stop != null && $Object.hasOwnProperty.call(m, "stop")) {
                        d.stop = $root.platform.agent.v1.StopInstance.toObject(m.stop, o, q + 1);
                        if (o.oneofs)
                            d.body = "stop";
                    }
                    if (m.listFiles != null && $Object.hasOwnProperty.call(m, "listFiles")) {
                        d.listFiles = $root.platform.agent.v1.ListFiles.toObject(m.listFiles, o, q + 1);
                        if (o.oneofs)
                            d.body = "listFiles";
                    }
                    if (m.snapshot != null && $Object.hasOwnProperty.call(m, "snapshot")) {
                        d.snapshot = $root.platform.agent.v1.Snapshot.toObject(m.snapshot, o, q + 1);
                        if (o.oneofs)
                            d.body = "snapshot";
                    }
                    if (m.flushLogs != null && $Object.hasOwnProperty.call(m, "flushLogs")) {
                        d.flushLogs = $root.platform.agent.v1.FlushLogs.toObject(m.flushLogs, o, q + 1);
                        if (o.oneofs)
                            d.body = "flushLogs";
                    }
                    if (m.linkTargets != null && $Object.hasOwnProperty.call(m, "linkTargets")) {
                        d.linkTargets = $root.platform.agent.v1.LinkTargets.toObject(m.linkTargets, o, q + 1);
                        if (o.oneofs)
                            d.body = "linkTargets";
                    }
                    if (m.jobDrains != null && $Object.hasOwnProperty.call(m, "jobDrains")) {
                        d.jobDrains = $root.platform.agent.v1.JobDrains.toObject(m.jobDrains, o, q + 1);
                        if (o.oneofs)
                            d.body = "jobDrains";
                    }
                    if (m.networkState != null && $Object.hasOwnProperty.call(m, "networkState")) {
                        d.networkState = $root.platform.agent.v1.NetworkState.toObject(m.networkState, o, q + 1);
                        if (o.oneofs)
                            d.body = "networkState";
                    }
                    if (m.jobEgress != null && $Object.hasOwnProperty.call(m, "jobEgress")) {
                        d.jobEgress = $root.platform.agent.v1.JobEgress.toObject(m.jobEgress, o, q + 1);
                        if (o.oneofs)
                            d.body = "jobEgress";
                    }
                    if (m.instanceFiles != null && $Object.hasOwnProperty.call(m, "instanceFiles")) {
                        d.instanceFiles = $root.platform.agent.v1.InstanceFiles.toObject(m.instanceFiles, o, q + 1);
                        if (o.oneofs)
                            d.body = "instanceFiles";
                    }
                    return d;
                };

                /**
                 * Converts this ControllerMessage to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.ControllerMessage
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                ControllerMessage.prototype.toJSON = function() {
                    return ControllerMessage.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for ControllerMessage
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.ControllerMessage
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                ControllerMessage.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.ControllerMessage";
                };

                return ControllerMessage;
            })();

            v1.InstanceFiles = (function() {

                /**
                 * Properties of an InstanceFiles.
                 * @typedef {Object} platform.agent.v1.InstanceFiles.$Properties
                 * @property {string|null} [instanceUuid] InstanceFiles instanceUuid
                 * @property {Array.<platform.agent.v1.PlatformFile.$Properties>|null} [files] InstanceFiles files
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of an InstanceFiles.
                 * @memberof platform.agent.v1
                 * @interface IInstanceFiles
                 * @augments platform.agent.v1.InstanceFiles.$Properties
                 * @deprecated Use platform.agent.v1.InstanceFiles.$Properties instead.
                 */

                /**
                 * Shape of an InstanceFiles.
                 * @typedef {platform.agent.v1.InstanceFiles.$Properties} platform.agent.v1.InstanceFiles.$Shape
                 */

                /**
                 * Constructs a new InstanceFiles.
                 * @memberof platform.agent.v1
                 * @classdesc Represents an InstanceFiles.
                 * @constructor
                 * @param {platform.agent.v1.InstanceFiles.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const InstanceFiles = function (p) {
                    this.files = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * InstanceFiles instanceUuid.
                 * @member {string} instanceUuid
                 * @memberof platform.agent.v1.InstanceFiles
                 * @instance
                 */
                InstanceFiles.prototype.instanceUuid = "";

                /**
                 * InstanceFiles files.
                 * @member {Array.<platform.agent.v1.PlatformFile.$Properties>} files
                 * @memberof platform.agent.v1.InstanceFiles
                 * @instance
                 */
                InstanceFiles.prototype.files = $util.emptyArray;

                /**
                 * Creates a new InstanceFiles instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.InstanceFiles
                 * @static
                 * @param {platform.agent.v1.InstanceFiles.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.InstanceFiles} InstanceFiles instance
                 * @type {{
                 *   (properties: platform.agent.v1.InstanceFiles.$Shape): platform.agent.v1.InstanceFiles & platform.agent.v1.InstanceFiles.$Shape;
                 *   (properties?: platform.agent.v1.InstanceFiles.$Properties): platform.agent.v1.InstanceFiles;
                 * }}
                 */
                InstanceFiles.create = function(properties) {
                    return new InstanceFiles(properties);
                };

                /**
                 * Encodes the specified InstanceFiles message. Does not implicitly {@link platform.agent.v1.InstanceFiles.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.InstanceFiles
                 * @static
                 * @param {platform.agent.v1.InstanceFiles.$Properties} m InstanceFiles message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                InstanceFiles.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.instanceUuid != null && $Object.hasOwnProperty.call(m, "instanceUuid") && m.instanceUuid !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.instanceUuid);
                    if (m.files != null && m.files.length) {
                        for (var i = 0; i < m.files.length; ++i)
                            $root.platform.agent.v1.PlatformFile.encode(m.files[i], w.uint32(/* id 2, wireType 2 =*/18).fork(), q + 1).ldelim();
                    }
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes an InstanceFiles message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.InstanceFiles
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.InstanceFiles & platform.agent.v1.InstanceFiles.$Shape} InstanceFiles
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                InstanceFiles.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.InstanceFiles();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.instanceUuid = v;
                                else
                                    delete m.instanceUuid;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if (!(m.files && m.files.length))
                                    m.files = [];
                                m.files.push($root.platform.agent.v1.PlatformFile.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates an InstanceFiles message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.InstanceFiles
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.InstanceFiles} InstanceFiles
                 */
                InstanceFiles.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.InstanceFiles)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.InstanceFiles: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.InstanceFiles();
                    if (d.instanceUuid != null) {
                        if (typeof d.instanceUuid !== "string" || d.instanceUuid.length) {
                            m.instanceUuid = $String(d.instanceUuid);
                        }
                    }
                    if (d.files) {
                        if (!$Array.isArray(d.files))
                            throw $TypeError(".platform.agent.v1.InstanceFiles.files: array expected");
                        m.files = $Array(d.files.length);
                        for (var i = 0; i < d.files.length; ++i) {
                            if (!$util.isObject(d.files[i]))
                                throw $TypeError(".platform.agent.v1.InstanceFiles.files: object expected");
                            m.files[i] = $root.platform.agent.v1.PlatformFile.fromObject(d.files[i], q + 1);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from an InstanceFiles message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.InstanceFiles
                 * @static
                 * @param {platform.agent.v1.InstanceFiles} m InstanceFiles
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                InstanceFiles.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.files = [];
                    }
                    if (o.defaults) {
                        d.instanceUuid = "";
                    }
                    if (m.instanceUuid != null && $Object.hasOwnProperty.call(m, "instanceUuid")) {
                        d.instanceUuid = m.instanceUuid;
                    }
                    if (m.files && m.files.length) {
                        d.files = $Array(m.files.length);
                        for (var j = 0; j < m.files.length; ++j) {
                            d.files[j] = $root.platform.agent.v1.PlatformFile.toObject(m.files[j], o, q + 1);
                        }
                    }
                    return d;
                };

                /**
                 * Converts this InstanceFiles to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.InstanceFiles
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                InstanceFiles.prototype.toJSON = function() {
                    return InstanceFiles.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for InstanceFiles
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.InstanceFiles
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                InstanceFiles.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.InstanceFiles";
                };

                return InstanceFiles;
            })();

            v1.NetworkState = (function() {

                /**
                 * Properties of a NetworkState.
                 * @typedef {Object} platform.agent.v1.NetworkState.$Properties
                 * @property {string|null} [networkUuid] NetworkState networkUuid
                 * @property {Array.<platform.agent.v1.NetworkHost.$Properties>|null} [hosts] NetworkState hosts
                 * @property {Array.<string>|null} [peers] NetworkState peers
                 * @property {Array.<platform.agent.v1.NetworkMember.$Properties>|null} [members] NetworkState members
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a NetworkState.
                 * @memberof platform.agent.v1
                 * @interface INetworkState
                 * @augments platform.agent.v1.NetworkState.$Properties
                 * @deprecated Use platform.agent.v1.NetworkState.$Properties instead.
                 */

                /**
                 * Shape of a NetworkState.
                 * @typedef {platform.agent.v1.NetworkState.$Properties} platform.agent.v1.NetworkState.$Shape
                 */

                /**
                 * Constructs a new NetworkState.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a NetworkState.
                 * @constructor
                 * @param {platform.agent.v1.NetworkState.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const NetworkState = function (p) {
                    this.hosts = [];
                    this.peers = [];
                    this.members = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * NetworkState networkUuid.
                 * @member {string} networkUuid
                 * @memberof platform.agent.v1.NetworkState
                 * @instance
                 */
                NetworkState.prototype.networkUuid = "";

                /**
                 * NetworkState hosts.
                 * @member {Array.<platform.agent.v1.NetworkHost.$Properties>} hosts
                 * @memberof platform.agent.v1.NetworkState
                 * @instance
                 */
                NetworkState.prototype.hosts = $util.emptyArray;

                /**
                 * NetworkState peers.
                 * @member {Array.<string>} peers
                 * @memberof platform.agent.v1.NetworkState
                 * @instance
                 */
                NetworkState.prototype.peers = $util.emptyArray;

                /**
                 * NetworkState members.
                 * @member {Array.<platform.agent.v1.NetworkMember.$Properties>} members
                 * @memberof platform.agent.v1.NetworkState
                 * @instance
                 */
                NetworkState.prototype.members = $util.emptyArray;

                /**
                 * Creates a new NetworkState instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.NetworkState
                 * @static
                 * @param {platform.agent.v1.NetworkState.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.NetworkState} NetworkState instance
                 * @type {{
                 *   (properties: platform.agent.v1.NetworkState.$Shape): platform.agent.v1.NetworkState & platform.agent.v1.NetworkState.$Shape;
                 *   (properties?: platform.agent.v1.NetworkState.$Properties): platform.agent.v1.NetworkState;
                 * }}
                 */
                NetworkState.create = function(properties) {
                    return new NetworkState(properties);
                };

                /**
                 * Encodes the specified NetworkState message. Does not implicitly {@link platform.agent.v1.NetworkState.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.NetworkState
                 * @static
                 * @param {platform.agent.v1.NetworkState.$Properties} m NetworkState message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                NetworkState.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.networkUuid != null && $Object.hasOwnProperty.call(m, "networkUuid") && m.networkUuid !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.networkUuid);
                    if (m.hosts != null && m.hosts.length) {
                        for (var i = 0; i < m.hosts.length; ++i)
                            $root.platform.agent.v1.NetworkHost.encode(m.hosts[i], w.uint32(/* id 2, wireType 2 =*/18).fork(), q + 1).ldelim();
                    }
                    if (m.peers != null && m.peers.length) {
                        for (var i = 0; i < m.peers.length; ++i)
                            w.uint32(/* id 3, wireType 2 =*/26).string(m.peers[i]);
                    }
                    if (m.members != null && m.members.length) {
                        for (var i = 0; i < m.members.length; ++i)
                            $root.platform.agent.v1.NetworkMember.encode(m.members[i], w.uint32(/* id 4, wireType 2 =*/34).fork(), q + 1).ldelim();
                    }
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a NetworkState message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.NetworkState
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.NetworkState & platform.agent.v1.NetworkState.$Shape} NetworkState
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                NetworkState.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.NetworkState();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.networkUuid = v;
                                else
                                    delete m.networkUuid;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if (!(m.hosts && m.hosts.length))
                                    m.hosts = [];
                                m.hosts.push($root.platform.agent.v1.NetworkHost.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if (!(m.peers && m.peers.length))
                                    m.peers = [];
                                m.peers.push(r.stringVerify());
                                continue;
                            }
                        case 4: {
                                if (u !== 2)
                                    break;
                                if (!(m.members && m.members.length))
                                    m.members = [];
                                m.members.push($root.platform.agent.v1.NetworkMember.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a NetworkState message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.NetworkState
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.NetworkState} NetworkState
                 */
                NetworkState.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.NetworkState)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.NetworkState: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.NetworkState();
                    if (d.networkUuid != null) {
                        if (typeof d.networkUuid !== "string" || d.networkUuid.length) {
                            m.networkUuid = $String(d.networkUuid);
                        }
                    }
                    if (d.hosts) {
                        if (!$Array.isArray(d.hosts))
                            throw $TypeError(".platform.agent.v1.NetworkState.hosts: array expected");
                        m.hosts = $Array(d.hosts.length);
                        for (var i = 0; i < d.hosts.length; ++i) {
                            if (!$util.isObject(d.hosts[i]))
                                throw $TypeError(".platform.agent.v1.NetworkState.hosts: object expected");
                            m.hosts[i] = $root.platform.agent.v1.NetworkHost.fromObject(d.hosts[i], q + 1);
                        }
                    }
                    if (d.peers) {
                        if (!$Array.isArray(d.peers))
                            throw $TypeError(".platform.agent.v1.NetworkState.peers: array expected");
                        m.peers = $Array(d.peers.length);
                        for (var i = 0; i < d.peers.length; ++i) {
                            m.peers[i] = $String(d.peers[i]);
                        }
                    }
                    if (d.members) {
                        if (!$Array.isArray(d.members))
                            throw $TypeError(".platform.agent.v1.NetworkState.members: array expected");
                        m.members = $Array(d.members.length);
                        for (var i = 0; i < d.members.length; ++i) {
                            if (!$util.isObject(d.members[i]))
                                throw $TypeError(".platform.agent.v1.NetworkState.members: object expected");
                            m.members[i] = $root.platform.agent.v1.NetworkMember.fromObject(d.members[i], q + 1);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a NetworkState message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.NetworkState
                 * @static
                 * @param {platform.agent.v1.NetworkState} m NetworkState
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                NetworkState.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.hosts = [];
                        d.peers = [];
                        d.members = [];
                    }
                    if (o.defaults) {
                        d.networkUuid = "";
                    }
                    if (m.networkUuid != null && $Object.hasOwnProperty.call(m, "networkUuid")) {
                        d.networkUuid = m.networkUuid;
                    }
                    if (m.hosts && m.hosts.length) {
                        d.hosts = $Array(m.hosts.length);
                        for (var j = 0; j < m.hosts.length; ++j) {
                            d.hosts[j] = $root.platform.agent.v1.NetworkHost.toObject(m.hosts[j], o, q + 1);
                        }
                    }
                    if (m.peers && m.peers.length) {
                        d.peers = $Array(m.peers.length);
                        for (var j = 0; j < m.peers.length; ++j) {
                            d.peers[j] = m.peers[j];
                        }
                    }
                    if (m.members && m.members.length) {
                        d.members = $Array(m.members.length);
                        for (var j = 0; j < m.members.length; ++j) {
                            d.members[j] = $root.platform.agent.v1.NetworkMember.toObject(m.members[j], o, q + 1);
                        }
                    }
                    return d;
                };

                /**
                 * Converts this NetworkState to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.NetworkState
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                NetworkState.prototype.toJSON = function() {
                    return NetworkState.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for NetworkState
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.NetworkState
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                NetworkState.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.NetworkState";
                };

                return NetworkState;
            })();

            v1.NetworkMember = (function() {

                /**
                 * Properties of a NetworkMember.
                 * @typedef {Object} platform.agent.v1.NetworkMember.$Properties
                 * @property {string|null} [jobUuid] NetworkMember jobUuid
                 * @property {boolean|null} [broadcastEnable] NetworkMember broadcastEnable
                 * @property {Array.<string>|null} [routes] NetworkMember routes
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a NetworkMember.
                 * @memberof platform.agent.v1
                 * @interface INetworkMember
                 * @augments platform.agent.v1.NetworkMember.$Properties
                 * @deprecated Use platform.agent.v1.NetworkMember.$Properties instead.
                 */

                /**
                 * Shape of a NetworkMember.
                 * @typedef {platform.agent.v1.NetworkMember.$Properties} platform.agent.v1.NetworkMember.$Shape
                 */

                /**
                 * Constructs a new NetworkMember.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a NetworkMember.
                 * @constructor
                 * @param {platform.agent.v1.NetworkMember.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const NetworkMember = function (p) {
                    this.routes = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * NetworkMember jobUuid.
                 * @member {string} jobUuid
                 * @memberof platform.agent.v1.NetworkMember
                 * @instance
                 */
                NetworkMember.prototype.jobUuid = "";

                /**
                 * NetworkMember broadcastEnable.
                 * @member {boolean} broadcastEnable
                 * @memberof platform.agent.v1.NetworkMember
                 * @instance
                 */
                NetworkMember.prototype.broadcastEnable = false;

                /**
                 * NetworkMember routes.
                 * @member {Array.<string>} routes
                 * @memberof platform.agent.v1.NetworkMember
                 * @instance
                 */
                NetworkMember.prototype.routes = $util.emptyArray;

                /**
                 * Creates a new NetworkMember instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.NetworkMember
                 * @static
                 * @param {platform.agent.v1.NetworkMember.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.NetworkMember} NetworkMember instance
                 * @type {{
                 *   (properties: platform.agent.v1.NetworkMember.$Shape): platform.agent.v1.NetworkMember & platform.agent.v1.NetworkMember.$Shape;
                 *   (properties?: platform.agent.v1.NetworkMember.$Properties): platform.agent.v1.NetworkMember;
                 * }}
                 */
                NetworkMember.create = function(properties) {
                    return new NetworkMember(properties);
                };

                /**
                 * Encodes the specified NetworkMember message. Does not implicitly {@link platform.agent.v1.NetworkMember.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.NetworkMember
                 * @static
                 * @param {platform.agent.v1.NetworkMember.$Properties} m NetworkMember message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                NetworkMember.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.jobUuid != null && $Object.hasOwnProperty.call(m, "jobUuid") && m.jobUuid !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.jobUuid);
                    if (m.broadcastEnable != null && $Object.hasOwnProperty.call(m, "broadcastEnable") && m.broadcastEnable !== false)
                        w.uint32(/* id 2, wireType 0 =*/16).bool(m.broadcastEnable);
                    if (m.routes != null && m.routes.length) {
                        for (var i = 0; i < m.routes.length; ++i)
                            w.uint32(/* id 3, wireType 2 =*/26).string(m.routes[i]);
                    }
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a NetworkMember message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.NetworkMember
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.NetworkMember & platform.agent.v1.NetworkMember.$Shape} NetworkMember
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                NetworkMember.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.NetworkMember();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.jobUuid = v;
                                else
                                    delete m.jobUuid;
                                continue;
                            }
                        case 2: {
                                if (u !== 0)
                                    break;
                                if (v = r.bool())
                                    m.broadcastEnable = v;
                                else
                                    delete m.broadcastEnable;
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if (!(m.routes && m.routes.length))
                                    m.routes = [];
                                m.routes.push(r.stringVerify());
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a NetworkMember message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.NetworkMember
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.NetworkMember} NetworkMember
                 */
                NetworkMember.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.NetworkMember)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.NetworkMember: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.NetworkMember();
                    if (d.jobUuid != null) {
                        if (typeof d.jobUuid !== "string" || d.jobUuid.length) {
                            m.jobUuid = $String(d.jobUuid);
                        }
                    }
                    if (d.broadcastEnable != null) {
                        if (d.broadcastEnable) {
                            m.broadcastEnable = $Boolean(d.broadcastEnable);
                        }
                    }
                    if (d.routes) {
                        if (!$Array.isArray(d.routes))
                            throw $TypeError(".platform.agent.v1.NetworkMember.routes: array expected");
                        m.routes = $Array(d.routes.length);
                        for (var i = 0; i < d.routes.length; ++i) {
                            m.routes[i] = $String(d.routes[i]);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a NetworkMember message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.NetworkMember
                 * @static
                 * @param {platform.agent.v1.NetworkMember} m NetworkMember
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                NetworkMember.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.routes = [];
                    }
                    if (o.defaults) {
                        d.jobUuid = "";
                        d.broadcastEnable = false;
                    }
                    if (m.jobUuid != null && $Object.hasOwnProperty.call(m, "jobUuid")) {
                        d.jobUuid = m.jobUuid;
                    }
                    if (m.broadcastEnable != null && $Object.hasOwnProperty.call(m, "broadcastEnable")) {
                        d.broadcastEnable = m.broadcastEnable;
                    }
                    if (m.routes && m.routes.length) {
                        d.routes = $Array(m.routes.length);
                        for (var j = 0; j < m.routes.length; ++j) {
                            d.routes[j] = m.routes[j];
                        }
                    }
                    return d;
                };

                /**
                 * Converts this NetworkMember to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.NetworkMember
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                NetworkMember.prototype.toJSON = function() {
                    return NetworkMember.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for NetworkMember
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.NetworkMember
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                NetworkMember.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.NetworkMember";
                };

                return NetworkMember;
            })();

            v1.NetworkHost = (function() {

                /**
                 * Properties of a NetworkHost.
                 * @typedef {Object} platform.agent.v1.NetworkHost.$Properties
                 * @property {string|null} [name] NetworkHost name
                 * @property {string|null} [address] NetworkHost address
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a NetworkHost.
                 * @memberof platform.agent.v1
                 * @interface INetworkHost
                 * @augments platform.agent.v1.NetworkHost.$Properties
                 * @deprecated Use platform.agent.v1.NetworkHost.$Properties instead.
                 */

                /**
                 * Shape of a NetworkHost.
                 * @typedef {platform.agent.v1.NetworkHost.$Properties} platform.agent.v1.NetworkHost.$Shape
                 */

                /**
                 * Constructs a new NetworkHost.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a NetworkHost.
                 * @constructor
                 * @param {platform.agent.v1.NetworkHost.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const NetworkHost = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * NetworkHost name.
                 * @member {string} name
                 * @memberof platform.agent.v1.NetworkHost
                 * @instance
                 */
                NetworkHost.prototype.name = "";

                /**
                 * NetworkHost address.
                 * @member {string} address
                 * @memberof platform.agent.v1.NetworkHost
                 * @instance
                 */
                NetworkHost.prototype.address = "";

                /**
                 * Creates a new NetworkHost instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.NetworkHost
                 * @static
                 * @param {platform.agent.v1.NetworkHost.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.NetworkHost} NetworkHost instance
                 * @type {{
                 *   (properties: platform.agent.v1.NetworkHost.$Shape): platform.agent.v1.NetworkHost & platform.agent.v1.NetworkHost.$Shape;
                 *   (properties?: platform.agent.v1.NetworkHost.$Properties): platform.agent.v1.NetworkHost;
                 * }}
                 */
                NetworkHost.create = function(properties) {
                    return new NetworkHost(properties);
                };

                /**
                 * Encodes the specified NetworkHost message. Does not implicitly {@link platform.agent.v1.NetworkHost.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.NetworkHost
                 * @static
                 * @param {platform.agent.v1.NetworkHost.$Properties} m NetworkHost message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                NetworkHost.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.name != null && $Object.hasOwnProperty.call(m, "name") && m.name !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.name);
                    if (m.address != null && $Object.hasOwnProperty.call(m, "address") && m.address !== "")
                        w.uint32(/* id 2, wireType 2 =*/18).string(m.address);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a NetworkHost message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.NetworkHost
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.NetworkHost & platform.agent.v1.NetworkHost.$Shape} NetworkHost
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                NetworkHost.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.NetworkHost();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.name = v;
                                else
                                    delete m.name;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.address = v;
                                else
                                    delete m.address;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a NetworkHost message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.NetworkHost
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.NetworkHost} NetworkHost
                 */
                NetworkHost.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.NetworkHost)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.NetworkHost: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.NetworkHost();
                    if (d.name != null) {
                        if (typeof d.name !== "string" || d.name.length) {
                            m.name = $String(d.name);
                        }
                    }
                    if (d.address != null) {
                        if (typeof d.address !== "string" || d.address.length) {
                            m.address = $String(d.address);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a NetworkHost message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.NetworkHost
                 * @static
                 * @param {platform.agent.v1.NetworkHost} m NetworkHost
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                NetworkHost.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.name = "";
                        d.address = "";
                    }
                    if (m.name != null && $Object.hasOwnProperty.call(m, "name")) {
                        d.name = m.name;
                    }
                    if (m.address != null && $Object.hasOwnProperty.call(m, "address")) {
                        d.address = m.address;
                    }
                    return d;
                };

                /**
                 * Converts this NetworkHost to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.NetworkHost
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                NetworkHost.prototype.toJSON = function() {
                    return NetworkHost.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for NetworkHost
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.NetworkHost
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                NetworkHost.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.NetworkHost";
                };

                return NetworkHost;
            })();

            v1.JobDrains = (function() {

                /**
                 * Properties of a JobDrains.
                 * @typedef {Object} platform.agent.v1.JobDrains.$Properties
                 * @property {string|null} [jobUuid] JobDrains jobUuid
                 * @property {string|null} [jobFqn] JobDrains jobFqn
                 * @property {Array.<platform.agent.v1.DrainSpec.$Properties>|null} [drains] JobDrains drains
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a JobDrains.
                 * @memberof platform.agent.v1
                 * @interface IJobDrains
                 * @augments platform.agent.v1.JobDrains.$Properties
                 * @deprecated Use platform.agent.v1.JobDrains.$Properties instead.
                 */

                /**
                 * Shape of a JobDrains.
                 * @typedef {platform.agent.v1.JobDrains.$Properties} platform.agent.v1.JobDrains.$Shape
                 */

                /**
                 * Constructs a new JobDrains.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a JobDrains.
                 * @constructor
                 * @param {platform.agent.v1.JobDrains.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const JobDrains = function (p) {
                    this.drains = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * JobDrains jobUuid.
                 * @member {string} jobUuid
                 * @memberof platform.agent.v1.JobDrains
                 * @instance
                 */
                JobDrains.prototype.jobUuid = "";

                /**
                 * JobDrains jobFqn.
                 * @member {string} jobFqn
                 * @memberof platform.agent.v1.JobDrains
                 * @instance
                 */
                JobDrains.prototype.jobFqn = "";

                /**
                 * JobDrains drains.
                 * @member {Array.<platform.agent.v1.DrainSpec.$Properties>} drains
                 * @memberof platform.agent.v1.JobDrains
                 * @instance
                 */
                JobDrains.prototype.drains = $util.emptyArray;

                /**
                 * Creates a new JobDrains instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.JobDrains
                 * @static
                 * @param {platform.agent.v1.JobDrains.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.JobDrains} JobDrains instance
                 * @type {{
                 *   (properties: platform.agent.v1.JobDrains.$Shape): platform.agent.v1.JobDrains & platform.agent.v1.JobDrains.$Shape;
                 *   (properties?: platform.agent.v1.JobDrains.$Properties): platform.agent.v1.JobDrains;
                 * }}
                 */
                JobDrains.create = function(properties) {
                    return new JobDrains(properties);
                };

                /**
                 * Encodes the specified JobDrains message. Does not implicitly {@link platform.agent.v1.JobDrains.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.JobDrains
                 * @static
                 * @param {platform.agent.v1.JobDrains.$Properties} m JobDrains message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                JobDrains.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.jobUuid != null && $Object.hasOwnProperty.call(m, "jobUuid") && m.jobUuid !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.jobUuid);
                    if (m.jobFqn != null && $Object.hasOwnProperty.call(m, "jobFqn") && m.jobFqn !== "")
                        w.uint32(/* id 2, wireType 2 =*/18).string(m.jobFqn);
                    if (m.drains != null && m.drains.length) {
                        for (var i = 0; i < m.drains.length; ++i)
                            $root.platform.agent.v1.DrainSpec.encode(m.drains[i], w.uint32(/* id 3, wireType 2 =*/26).fork(), q + 1).ldelim();
                    }
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a JobDrains message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.JobDrains
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.JobDrains & platform.agent.v1.JobDrains.$Shape} JobDrains
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                JobDrains.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.JobDrains();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.jobUuid = v;
                                else
                                    delete m.jobUuid;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.jobFqn = v;
                                else
                                    delete m.jobFqn;
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if (!(m.drains && m.drains.length))
                                    m.drains = [];
                                m.drains.push($root.platform.agent.v1.DrainSpec.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a JobDrains message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.JobDrains
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.JobDrains} JobDrains
                 */
                JobDrains.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.JobDrains)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.JobDrains: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.JobDrains();
                    if (d.jobUuid != null) {
                        if (typeof d.jobUuid !== "string" || d.jobUuid.length) {
                            m.jobUuid = $String(d.jobUuid);
                        }
                    }
                    if (d.jobFqn != null) {
                        if (typeof d.jobFqn !== "string" || d.jobFqn.length) {
                            m.jobFqn = $String(d.jobFqn);
                        }
                    }
                    if (d.drains) {
                        if (!$Array.isArray(d.drains))
                            throw $TypeError(".platform.agent.v1.JobDrains.drains: array expected");
                        m.drains = $Array(d.drains.length);
                        for (var i = 0; i < d.drains.length; ++i) {
                            if (!$util.isObject(d.drains[i]))
                                throw $TypeError(".platform.agent.v1.JobDrains.drains: object expected");
                            m.drains[i] = $root.platform.agent.v1.DrainSpec.fromObject(d.drains[i], q + 1);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a JobDrains message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.JobDrains
                 * @static
                 * @param {platform.agent.v1.JobDrains} m JobDrains
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                JobDrains.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.drains = [];
                    }
                    if (o.defaults) {
                        d.jobUuid = "";
                        d.jobFqn = "";
                    }
                    if (m.jobUuid != null && $Object.hasOwnProperty.call(m, "jobUuid")) {
                        d.jobUuid = m.jobUuid;
                    }
                    if (m.jobFqn != null && $Object.hasOwnProperty.call(m, "jobFqn")) {
                        d.jobFqn = m.jobFqn;
                    }
                    if (m.drains && m.drains.length) {
                        d.drains = $Array(m.drains.length);
                        for (var j = 0; j < m.drains.length; ++j) {
                            d.drains[j] = $root.platform.agent.v1.DrainSpec.toObject(m.drains[j], o, q + 1);
                        }
                    }
                    return d;
                };

                /**
                 * Converts this JobDrains to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.JobDrains
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                JobDrains.prototype.toJSON = function() {
                    return JobDrains.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for JobDrains
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.JobDrains
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                JobDrains.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.JobDrains";
                };

                return JobDrains;
            })();

            v1.LinkTargets = (function() {

                /**
                 * Properties of a LinkTargets.
                 * @typedef {Object} platform.agent.v1.LinkTargets.$Properties
                 * @property {string|null} [targetJobUuid] LinkTargets targetJobUuid
                 * @property {number|null} [targetPort] LinkTargets targetPort
                 * @property {Array.<string>|null} [addresses] LinkTargets addresses
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a LinkTargets.
                 * @memberof platform.agent.v1
                 * @interface ILinkTargets
                 * @augments platform.agent.v1.LinkTargets.$Properties
                 * @deprecated Use platform.agent.v1.LinkTargets.$Properties instead.
                 */

                /**
                 * Shape of a LinkTargets.
                 * @typedef {platform.agent.v1.LinkTargets.$Properties} platform.agent.v1.LinkTargets.$Shape
                 */

                /**
                 * Constructs a new LinkTargets.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a LinkTargets.
                 * @constructor
                 * @param {platform.agent.v1.LinkTargets.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const LinkTargets = function (p) {
                    this.addresses = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * LinkTargets targetJobUuid.
                 * @member {string} targetJobUuid
                 * @memberof platform.agent.v1.LinkTargets
                 * @instance
                 */
                LinkTargets.prototype.targetJobUuid = "";

                /**
                 * LinkTargets targetPort.
                 * @member {number} targetPort
                 * @memberof platform.agent.v1.LinkTargets
                 * @instance
                 */
                LinkTargets.prototype.targetPort = 0;

                /**
                 * LinkTargets addresses.
                 * @member {Array.<string>} addresses
                 * @memberof platform.agent.v1.LinkTargets
                 * @instance
                 */
                LinkTargets.prototype.addresses = $util.emptyArray;

                /**
                 * Creates a new LinkTargets instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.LinkTargets
                 * @static
                 * @param {platform.agent.v1.LinkTargets.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.LinkTargets} LinkTargets instance
                 * @type {{
                 *   (properties: platform.agent.v1.LinkTargets.$Shape): platform.agent.v1.LinkTargets & platform.agent.v1.LinkTargets.$Shape;
                 *   (properties?: platform.agent.v1.LinkTargets.$Properties): platform.agent.v1.LinkTargets;
                 * }}
                 */
                LinkTargets.create = function(properties) {
                    return new LinkTargets(properties);
                };

                /**
                 * Encodes the specified LinkTargets message. Does not implicitly {@link platform.agent.v1.LinkTargets.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.LinkTargets
                 * @static
                 * @param {platform.agent.v1.LinkTargets.$Properties} m LinkTargets message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                LinkTargets.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.targetJobUuid != null && $Object.hasOwnProperty.call(m, "targetJobUuid") && m.targetJobUuid !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.targetJobUuid);
                    if (m.targetPort != null && $Object.hasOwnProperty.call(m, "targetPort") && m.targetPort !== 0)
                        w.uint32(/* id 2, wireType 0 =*/16).uint32(m.targetPort);
                    if (m.addresses != null && m.addresses.length) {
                        for (var i = 0; i < m.addresses.length; ++i)
                            w.uint32(/* id 3, wireType 2 =*/26).string(m.addresses[i]);
                    }
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a LinkTargets message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.LinkTargets
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.LinkTargets & platform.agent.v1.LinkTargets.$Shape} LinkTargets
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                LinkTargets.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.LinkTargets();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.targetJobUuid = v;
                                else
                                    delete m.targetJobUuid;
                                continue;
                            }
                        case 2: {
                                if (u !== 0)
                                    break;
                                if (v = r.uint32())
                                    m.targetPort = v;
                                else
                                    delete m.targetPort;
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if (!(m.addresses && m.addresses.length))
                                    m.addresses = [];
                                m.addresses.push(r.stringVerify());
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a LinkTargets message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.LinkTargets
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.LinkTargets} LinkTargets
                 */
                LinkTargets.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.LinkTargets)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.LinkTargets: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.LinkTargets();
                    if (d.targetJobUuid != null) {
                        if (typeof d.targetJobUuid !== "string" || d.targetJobUuid.length) {
                            m.targetJobUuid = $String(d.targetJobUuid);
                        }
                    }
                    if (d.targetPort != null) {
                        if ($Number(d.targetPort) !== 0) {
                            m.targetPort = d.targetPort >>> 0;
                        }
                    }
                    if (d.addresses) {
                        if (!$Array.isArray(d.addresses))
                            throw $TypeError(".platform.agent.v1.LinkTargets.addresses: array expected");
                        m.addresses = $Array(d.addresses.length);
                        for (var i = 0; i < d.addresses.length; ++i) {
                            m.addresses[i] = $String(d.addresses[i]);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a LinkTargets message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.LinkTargets
                 * @static
                 * @param {platform.agent.v1.LinkTargets} m LinkTargets
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                LinkTargets.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.addresses = [];
                    }
                    if (o.defaults) {
                        d.targetJobUuid = "";
                        d.targetPort = 0;
                    }
                    if (m.targetJobUuid != null && $Object.hasOwnProperty.call(m, "targetJobUuid")) {
                        d.targetJobUuid = m.targetJobUuid;
                    }
                    if (m.targetPort != null && $Object.hasOwnProperty.call(m, "targetPort")) {
                        d.targetPort = m.targetPort;
                    }
                    if (m.addresses && m.addresses.length) {
                        d.addresses = $Array(m.addresses.length);
                        for (var j = 0; j < m.addresses.length; ++j) {
                            d.addresses[j] = m.addresses[j];
                        }
                    }
                    return d;
                };

                /**
                 * Converts this LinkTargets to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.LinkTargets
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                LinkTargets.prototype.toJSON = function() {
                    return LinkTargets.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for LinkTargets
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.LinkTargets
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                LinkTargets.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.LinkTargets";
                };

                return LinkTargets;
            })();

            v1.FlushLogs = (function() {

                /**
                 * Properties of a FlushLogs.
                 * @typedef {Object} platform.agent.v1.FlushLogs.$Properties
                 * @property {string|null} [requestId] FlushLogs requestId
                 * @property {string|null} [instanceUuid] FlushLogs instanceUuid
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a FlushLogs.
                 * @memberof platform.agent.v1
                 * @interface IFlushLogs
                 * @augments platform.agent.v1.FlushLogs.$Properties
                 * @deprecated Use platform.agent.v1.FlushLogs.$Properties instead.
                 */

                /**
                 * Shape of a FlushLogs.
                 * @typedef {platform.agent.v1.FlushLogs.$Properties} platform.agent.v1.FlushLogs.$Shape
                 */

                /**
                 * Constructs a new FlushLogs.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a FlushLogs.
                 * @constructor
                 * @param {platform.agent.v1.FlushLogs.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const FlushLogs = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * FlushLogs requestId.
                 * @member {string} requestId
                 * @memberof platform.agent.v1.FlushLogs
                 * @instance
                 */
                FlushLogs.prototype.requestId = "";

                /**
                 * FlushLogs instanceUuid.
                 * @member {string} instanceUuid
                 * @memberof platform.agent.v1.FlushLogs
                 * @instance
                 */
                FlushLogs.prototype.instanceUuid = "";

                /**
                 * Creates a new FlushLogs instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.FlushLogs
                 * @static
                 * @param {platform.agent.v1.FlushLogs.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.FlushLogs} FlushLogs instance
                 * @type {{
                 *   (properties: platform.agent.v1.FlushLogs.$Shape): platform.agent.v1.FlushLogs & platform.agent.v1.FlushLogs.$Shape;
                 *   (properties?: platform.agent.v1.FlushLogs.$Properties): platform.agent.v1.FlushLogs;
                 * }}
                 */
                FlushLogs.create = function(properties) {
                    return new FlushLogs(properties);
                };

                /**
                 * Encodes the specified FlushLogs message. Does not implicitly {@link platform.agent.v1.FlushLogs.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.FlushLogs
                 * @static
                 * @param {platform.agent.v1.FlushLogs.$Properties} m FlushLogs message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                FlushLogs.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.requestId != null && $Object.hasOwnProperty.call(m, "requestId") && m.requestId !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.requestId);
                    if (m.instanceUuid != null && $Object.hasOwnProperty.call(m, "instanceUuid") && m.instanceUuid !== "")
                        w.uint32(/* id 2, wireType 2 =*/18).string(m.instanceUuid);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a FlushLogs message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.FlushLogs
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.FlushLogs & platform.agent.v1.FlushLogs.$Shape} FlushLogs
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                FlushLogs.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.FlushLogs();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.requestId = v;
                                else
                                    delete m.requestId;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.instanceUuid = v;
                                else
                                    delete m.instanceUuid;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a FlushLogs message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.FlushLogs
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.FlushLogs} FlushLogs
                 */
                FlushLogs.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.FlushLogs)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.FlushLogs: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.FlushLogs();
                    if (d.requestId != null) {
                        if (typeof d.requestId !== "string" || d.requestId.length) {
                            m.requestId = $String(d.requestId);
                        }
                    }
                    if (d.instanceUuid != null) {
                        if (typeof d.instanceUuid !== "string" || d.instanceUuid.length) {
                            m.instanceUuid = $String(d.instanceUuid);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a FlushLogs message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.FlushLogs
                 * @static
                 * @param {platform.agent.v1.FlushLogs} m FlushLogs
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                FlushLogs.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.requestId = "";
                        d.instanceUuid = "";
                    }
                    if (m.requestId != null && $Object.hasOwnProperty.call(m, "requestId")) {
                        d.requestId = m.requestId;
                    }
                    if (m.instanceUuid != null && $Object.hasOwnProperty.call(m, "instanceUuid")) {
                        d.instanceUuid = m.instanceUuid;
                    }
                    return d;
                };

                /**
                 * Converts this FlushLogs to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.FlushLogs
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                FlushLogs.prototype.toJSON = function() {
                    return FlushLogs.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for FlushLogs
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.FlushLogs
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                FlushLogs.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.FlushLogs";
                };

                return FlushLogs;
            })();

            v1.Snapshot = (function() {

                /**
                 * Properties of a Snapshot.
                 * @typedef {Object} platform.agent.v1.Snapshot.$Properties
                 * @property {string|null} [requestId] Snapshot requestId
                 * @property {string|null} [instanceUuid] Snapshot instanceUuid
                 * @property {string|null} [directory] Snapshot directory
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a Snapshot.
                 * @memberof platform.agent.v1
                 * @interface ISnapshot
                 * @augments platform.agent.v1.Snapshot.$Properties
                 * @deprecated Use platform.agent.v1.Snapshot.$Properties instead.
                 */

                /**
                 * Shape of a Snapshot.
                 * @typedef {platform.agent.v1.Snapshot.$Properties} platform.agent.v1.Snapshot.$Shape
                 */

                /**
                 * Constructs a new Snapshot.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a Snapshot.
                 * @constructor
                 * @param {platform.agent.v1.Snapshot.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const Snapshot = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * Snapshot requestId.
                 * @member {string} requestId
                 * @memberof platform.agent.v1.Snapshot
                 * @instance
                 */
                Snapshot.prototype.requestId = "";

                /**
                 * Snapshot instanceUuid.
                 * @member {string} instanceUuid
                 * @memberof platform.agent.v1.Snapshot
                 * @instance
                 */
                Snapshot.prototype.instanceUuid = "";

                /**
                 * Snapshot directory.
                 * @member {string} directory
                 * @memberof platform.agent.v1.Snapshot
                 * @instance
                 */
                Snapshot.prototype.directory = "";

                /**
                 * Creates a new Snapshot instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.Snapshot
                 * @static
                 * @param {platform.agent.v1.Snapshot.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.Snapshot} Snapshot instance
                 * @type {{
                 *   (properties: platform.agent.v1.Snapshot.$Shape): platform.agent.v1.Snapshot & platform.agent.v1.Snapshot.$Shape;
                 *   (properties?: platform.agent.v1.Snapshot.$Properties): platform.agent.v1.Snapshot;
                 * }}
                 */
                Snapshot.create = function(properties) {
                    return new Snapshot(properties);
                };

                /**
                 * Encodes the specified Snapshot message. Does not implicitly {@link platform.agent.v1.Snapshot.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.Snapshot
                 * @static
                 * @param {platform.agent.v1.Snapshot.$Properties} m Snapshot message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                Snapshot.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.requestId != null && $Object.hasOwnProperty.call(m, "requestId") && m.requestId !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.requestId);
                    if (m.instanceUuid != null && $Object.hasOwnProperty.call(m, "instanceUuid") && m.instanceUuid !== "")
                        w.uint32(/* id 2, wireType 2 =*/18).string(m.instanceUuid);
                    if (m.directory != null && $Object.hasOwnProperty.call(m, "directory") && m.directory !== "")
                        w.uint32(/* id 3, wireType 2 =*/26).string(m.directory);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a Snapshot message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.Snapshot
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.Snapshot & platform.agent.v1.Snapshot.$Shape} Snapshot
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                Snapshot.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.Snapshot();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.requestId = v;
                                else
                                    delete m.requestId;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.instanceUuid = v;
                                else
                                    delete m.instanceUuid;
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.directory = v;
                                else
                                    delete m.directory;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a Snapshot message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.Snapshot
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.Snapshot} Snapshot
                 */
                Snapshot.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.Snapshot)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.Snapshot: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.Snapshot();
                    if (d.requestId != null) {
                        if (typeof d.requestId !== "string" || d.requestId.length) {
                            m.requestId = $String(d.requestId);
                        }
                    }
                    if (d.instanceUuid != null) {
                        if (typeof d.instanceUuid !== "string" || d.instanceUuid.length) {
                            m.instanceUuid = $String(d.instanceUuid);
                        }
                    }
                    if (d.directory != null) {
                        if (typeof d.directory !== "string" || d.directory.length) {
                            m.directory = $String(d.directory);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a Snapshot message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.Snapshot
                 * @static
                 * @param {platform.agent.v1.Snapshot} m Snapshot
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                Snapshot.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.requestId = "";
                        d.instanceUuid = "";
                        d.directory = "";
                    }
                    if (m.requestId != null && $Object.hasOwnProperty.call(m, "requestId")) {
                        d.requestId = m.requestId;
                    }
                    if (m.instanceUuid != null && $Object.hasOwnProperty.call(m, "instanceUuid")) {
                        d.instanceUuid = m.instanceUuid;
                    }
                    if (m.directory != null && $Object.hasOwnProperty.call(m, "directory")) {
                        d.directory = m.directory;
                    }
                    return d;
                };

                /**
                 * Converts this Snapshot to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.Snapshot
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                Snapshot.prototype.toJSON = function() {
                    return Snapshot.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for Snapshot
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.Snapshot
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                Snapshot.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.Snapshot";
                };

                return Snapshot;
            })();

            v1.Welcome = (function() {

                /**
                 * Properties of a Welcome.
                 * @typedef {Object} platform.agent.v1.Welcome.$Properties
                 * @property {string|null} [refused] Welcome refused
                 * @property {number|null} [heartbeatIntervalMs] Welcome heartbeatIntervalMs
                 * @property {string|null} [controllerId] Welcome controllerId
                 * @property {Array.<string>|null} [adopt] Welcome adopt
                 * @property {Array.<string>|null} [stop] Welcome stop
                 * @property {string|null} [instanceSubnet] Welcome instanceSubnet
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a Welcome.
                 * @memberof platform.agent.v1
                 * @interface IWelcome
                 * @augments platform.agent.v1.Welcome.$Properties
                 * @deprecated Use platform.agent.v1.Welcome.$Properties instead.
                 */

                /**
                 * Shape of a Welcome.
                 * @typedef {platform.agent.v1.Welcome.$Properties} platform.agent.v1.Welcome.$Shape
                 */

                /**
                 * Constructs a new Welcome.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a Welcome.
                 * @constructor
                 * @param {platform.agent.v1.Welcome.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const Welcome = function (p) {
                    this.adopt = [];
                    this.stop = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * Welcome refused.
                 * @member {string} refused
                 * @memberof platform.agent.v1.Welcome
                 * @instance
                 */
                Welcome.prototype.refused = "";

                /**
                 * Welcome heartbeatIntervalMs.
                 * @member {number} heartbeatIntervalMs
                 * @memberof platform.agent.v1.Welcome
                 * @instance
                 */
                Welcome.prototype.heartbeatIntervalMs = 0;

                /**
                 * Welcome controllerId.
                 * @member {string} controllerId
                 * @memberof platform.agent.v1.Welcome
                 * @instance
                 */
                Welcome.prototype.controllerId = "";

                /**
                 * Welcome adopt.
                 * @member {Array.<string>} adopt
                 * @memberof platform.agent.v1.Welcome
                 * @instance
                 */
                Welcome.prototype.adopt = $util.emptyArray;

                /**
                 * Welcome stop.
                 * @member {Array.<string>} stop
                 * @memberof platform.agent.v1.Welcome
                 * @instance
                 */
                Welcome.prototype.stop = $util.emptyArray;

                /**
                 * Welcome instanceSubnet.
                 * @member {string} instanceSubnet
                 * @memberof platform.agent.v1.Welcome
                 * @instance
                 */
                Welcome.prototype.instanceSubnet = "";

                /**
                 * Creates a new Welcome instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.Welcome
                 * @static
                 * @param {platform.agent.v1.Welcome.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.Welcome} Welcome instance
                 * @type {{
                 *   (properties: platform.agent.v1.Welcome.$Shape): platform.agent.v1.Welcome & platform.agent.v1.Welcome.$Shape;
                 *   (properties?: platform.agent.v1.Welcome.$Properties): platform.agent.v1.Welcome;
                 * }}
                 */
                Welcome.create = function(properties) {
                    return new Welcome(properties);
                };

                /**
                 * Encodes the specified Welcome message. Does not implicitly {@link platform.agent.v1.Welcome.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.Welcome
                 * @static
                 * @param {platform.agent.v1.Welcome.$Properties} m Welcome message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                Welcome.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.refused != null && $Object.hasOwnProperty.call(m, "refused") && m.refused !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.refused);
                    if (m.heartbeatIntervalMs != null && $Object.hasOwnProperty.call(m, "heartbeatIntervalMs") && m.heartbeatIntervalMs !== 0)
                        w.uint32(/* id 2, wireType 0 =*/16).uint32(m.heartbeatIntervalMs);
                    if (m.controllerId != null && $Object.hasOwnProperty.call(m, "controllerId") && m.controllerId !== "")
                        w.uint32(/* id 3, wireType 2 =*/26).string(m.controllerId);
                    if (m.adopt != null && m.adopt.length) {
                        for (var i = 0; i < m.adopt.length; ++i)
                            w.uint32(/* id 4, wireType 2 =*/34).string(m.adopt[i]);
                    }
                    if (m.stop != null && m.stop.length) {
                        for (var i = 0; i < m.stop.length; ++i)
                            w.uint32(/* id 5, wireType 2 =*/42).string(m.stop[i]);
                    }
                    if (m.instanceSubnet != null && $Object.hasOwnProperty.call(m, "instanceSubnet") && m.instanceSubnet !== "")
                        w.uint32(/* id 6, wireType 2 =*/50).string(m.instanceSubnet);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a Welcome message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.Welcome
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.Welcome & platform.agent.v1.Welcome.$Shape} Welcome
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                Welcome.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.Welcome();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.refused = v;
                                else
                                    delete m.refused;
                                continue;
                            }
                        case 2: {
                                if (u !== 0)
                                    break;
                                if (v = r.uint32())
                                    m.heartbeatIntervalMs = v;
                                else
                                    delete m.heartbeatIntervalMs;
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.controllerId = v;
                                else
                                    delete m.controllerId;
                                continue;
                            }
                        case 4: {
                                if (u !== 2)
                                    break;
                                if (!(m.adopt && m.adopt.length))
                                    m.adopt = [];
                                m.adopt.push(r.stringVerify());
                                continue;
                            }
                        case 5: {
                                if (u !== 2)
                                    break;
                                if (!(m.stop && m.stop.length))
                                    m.stop = [];
                                m.stop.push(r.stringVerify());
                                continue;
                            }
                        case 6: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.instanceSubnet = v;
                                else
                                    delete m.instanceSubnet;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a Welcome message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.Welcome
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.Welcome} Welcome
                 */
                Welcome.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.Welcome)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.Welcome: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.Welcome();
                    if (d.refused != null) {
                        if (typeof d.refused !== "string" || d.refused.length) {
                            m.refused = $String(d.refused);
                        }
                    }
                    if (d.heartbeatIntervalMs != null) {
                        if ($Number(d.heartbeatIntervalMs) !== 0) {
                            m.heartbeatIntervalMs = d.heartbeatIntervalMs >>> 0;
                        }
                    }
                    if (d.controllerId != null) {
                        if (typeof d.controllerId !== "string" || d.controllerId.length) {
                            m.controllerId = $String(d.controllerId);
                        }
                    }
                    if (d.adopt) {
                        if (!$Array.isArray(d.adopt))
                            throw $TypeError(".platform.agent.v1.Welcome.adopt: array expected");
                        m.adopt = $Array(d.adopt.length);
                        for (var i = 0; i < d.adopt.length; ++i) {
                            m.adopt[i] = $String(d.adopt[i]);
                        }
                    }
                    if (d.stop) {
                        if (!$Array.isArray(d.stop))
                            throw $TypeError(".platform.agent.v1.Welcome.stop: array expected");
                        m.stop = $Array(d.stop.length);
                        for (var i = 0; i < d.stop.length; ++i) {
                            m.stop[i] = $String(d.stop[i]);
                        }
                    }
                    if (d.instanceSubnet != null) {
                        if (typeof d.instanceSubnet !== "string" || d.instanceSubnet.length) {
                            m.instanceSubnet = $String(d.instanceSubnet);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a Welcome message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.Welcome
                 * @static
                 * @param {platform.agent.v1.Welcome} m Welcome
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                Welcome.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.adopt = [];
                        d.stop = [];
                    }
                    if (o.defaults) {
                        d.refused = "";
                        d.heartbeatIntervalMs = 0;
                        d.controllerId = "";
                        d.instanceSubnet = "";
                    }
                    if (m.refused != null && $Object.hasOwnProperty.call(m, "refused")) {
                        d.refused = m.refused;
                    }
                    if (m.heartbeatIntervalMs != null && $Object.hasOwnProperty.call(m, "heartbeatIntervalMs")) {
                        d.heartbeatIntervalMs = m.heartbeatIntervalMs;
                    }
                    if (m.controllerId != null && $Object.hasOwnProperty.call(m, "controllerId")) {
                        d.controllerId = m.controllerId;
                    }
                    if (m.adopt && m.adopt.length) {
                        d.adopt = $Array(m.adopt.length);
                        for (var j = 0; j < m.adopt.length; ++j) {
                            d.adopt[j] = m.adopt[j];
                        }
                    }
                    if (m.stop && m.stop.length) {
                        d.stop = $Array(m.stop.length);
                        for (var j = 0; j < m.stop.length; ++j) {
                            d.stop[j] = m.stop[j];
                        }
                    }
                    if (m.instanceSubnet != null && $Object.hasOwnProperty.call(m, "instanceSubnet")) {
                        d.instanceSubnet = m.instanceSubnet;
                    }
                    return d;
                };

                /**
                 * Converts this Welcome to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.Welcome
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                Welcome.prototype.toJSON = function() {
                    return Welcome.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for Welcome
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.Welcome
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                Welcome.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.Welcome";
                };

                return Welcome;
            })();

            v1.StartInstance = (function() {

                /**
                 * Properties of a StartInstance.
                 * @typedef {Object} platform.agent.v1.StartInstance.$Properties
                 * @property {platform.agent.v1.InstanceSpec.$Properties|null} [spec] StartInstance spec
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a StartInstance.
                 * @memberof platform.agent.v1
                 * @interface IStartInstance
                 * @augments platform.agent.v1.StartInstance.$Properties
                 * @deprecated Use platform.agent.v1.StartInstance.$Properties instead.
                 */

                /**
                 * Shape of a StartInstance.
                 * @typedef {platform.agent.v1.StartInstance.$Properties} platform.agent.v1.StartInstance.$Shape
                 */

                /**
                 * Constructs a new StartInstance.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a StartInstance.
                 * @constructor
                 * @param {platform.agent.v1.StartInstance.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const StartInstance = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * StartInstance spec.
                 * @member {platform.agent.v1.InstanceSpec.$Properties|null|undefined} spec
                 * @memberof platform.agent.v1.StartInstance
                 * @instance
                 */
                StartInstance.prototype.spec = null;

                /**
                 * Creates a new StartInstance instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.StartInstance
                 * @static
                 * @param {platform.agent.v1.StartInstance.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.StartInstance} StartInstance instance
                 * @type {{
                 *   (properties: platform.agent.v1.StartInstance.$Shape): platform.agent.v1.StartInstance & platform.agent.v1.StartInstance.$Shape;
                 *   (properties?: platform.agent.v1.StartInstance.$Properties): platform.agent.v1.StartInstance;
                 * }}
                 */
                StartInstance.create = function(properties) {
                    return new StartInstance(properties);
                };

                /**
                 * Encodes the specified StartInstance message. Does not implicitly {@link platform.agent.v1.StartInstance.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.StartInstance
                 * @static
                 * @param {platform.agent.v1.StartInstance.$Properties} m StartInstance message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                StartInstance.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.spec != null && $Object.hasOwnProperty.call(m, "spec"))
                        $root.platform.agent.v1.InstanceSpec.encode(m.spec, w.uint32(/* id 1, wireType 2 =*/10).fork(), q + 1).ldelim();
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a StartInstance message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.StartInstance
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.StartInstance & platform.agent.v1.StartInstance.$Shape} StartInstance
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                StartInstance.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.StartInstance();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                m.spec = $root.platform.agent.v1.InstanceSpec.decode(r, r.size(), $undefined, q + 1, m.spec);
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a StartInstance message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.StartInstance
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.StartInstance} StartInstance
                 */
                StartInstance.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.StartInstance)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.StartInstance: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.StartInstance();
                    if (d.spec != null) {
                        if (!$util.isObject(d.spec))
                            throw $TypeError(".platform.agent.v1.StartInstance.spec: object expected");
                        m.spec = $root.platform.agent.v1.InstanceSpec.fromObject(d.spec, q + 1);
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a StartInstance message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.StartInstance
                 * @static
                 * @param {platform.agent.v1.StartInstance} m StartInstance
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                StartInstance.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.spec = null;
                    }
                    if (m.spec != null && $Object.hasOwnProperty.call(m, "spec")) {
                        d.spec = $root.platform.agent.v1.InstanceSpec.toObject(m.spec, o, q + 1);
                    }
                    return d;
                };

                /**
                 * Converts this StartInstance to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.StartInstance
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                StartInstance.prototype.toJSON = function() {
                    return StartInstance.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for StartInstance
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.StartInstance
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                StartInstance.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.StartInstance";
                };

                return StartInstance;
            })();

            v1.StopInstance = (function() {

                /**
                 * Properties of a StopInstance.
                 * @typedef {Object} platform.agent.v1.StopInstance.$Properties
                 * @property {string|null} [instanceUuid] StopInstance instanceUuid
                 * @property {string|null} [reason] StopInstance reason
                 * @property {boolean|null} [force] StopInstance force
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a StopInstance.
                 * @memberof platform.agent.v1
                 * @interface IStopInstance
                 * @augments platform.agent.v1.StopInstance.$Properties
                 * @deprecated Use platform.agent.v1.StopInstance.$Properties instead.
                 */

                /**
                 * Shape of a StopInstance.
                 * @typedef {platform.agent.v1.StopInstance.$Properties} platform.agent.v1.StopInstance.$Shape
                 */

                /**
                 * Constructs a new StopInstance.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a StopInstance.
                 * @constructor
                 * @param {platform.agent.v1.StopInstance.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const StopInstance = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * StopInstance instanceUuid.
                 * @member {string} instanceUuid
                 * @memberof platform.agent.v1.StopInstance
                 * @instance
                 */
                StopInstance.prototype.instanceUuid = "";

                /**
                 * StopInstance reason.
                 * @member {string} reason
                 * @memberof platform.agent.v1.StopInstance
                 * @instance
                 */
                StopInstance.prototype.reason = "";

                /**
                 * StopInstance force.
                 * @member {boolean} force
                 * @memberof platform.agent.v1.StopInstance
                 * @instance
                 */
                StopInstance.prototype.force = false;

                /**
                 * Creates a new StopInstance instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.StopInstance
                 * @static
                 * @param {platform.agent.v1.StopInstance.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.StopInstance} StopInstance instance
                 * @type {{
                 *   (properties: platform.agent.v1.StopInstance.$Shape): platform.agent.v1.StopInstance & platform.agent.v1.StopInstance.$Shape;
                 *   (properties?: platform.agent.v1.StopInstance.$Properties): platform.agent.v1.StopInstance;
                 * }}
                 */
                StopInstance.create = function(properties) {
                    return new StopInstance(properties);
                };

                /**
                 * Encodes the specified StopInstance message. Does not implicitly {@link platform.agent.v1.StopInstance.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.StopInstance
                 * @static
                 * @param {platform.agent.v1.StopInstance.$Properties} m StopInstance message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                StopInstance.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.instanceUuid != null && $Object.hasOwnProperty.call(m, "instanceUuid") && m.instanceUuid !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.instanceUuid);
                    if (m.reason != null && $Object.hasOwnProperty.call(m, "reason") && m.reason !== "")
                        w.uint32(/* id 2, wireType 2 =*/18).string(m.reason);
                    if (m.force != null && $Object.hasOwnProperty.call(m, "force") && m.force !== false)
                        w.uint32(/* id 3, wireType 0 =*/24).bool(m.force);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a StopInstance message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.StopInstance
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.StopInstance & platform.agent.v1.StopInstance.$Shape} StopInstance
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                StopInstance.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.StopInstance();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.instanceUuid = v;
                                else
                                    delete m.instanceUuid;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.reason = v;
                                else
                                    delete m.reason;
                                continue;
                            }
                        case 3: {
                                if (u !== 0)
                                    break;
                                if (v = r.bool())
                                    m.force = v;
                                else
                                    delete m.force;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a StopInstance message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.StopInstance
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.StopInstance} StopInstance
                 */
                StopInstance.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.StopInstance)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.StopInstance: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.StopInstance();
                    if (d.instanceUuid != null) {
                        if (typeof d.instanceUuid !== "string" || d.instanceUuid.length) {
                            m.instanceUuid = $String(d.instanceUuid);
                        }
                    }
                    if (d.reason != null) {
                        if (typeof d.reason !== "string" || d.reason.length) {
                            m.reason = $String(d.reason);
                        }
                    }
                    if (d.force != null) {
                        if (d.force) {
                            m.force = $Boolean(d.force);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a StopInstance message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.StopInstance
                 * @static
                 * @param {platform.agent.v1.StopInstance} m StopInstance
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                StopInstance.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.instanceUuid = "";
                        d.reason = "";
                        d.force = false;
                    }
                    if (m.instanceUuid != null && $Object.hasOwnProperty.call(m, "instanceUuid")) {
                        d.instanceUuid = m.instanceUuid;
                    }
                    if (m.reason != null && $Object.hasOwnProperty.call(m, "reason")) {
                        d.reason = m.reason;
                    }
                    if (m.force != null && $Object.hasOwnProperty.call(m, "force")) {
                        d.force = m.force;
                    }
                    return d;
                };

                /**
                 * Converts this StopInstance to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.StopInstance
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                StopInstance.prototype.toJSON = function() {
                    return StopInstance.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for StopInstance
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.StopInstance
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                StopInstance.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.StopInstance";
                };

                return StopInstance;
            })();

            v1.ListFiles = (function() {

                /**
                 * Properties of a ListFiles.
                 * @typedef {Object} platform.agent.v1.ListFiles.$Properties
                 * @property {string|null} [requestId] ListFiles requestId
                 * @property {string|null} [instanceUuid] ListFiles instanceUuid
                 * @property {string|null} [path] ListFiles path
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a ListFiles.
                 * @memberof platform.agent.v1
                 * @interface IListFiles
                 * @augments platform.agent.v1.ListFiles.$Properties
                 * @deprecated Use platform.agent.v1.ListFiles.$Properties instead.
                 */

                /**
                 * Shape of a ListFiles.
                 * @typedef {platform.agent.v1.ListFiles.$Properties} platform.agent.v1.ListFiles.$Shape
                 */

                /**
                 * Constructs a new ListFiles.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a ListFiles.
                 * @constructor
                 * @param {platform.agent.v1.ListFiles.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const ListFiles = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * ListFiles requestId.
                 * @member {string} requestId
                 * @memberof platform.agent.v1.ListFiles
                 * @instance
                 */
                ListFiles.prototype.requestId = "";

                /**
                 * ListFiles instanceUuid.
                 * @member {string} instanceUuid
                 * @memberof platform.agent.v1.ListFiles
                 * @instance
                 */
                ListFiles.prototype.instanceUuid = "";

                /**
                 * ListFiles path.
                 * @member {string} path
                 * @memberof platform.agent.v1.ListFiles
                 * @instance
                 */
                ListFiles.prototype.path = "";

                /**
                 * Creates a new ListFiles instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.ListFiles
                 * @static
                 * @param {platform.agent.v1.ListFiles.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.ListFiles} ListFiles instance
                 * @type {{
                 *   (properties: platform.agent.v1.ListFiles.$Shape): platform.agent.v1.ListFiles & platform.agent.v1.ListFiles.$Shape;
                 *   (properties?: platform.agent.v1.ListFiles.$Properties): platform.agent.v1.ListFiles;
                 * }}
                 */
                ListFiles.create = function(properties) {
                    return new ListFiles(properties);
                };

                /**
                 * Encodes the specified ListFiles message. Does not implicitly {@link platform.agent.v1.ListFiles.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.ListFiles
                 * @static
                 * @param {platform.agent.v1.ListFiles.$Properties} m ListFiles message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                ListFiles.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.requestId != null && $Object.hasOwnProperty.call(m, "requestId") && m.requestId !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.requestId);
                    if (m.instanceUuid != null && $Object.hasOwnProperty.call(m, "instanceUuid") && m.instanceUuid !== "")
                        w.uint32(/* id 2, wireType 2 =*/18).string(m.instanceUuid);
                    if (m.path != null && $Object.hasOwnProperty.call(m, "path") && m.path !== "")
                        w.uint32(/* id 3, wireType 2 =*/26).string(m.path);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a ListFiles message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.ListFiles
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.ListFiles & platform.agent.v1.ListFiles.$Shape} ListFiles
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                ListFiles.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.ListFiles();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.requestId = v;
                                else
                                    delete m.requestId;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.instanceUuid = v;
                                else
                                    delete m.instanceUuid;
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.path = v;
                                else
                                    delete m.path;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a ListFiles message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.ListFiles
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.ListFiles} ListFiles
                 */
                ListFiles.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.ListFiles)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.ListFiles: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.ListFiles();
                    if (d.requestId != null) {
                        if (typeof d.requestId !== "string" || d.requestId.length) {
                            m.requestId = $String(d.requestId);
                        }
                    }
                    if (d.instanceUuid != null) {
                        if (typeof d.instanceUuid !== "string" || d.instanceUuid.length) {
                            m.instanceUuid = $String(d.instanceUuid);
                        }
                    }
                    if (d.path != null) {
                        if (typeof d.path !== "string" || d.path.length) {
                            m.path = $String(d.path);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a ListFiles message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.ListFiles
                 * @static
                 * @param {platform.agent.v1.ListFiles} m ListFiles
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                ListFiles.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.requestId = "";
                        d.instanceUuid = "";
                        d.path = "";
                    }
                    if (m.requestId != null && $Object.hasOwnProperty.call(m, "requestId")) {
                        d.requestId = m.requestId;
                    }
                    if (m.instanceUuid != null && $Object.hasOwnProperty.call(m, "instanceUuid")) {
                        d.instanceUuid = m.instanceUuid;
                    }
                    if (m.path != null && $Object.hasOwnProperty.call(m, "path")) {
                        d.path = m.path;
                    }
                    return d;
                };

                /**
                 * Converts this ListFiles to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.ListFiles
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                ListFiles.prototype.toJSON = function() {
                    return ListFiles.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for ListFiles
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.ListFiles
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                ListFiles.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.ListFiles";
                };

                return ListFiles;
            })();

            v1.InstanceSpec = (function() {

                /**
                 * Properties of an InstanceSpec.
                 * @typedef {Object} platform.agent.v1.InstanceSpec.$Properties
                 * @property {string|null} [instanceUuid] InstanceSpec instanceUuid
                 * @property {string|null} [jobUuid] InstanceSpec jobUuid
                 * @property {string|null} [jobFqn] InstanceSpec jobFqn
                 * @property {number|null} [jobVersionId] InstanceSpec jobVersionId
                 * @property {Array.<platform.agent.v1.PackageSpec.$Properties>|null} [packages] InstanceSpec packages
                 * @property {platform.agent.v1.ProcessSpec.$Properties|null} [process] InstanceSpec process
                 * @property {Array.<platform.agent.v1.PortSpec.$Properties>|null} [ports] InstanceSpec ports
                 * @property {platform.agent.v1.Resources.$Properties|null} [resources] InstanceSpec resources
                 * @property {Array.<platform.agent.v1.LogSpec.$Properties>|null} [logs] InstanceSpec logs
                 * @property {Object.<string,string>|null} [environment] InstanceSpec environment
                 * @property {string|null} [stagerUrl] InstanceSpec stagerUrl
                 * @property {Array.<platform.agent.v1.PackageSpec.$Properties>|null} [stagerfs] InstanceSpec stagerfs
                 * @property {Array.<platform.agent.v1.LinkSpec.$Properties>|null} [links] InstanceSpec links
                 * @property {Array.<platform.agent.v1.DrainSpec.$Properties>|null} [drains] InstanceSpec drains
                 * @property {platform.agent.v1.NetworkSpec.$Properties|null} [network] InstanceSpec network
                 * @property {Array.<platform.agent.v1.PlatformFile.$Properties>|null} [files] InstanceSpec files
                 * @property {Array.<platform.agent.v1.EgressRule.$Properties>|null} [egress] InstanceSpec egress
                 * @property {Array.<string>|null} [endpoints] InstanceSpec endpoints
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of an InstanceSpec.
                 * @memberof platform.agent.v1
                 * @interface IInstanceSpec
                 * @augments platform.agent.v1.InstanceSpec.$Properties
                 * @deprecated Use platform.agent.v1.InstanceSpec.$Properties instead.
                 */

                /**
                 * Shape of an InstanceSpec.
                 * @typedef {platform.agent.v1.InstanceSpec.$Properties} platform.agent.v1.InstanceSpec.$Shape
                 */

                /**
                 * Constructs a new InstanceSpec.
                 * @memberof platform.agent.v1
                 * @classdesc Represents an InstanceSpec.
                 * @constructor
                 * @param {platform.agent.v1.InstanceSpec.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const InstanceSpec = function (p) {
                    this.packages = [];
                    this.ports = [];
                    this.logs = [];
                    this.environment = {};
                    this.stagerfs = [];
                    this.links = [];
                    this.drains = [];
                    this.files = [];
                    this.egress = [];
                    this.endpoints = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * InstanceSpec instanceUuid.
                 * @member {string} instanceUuid
                 * @memberof platform.agent.v1.InstanceSpec
                 * @instance
                 */
                InstanceSpec.prototype.instanceUuid = "";

                /**
                 * InstanceSpec jobUuid.
                 * @member {string} jobUuid
                 * @memberof platform.agent.v1.InstanceSpec
                 * @instance
                 */
                InstanceSpec.prototype.jobUuid = "";

                /**
                 * InstanceSpec jobFqn.
                 * @member {string} jobFqn
                 * @memberof platform.agent.v1.InstanceSpec
                 * @instance
                 */
                InstanceSpec.prototype.jobFqn = "";

                /**
                 * InstanceSpec jobVersionId.
                 * @member {number} jobVersionId
                 * @memberof platform.agent.v1.InstanceSpec
                 * @instance
                 */
                InstanceSpec.prototype.jobVersionId = 0;

                /**
                 * InstanceSpec packages.
                 * @member {Array.<platform.agent.v1.PackageSpec.$Properties>} packages
                 * @memberof platform.agent.v1.InstanceSpec
                 * @instance
                 */
                InstanceSpec.prototype.packages = $util.emptyArray;

                /**
                 * InstanceSpec process.
                 * @member {platform.agent.v1.ProcessSpec.$Properties|null|undefined} process
                 * @memberof platform.agent.v1.InstanceSpec
                 * @instance
                 */
                InstanceSpec.prototype.process = null;

                /**
                 * InstanceSpec ports.
                 * @member {Array.<platform.agent.v1.PortSpec.$Properties>} ports
                 * @memberof platform.agent.v1.InstanceSpec
                 * @instance
                 */
                InstanceSpec.prototype.ports = $util.emptyArray;

                /**
                 * InstanceSpec resources.
                 * @member {platform.agent.v1.Resources.$Properties|null|undefined} resources
                 * @memberof platform.agent.v1.InstanceSpec
                 * @instance
                 */
                InstanceSpec.prototype.resources = null;

                /**
                 * InstanceSpec logs.
                 * @member {Array.<platform.agent.v1.LogSpec.$Properties>} logs
                 * @memberof platform.agent.v1.InstanceSpec
                 * @instance
                 */
                InstanceSpec.prototype.logs = $util.emptyArray;

                /**
                 * InstanceSpec environment.
                 * @member {Object.<string,string>} environment
                 * @memberof platform.agent.v1.InstanceSpec
                 * @instance
                 */
                InstanceSpec.prototype.environment = $util.emptyObject;

                /**
                 * InstanceSpec stagerUrl.
                 * @member {string} stagerUrl
                 * @memberof platform.agent.v1.InstanceSpec
                 * @instance
                 */
                InstanceSpec.prototype.stagerUrl = "";

                /**
                 * InstanceSpec stagerfs.
                 * @member {Array.<platform.agent.v1.PackageSpec.$Properties>} stagerfs
                 * @memberof platform.agent.v1.InstanceSpec
                 * @instance
                 */
                InstanceSpec.prototype.stagerfs = $util.emptyArray;

                /**
                 * InstanceSpec links.
                 * @member {Array.<platform.agent.v1.LinkSpec.$Properties>} links
                 * @memberof platform.agent.v1.InstanceSpec
                 * @instance
                 */
                InstanceSpec.prototype.links = $util.emptyArray;

                /**
                 * InstanceSpec drains.
                 * @member {Array.<platform.agent.v1.DrainSpec.$Properties>} drains
                 * @memberof platform.agent.v1.InstanceSpec
                 * @instance
                 */
                InstanceSpec.prototype.drains = $util.emptyArray;

                /**
                 * InstanceSpec network.
                 * @member {platform.agent.v1.NetworkSpec.$Properties|null|undefined} network
                 * @memberof platform.agent.v1.InstanceSpec
                 * @instance
                 */
                InstanceSpec.prototype.network = null;

                /**
                 * InstanceSpec files.
                 * @member {Array.<platform.agent.v1.PlatformFile.$Properties>} files
                 * @memberof platform.agent.v1.InstanceSpec
                 * @instance
                 */
                InstanceSpec.prototype.files = $util.emptyArray;

                /**
                 * InstanceSpec egress.
                 * @member {Array.<platform.agent.v1.EgressRule.$Properties>} egress
                 * @memberof platform.agent.v1.InstanceSpec
                 * @instance
                 */
                InstanceSpec.prototype.egress = $util.emptyArray;

                /**
                 * InstanceSpec endpoints.
                 * @member {Array.<string>} endpoints
                 * @memberof platform.agent.v1.InstanceSpec
                 * @instance
                 */
                InstanceSpec.prototype.endpoints = $util.emptyArray;

                /**
                 * Creates a new InstanceSpec instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.InstanceSpec
                 * @static
                 * @param {platform.agent.v1.InstanceSpec.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.InstanceSpec} InstanceSpec instance
                 * @type {{
                 *   (properties: platform.agent.v1.InstanceSpec.$Shape): platform.agent.v1.InstanceSpec & platform.agent.v1.InstanceSpec.$Shape;
                 *   (properties?: platform.agent.v1.InstanceSpec.$Properties): platform.agent.v1.InstanceSpec;
                 * }}
                 */
                InstanceSpec.create = function(properties) {
                    return new InstanceSpec(properties);
                };

                /**
                 * Encodes the specified InstanceSpec message. Does not implicitly {@link platform.agent.v1.InstanceSpec.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.InstanceSpec
                 * @static
                 * @param {platform.agent.v1.InstanceSpec.$Properties} m InstanceSpec message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                InstanceSpec.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.instanceUuid != null && $Object.hasOwnProperty.call(m, "instanceUuid") && m.instanceUuid !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.instanceUuid);
                    if (m.jobUuid != null && $Object.hasOwnProperty.call(m, "jobUuid") && m.jobUuid !== "")
                        w.uint32(/* id 2, wireType 2 =*/18).string(m.jobUuid);
                    if (m.jobFqn != null && $Object.hasOwnProperty.call(m, "jobFqn") && m.jobFqn !== "")
                        w.uint32(/* id 3, wireType 2 =*/26).string(m.jobFqn);
                    if (m.jobVersionId != null && $Object.hasOwnProperty.call(m, "jobVersionId") && !$Object.is(m.jobVersionId, 0))
                        w.uint32(/* id 4, wireType 1 =*/33).double(m.jobVersionId);
                    if (m.packages != null && m.packages.length) {
                        for (var i = 0; i < m.packages.length; ++i)
                            $root.platform.agent.v1.PackageSpec.encode(m.packages[i], w.uint32(/* id 5, wireType 2 =*/42).fork(), q + 1).ldelim();
                    }
                    if (m.process != null && $Object.hasOwnProperty.call(m, "process"))
                        $root.platform.agent.v1.ProcessSpec.encode(m.process, w.uint32(/* id 6, wireType 2 =*/50).fork(), q + 1).ldelim();
                    if (m.ports != null && m.ports.length) {
                        for (var i = 0; i < m.ports.length; ++i)
                            $root.platform.agent.v1.PortSpec.encode(m.ports[i], w.uint32(/* id 7, wireType 2 =*/58).fork(), q + 1).ldelim();
                    }
                    if (m.resources != null && $Object.hasOwnProperty.call(m, "resources"))
                        $root.platform.agent.v1.Resources.encode(m.resources, w.uint32(/* id 8, wireType 2 =*/66).fork(), q + 1).ldelim();
                    if (m.logs != null && m.logs.length) {
                        for (var i = 0; i < m.logs.length; ++i)
                            $root.platform.agent.v1.LogSpec.encode(m.logs[i], w.uint32(/* id 9, wireType 2 =*/74).fork(), q + 1).ldelim();
                    }
                    if (m.environment != null && $Object.hasOwnProperty.call(m, "environment")) {
                        for (var ks = $Object.keys(m.environment), i = 0; i < ks.length; ++i) {
                            w.uint32(/* id 10, wireType 2 =*/82).fork().uint32(/* id 1, wireType 2 =*/10).string(ks[i]).uint32(/* id 2, wireType 2 =*/18).string(m.environment[ks[i]]).ldelim();
                        }
                    }
                    if (m.stagerUrl != null && $Object.hasOwnProperty.call(m, "stagerUrl") && m.stagerUrl !== "")
                        w.uint32(/* id 11, wireType 2 =*/90).string(m.stagerUrl);
                    if (m.stagerfs != null && m.stagerfs.length) {
                        for (var i = 0; i < m.stagerfs.length; ++i)
                            $root.platform.agent.v1.PackageSpec.encode(m.stagerfs[i], w.uint32(/* id 12, wireType 2 =*/98).fork(), q + 1).ldelim();
                    }
                    if (m.links != null && m.links.length) {
                        for (var i = 0; i < m.links.length; ++i)
                            $root.platform.agent.v1.LinkSpec.encode(m.links[i], w.uint32(/* id 13, wireType 2 =*/106).fork(), q + 1).ldelim();
                    }
                    if (m.drains != null && m.drains.length) {
                        for (var i = 0; i < m.drains.length; ++i)
                            $root.platform.agent.v1.DrainSpec.encode(m.drains[i], w.uint32(/* id 14, wireType 2 =*/114).fork(), q + 1).ldelim();
                    }
                    if (m.network != null && $Object.hasOwnProperty.call(m, "network"))
                        $root.platform.agent.v1.NetworkSpec.encode(m.network, w.uint32(/* id 15, wireType 2 =*/122).fork(), q + 1).ldelim();
                    if (m.egress != null && m.egress.length) {
                        for (var i = 0; i < m.egress.length; ++i)
                            $root.platform.agent.v1.EgressRule.encode(m.egress[i], w.uint32(/* id 16, wireType 2 =*/130).fork(), q + 1).ldelim();
                    }
                    if (m.endpoints != null && m.endpoints.length) {
                        for (var i = 0; i < m.endpoints.length; ++i)
                            w.uint32(/* id 17, wireType 2 =*/138).string(m.endpoints[i]);
                    }
                    if (m.files != null && m.files.length) {
                        for (var i = 0; i < m.files.length; ++i)
                            $root.platform.agent.v1.PlatformFile.encode(m.files[i], w.uint32(/* id 20, wireType 2 =*/162).fork(), q + 1).ldelim();
                    }
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes an InstanceSpec message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.InstanceSpec
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.InstanceSpec & platform.agent.v1.InstanceSpec.$Shape} InstanceSpec
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                InstanceSpec.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, k, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.InstanceSpec();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.instanceUuid = v;
                                else
                                    delete m.instanceUuid;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.jobUuid = v;
                                else
                                    delete m.jobUuid;
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.jobFqn = v;
                                else
                                    delete m.jobFqn;
                                continue;
                            }
                        case 4: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.jobVersionId = v;
                                else
                                    delete m.jobVersionId;
                                continue;
                            }
                        case 5: {
                                if (u !== 2)
                                    break;
                                if (!(m.packages && m.packages.length))
                                    m.packages = [];
                                m.packages.push($root.platform.agent.v1.PackageSpec.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        case 6: {
                                if (u !== 2)
                                    break;
                                m.process = $root.platform.agent.v1.ProcessSpec.decode(r, r.size(), $undefined, q + 1, m.process);
                                continue;
                            }
                        case 7: {
                                if (u !== 2)
                                    break;
                                if (!(m.ports && m.ports.length))
                                    m.ports = [];
                                m.ports.push($root.platform.agent.v1.PortSpec.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        case 8: {
                                if (u !== 2)
                                    break;
                                m.resources = $root.platform.agent.v1.Resources.decode(r, r.size(), $undefined, q + 1, m.resources);
                                continue;
                            }
                        case 9: {
                                if (u !== 2)
                                    break;
                                if (!(m.logs && m.logs.length))
                                    m.logs = [];
                                m.logs.push($root.platform.agent.v1.LogSpec.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        case 10: {
                                if (u !== 2)
                                    break;
                                if (m.environment === $util.emptyObject)
                                    m.environment = {};
                                var c2 = r.size() + r.pos;
                                if (c2 > r.len)
                                    throw $RangeError("index out of range");
                                r.len = c2;
                                k = "";
                                v = "";
                                while (r.pos < c2) {
                                    var t2 = r.tag();
                                    u = t2 & 7;
                                    switch (t2 >>>= 3) {
                                    case 1:
                                        if (u !== 2)
                                            break;
                                        k = r.stringVerify();
                                        continue;
                                    case 2:
                                        if (u !== 2)
                                            break;
                                        v = r.stringVerify();
                                        continue;
                                    }
                                    r.skipType(u, q, t2);
                                }
                                if (r.pos !== c2)
                                    throw $RangeError("index out of range");
                                r.len = c;
                                if (k === "__proto__")
                                    $util.makeProp(m.environment, k);
                                m.environment[k] = v;
                                continue;
                            }
                        case 11: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.stagerUrl = v;
                                else
                                    delete m.stagerUrl;
                                continue;
                            }
                        case 12: {
                                if (u !== 2)
                                    break;
                                if (!(m.stagerfs && m.stagerfs.length))
                                    m.stagerfs = [];
                                m.stagerfs.push($root.platform.agent.v1.PackageSpec.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        case 13: {
                                if (u !== 2)
                                    break;
                                if (!(m.links && m.links.length))
                                    m.links = [];
                                m.links.push($root.platform.agent.v1.LinkSpec.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        case 14: {
                                if (u !== 2)
                                    break;
                                if (!(m.drains && m.drains.length))
                                    m.drains = [];
                                m.drains.push($root.platform.agent.v1.DrainSpec.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        case 15: {
                                if (u !== 2)
                                    break;
                                m.network = $root.platform.agent.v1.NetworkSpec.decode(r, r.size(), $undefined, q + 1, m.network);
                                continue;
                            }
                        case 20: {
                                if (u !== 2)
                                    break;
                                if (!(m.files && m.files.length))
                                    m.files = [];
                                m.files.push($root.platform.agent.v1.PlatformFile.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        case 16: {
                                if (u !== 2)
                                    break;
                                if (!(m.egress && m.egress.length))
                                    m.egress = [];
                                m.egress.push($root.platform.agent.v1.EgressRule.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        case 17: {
                                if (u !== 2)
                                    break;
                                if (!(m.endpoints && m.endpoints.length))
                                    m.endpoints = [];
                                m.endpoints.push(r.stringVerify());
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates an InstanceSpec message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.InstanceSpec
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.InstanceSpec} InstanceSpec
                 */
                InstanceSpec.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.InstanceSpec)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.InstanceSpec: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.InstanceSpec();
                    if (d.instanceUuid != null) {
                        if (typeof d.instanceUuid !== "string" || d.instanceUuid.length) {
                            m.instanceUuid = $String(d.instanceUuid);
                        }
                    }
                    if (d.jobUuid != null) {
                        if (typeof d.jobUuid !== "string" || d.jobUuid.length) {
                            m.jobUuid = $String(d.jobUuid);
                        }
                    }
                    if (d.jobFqn != null) {
                        if (typeof d.jobFqn !== "string" || d.jobFqn.length) {
                            m.jobFqn = $String(d.jobFqn);
                        }
                    }
                    if (d.jobVersionId != null) {
                        if (!$Object.is($Number(d.jobVersionId), 0)) {
                            m.jobVersionId = $Number(d.jobVersionId);
                        }
                    }
                    if (d.packages) {
                        if (!$Array.isArray(d.packages))
                            throw $TypeError(".platform.agent.v1.InstanceSpec.packages: array expected");
                        m.packages = $Array(d.packages.length);
                        for (var i = 0; i < d.packages.length; ++i) {
                            if (!$util.isObject(d.packages[i]))
                                throw $TypeError(".platform.agent.v1.InstanceSpec.packages: object expected");
                            m.packages[i] = $root.platform.agent.v1.PackageSpec.fromObject(d.packages[i], q + 1);
                        }
                    }
                    if (d.process != null) {
                        if (!$util.isObject(d.process))
                            throw $TypeError(".platform.agent.v1.InstanceSpec.process: object expected");
                        m.process = $root.platform.agent.v1.ProcessSpec.fromObject(d.process, q + 1);
                    }
                    if (d.ports) {
                        if (!$Array.isArray(d.ports))
                            throw $TypeError(".platform.agent.v1.InstanceSpec.ports: array expected");
                        m.ports = $Array(d.ports.length);
                        for (var i = 0; i < d.ports.length; ++i) {
                            if (!$util.isObject(d.ports[i]))
                                throw $TypeError(".platform.agent.v1.InstanceSpec.ports: object expected");
                            m.ports[i] = $root.platform.agent.v1.PortSpec.fromObject(d.ports[i], q + 1);
                        }
                    }
                    if (d.resources != null) {
                        if (!$util.isObject(d.resources))
                            throw $TypeError(".platform.agent.v1.InstanceSpec.resources: object expected");
                        m.resources = $root.platform.agent.v1.Resources.fromObject(d.resources, q + 1);
                    }
                    if (d.logs) {
                        if (!$Array.isArray(d.logs))
                            throw $TypeError(".platform.agent.v1.InstanceSpec.logs: array expected");
                        m.logs = $Array(d.logs.length);
                        for (var i = 0; i < d.logs.length; ++i) {
                            if (!$util.isObject(d.logs[i]))
                                throw $TypeError(".platform.agent.v1.InstanceSpec.logs: object expected");
                            m.logs[i] = $root.platform.agent.v1.LogSpec.fromObject(d.logs[i], q + 1);
                        }
                    }
                    if (d.environment) {
                        if (!$util.isObject(d.environment))
                            throw $TypeError(".platform.agent.v1.InstanceSpec.environment: object expected");
                        m.environment = {};
                        for (var ks = $Object.keys(d.environment), i = 0; i < ks.length; ++i) {
                            if (ks[i] === "__proto__")
                                $util.makeProp(m.environment, ks[i]);
                            m.environment[ks[i]] = $String(d.environment[ks[i]]);
                        }
                    }
                    if (d.stagerUrl != null) {
                        if (typeof d.stagerUrl !== "string" || d.stagerUrl.length) {
                            m.stagerUrl = $String(d.stagerUrl);
                        }
                    }
                    if (d.stagerfs) {
                        if (!$Array.isArray(d.stagerfs))
                            throw $TypeError(".platform.agent.v1.InstanceSpec.stagerfs: array expected");
                        m.stagerfs = $Array(d.stagerfs.length);
                        for (var i = 0; i < d.stagerfs.length; ++i) {
                            if (!$util.isObject(d.stagerfs[i]))
                                throw $TypeError(".platform.agent.v1.InstanceSpec.stagerfs: object expected");
                            m.stagerfs[i] = $root.platform.agent.v1.PackageSpec.fromObject(d.stagerfs[i], q + 1);
                        }
                    }
                    if (d.links) {
                        if (!$Array.isArray(d.links))
                            throw $TypeError(".platform.agent.v1.InstanceSpec.links: array expected");
                        m.links = $Array(d.links.length);
                        for (var i = 0; i < d.links.length; ++i) {
                            if (!$util.isObject(d.links[i]))
                                throw $TypeError(".platform.agent.v1.InstanceSpec.links: object expected");
                            m.links[i] = $root.platform.agent.v1.LinkSpec.fromObject(d.links[i], q + 1);
                        }
                    }
                    if (d.drains) {
                        if (!$Array.isArray(d.drains))
                            throw $TypeError(".platform.agent.v1.InstanceSpec.drains: array expected");
                        m.drains = $Array(d.drains.length);
                        for (var i = 0; i < d.drains.length; ++i) {
                            if (!$util.isObject(d.drains[i]))
                                throw $TypeError(".platform.agent.v1.InstanceSpec.drains: object expected");
                            m.drains[i] = $root.platform.agent.v1.DrainSpec.fromObject(d.drains[i], q + 1);
                        }
                    }
                    if (d.network != null) {
                        if (!$util.isObject(d.network))
                            throw $TypeError(".platform.agent.v1.InstanceSpec.network: object expected");
                        m.network = $root.platform.agent.v1.NetworkSpec.fromObject(d.network, q + 1);
                    }
                    if (d.files) {
                        if (!$Array.isArray(d.files))
                            throw $TypeError(".platform.agent.v1.InstanceSpec.files: array expected");
                        m.files = $Array(d.files.length);
                        for (var i = 0; i < d.files.length; ++i) {
                            if (!$util.isObject(d.files[i]))
                                throw $TypeError(".platform.agent.v1.InstanceSpec.files: object expected");
                            m.files[i] = $root.platform.agent.v1.PlatformFile.fromObject(d.files[i], q + 1);
                        }
                    }
                    if (d.egress) {
                        if (!$Array.isArray(d.egress))
                            throw $TypeError(".platform.agent.v1.InstanceSpec.egress: array expected");
                        m.egress = $Array(d.egress.length);
                        for (var i = 0; i < d.egress.length; ++i) {
                            if (!$util.isObject(d.egress[i]))
                                throw $TypeError(".platform.agent.v1.InstanceSpec.egress: object expected");
                            m.egress[i] = $root.platform.agent.v1.EgressRule.fromObject(d.egress[i], q + 1);
                        }
                    }
                    if (d.endpoints) {
                        if (!$Array.isArray(d.endpoints))
                            throw $TypeError(".platform.agent.v1.InstanceSpec.endpoints: array expected");
                        m.endpoints = $Array(d.endpoints.length);
                        for (var i = 0; i < d.endpoints.length; ++i) {
                            m.endpoints[i] = $String(d.endpoints[i]);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from an InstanceSpec message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.InstanceSpec
                 * @static
                 * @param {platform.agent.v1.InstanceSpec} m InstanceSpec
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                InstanceSpec.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.packages = [];
                        d.ports = [];
                        d.logs = [];
                        d.stagerfs = [];
                        d.links = [];
                        d.drains = [];
                        d.egress = [];
                        d.endpoints = [];
                        d.files = [];
                    }
                    if (o.objects || o.defaults) {
                        d.environment = {};
                    }
                    if (o.defaults) {
                        d.instanceUuid = "";
                        d.jobUuid = "";
                        d.jobFqn = "";
                        d.jobVersionId = 0;
                        d.process = null;
                        d.resources = null;
                        d.stagerUrl = "";
                        d.network = null;
                    }
                    if (m.instanceUuid != null && $Object.hasOwnProperty.call(m, "instanceUuid")) {
                        d.instanceUuid = m.instanceUuid;
                    }
                    if (m.jobUuid != null && $Object.hasOwnProperty.call(m, "jobUuid")) {
                        d.jobUuid = m.jobUuid;
                    }
                    if (m.jobFqn != null && $Object.hasOwnProperty.call(m, "jobFqn")) {
                        d.jobFqn = m.jobFqn;
                    }
                    if (m.jobVersionId != null && $Object.hasOwnProperty.call(m, "jobVersionId")) {
                        d.jobVersionId = o.json && !$isFinite(m.jobVersionId) ? $String(m.jobVersionId) : m.jobVersionId;
                    }
                    if (m.packages && m.packages.length) {
                        d.packages = $Array(m.packages.length);
                        for (var j = 0; j < m.packages.length; ++j) {
                            d.packages[j] = $root.platform.agent.v1.PackageSpec.toObject(m.packages[j], o, q + 1);
                        }
                    }
                    if (m.process != null && $Object.hasOwnProperty.call(m, "process")) {
                        d.process = $root.platform.agent.v1.ProcessSpec.toObject(m.process, o, q + 1);
                    }
                    if (m.ports && m.ports.length) {
                        d.ports = $Array(m.ports.length);
                        for (var j = 0; j < m.ports.length; ++j) {
                            d.ports[j] = $root.platform.agent.v1.PortSpec.toObject(m.ports[j], o, q + 1);
                        }
                    }
                    if (m.resources != null && $Object.hasOwnProperty.call(m, "resources")) {
                        d.resources = $root.platform.agent.v1.Resources.toObject(m.resources, o, q + 1);
                    }
                    if (m.logs && m.logs.length) {
                        d.logs = $Array(m.logs.length);
                        for (var j = 0; j < m.logs.length; ++j) {
                            d.logs[j] = $root.platform.agent.v1.LogSpec.toObject(m.logs[j], o, q + 1);
                        }
                    }
                    var ks2;
                    if (m.environment && (ks2 = $Object.keys(m.environment)).length) {
                        d.environment = {};
                        for (var j = 0; j < ks2.length; ++j) {
                            if (ks2[j] === "__proto__")
                                $util.makeProp(d.environment, ks2[j]);
                            d.environment[ks2[j]] = m.environment[ks2[j]];
                        }
                    }
                    if (m.stagerUrl != null && $Object.hasOwnProperty.call(m, "stagerUrl")) {
                        d.stagerUrl = m.stagerUrl;
                    }
                    if (m.stagerfs && m.stagerfs.length) {
                        d.stagerfs = $Array(m.stagerfs.length);
                        for (var j = 0; j < m.stagerfs.length; ++j) {
                            d.stagerfs[j] = $root.platform.agent.v1.PackageSpec.toObject(m.stagerfs[j], o, q + 1);
                        }
                    }
                    if (m.links && m.links.length) {
                        d.links = $Array(m.links.length);
                        for (var j = 0; j < m.links.length; ++j) {
                            d.links[j] = $root.platform.agent.v1.LinkSpec.toObject(m.links[j], o, q + 1);
                        }
                    }
                    if (m.drains && m.drains.length) {
                        d.drains = $Array(m.drains.length);
                        for (var j = 0; j < m.drains.length; ++j) {
                            d.drains[j] = $root.platform.agent.v1.DrainSpec.toObject(m.drains[j], o, q + 1);
                        }
                    }
                    if (m.network != null && $Object.hasOwnProperty.call(m, "network")) {
                        d.network = $root.platform.agent.v1.NetworkSpec.toObject(m.network, o, q + 1);
                    }
                    if (m.egress && m.egress.length) {
                        d.egress = $Array(m.egress.length);
                        for (var j = 0; j < m.egress.length; ++j) {
                            d.egress[j] = $root.platform.agent.v1.EgressRule.toObject(m.egress[j], o, q + 1);
                        }
                    }
                    if (m.endpoints && m.endpoints.length) {
                        d.endpoints = $Array(m.endpoints.length);
                        for (var j = 0; j < m.endpoints.length; ++j) {
                            d.endpoints[j] = m.endpoints[j];
                        }
                    }
                    if (m.files && m.files.length) {
                        d.files = $Array(m.files.length);
                        for (var j = 0; j < m.files.length; ++j) {
                            d.files[j] = $root.platform.agent.v1.PlatformFile.toObject(m.files[j], o, q + 1);
                        }
                    }
                    return d;
                };

                /**
                 * Converts this InstanceSpec to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.InstanceSpec
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                InstanceSpec.prototype.toJSON = function() {
                    return InstanceSpec.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for InstanceSpec
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.InstanceSpec
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                InstanceSpec.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.InstanceSpec";
                };

                return InstanceSpec;
            })();

            v1.PlatformFile = (function() {

                /**
                 * Properties of a PlatformFile.
                 * @typedef {Object} platform.agent.v1.PlatformFile.$Properties
                 * @property {string|null} [name] PlatformFile name
                 * @property {Uint8Array|null} [content] PlatformFile content
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a PlatformFile.
                 * @memberof platform.agent.v1
                 * @interface IPlatformFile
                 * @augments platform.agent.v1.PlatformFile.$Properties
                 * @deprecated Use platform.agent.v1.PlatformFile.$Properties instead.
                 */

                /**
                 * Shape of a PlatformFile.
                 * @typedef {platform.agent.v1.PlatformFile.$Properties} platform.agent.v1.PlatformFile.$Shape
                 */

                /**
                 * Constructs a new PlatformFile.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a PlatformFile.
                 * @constructor
                 * @param {platform.agent.v1.PlatformFile.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const PlatformFile = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * PlatformFile name.
                 * @member {string} name
                 * @memberof platform.agent.v1.PlatformFile
                 * @instance
                 */
                PlatformFile.prototype.name = "";

                /**
                 * PlatformFile content.
                 * @member {Uint8Array} content
                 * @memberof platform.agent.v1.PlatformFile
                 * @instance
                 */
                PlatformFile.prototype.content = $util.newBuffer([]);

                /**
                 * Creates a new PlatformFile instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.PlatformFile
                 * @static
                 * @param {platform.agent.v1.PlatformFile.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.PlatformFile} PlatformFile instance
                 * @type {{
                 *   (properties: platform.agent.v1.PlatformFile.$Shape): platform.agent.v1.PlatformFile & platform.agent.v1.PlatformFile.$Shape;
                 *   (properties?: platform.agent.v1.PlatformFile.$Properties): platform.agent.v1.PlatformFile;
                 * }}
                 */
                PlatformFile.create = function(properties) {
                    return new PlatformFile(properties);
                };

                /**
                 * Encodes the specified PlatformFile message. Does not implicitly {@link platform.agent.v1.PlatformFile.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.PlatformFile
                 * @static
                 * @param {platform.agent.v1.PlatformFile.$Properties} m PlatformFile message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                PlatformFile.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.name != null && $Object.hasOwnProperty.call(m, "name") && m.name !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.name);
                    if (m.content != null && $Object.hasOwnProperty.call(m, "content") && m.content.length)
                        w.uint32(/* id 2, wireType 2 =*/18).bytes(m.content);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a PlatformFile message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.PlatformFile
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.PlatformFile & platform.agent.v1.PlatformFile.$Shape} PlatformFile
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                PlatformFile.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.PlatformFile();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.name = v;
                                else
                                    delete m.name;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.bytes()).length)
                                    m.content = v;
                                else
                                    delete m.content;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a PlatformFile message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.PlatformFile
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.PlatformFile} PlatformFile
                 */
                PlatformFile.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.PlatformFile)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.PlatformFile: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.PlatformFile();
                    if (d.name != null) {
                        if (typeof d.name !== "string" || d.name.length) {
                            m.name = $String(d.name);
                        }
                    }
                    if (d.content != null) {
                        if (d.content.length) {
                            if (typeof d.content === "string")
                                $util.base64.decode(d.content, m.content = $util.newBuffer($util.base64.length(d.content)), 0);
                            else if (d.content.length >= 0)
                                m.content = d.content;
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a PlatformFile message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.PlatformFile
                 * @static
                 * @param {platform.agent.v1.PlatformFile} m PlatformFile
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                PlatformFile.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.name = "";
                        if (o.bytes === $String)
                            d.content = "";
                        else {
                            d.content = [];
                            if (o.bytes !== $Array)
                                d.content = $util.newBuffer(d.content);
                        }
                    }
                    if (m.name != null && $Object.hasOwnProperty.call(m, "name")) {
                        d.name = m.name;
                    }
                    if (m.content != null && $Object.hasOwnProperty.call(m, "content")) {
                        d.content = o.bytes === $String ? $util.base64.encode(m.content, 0, m.content.length) : o.bytes === $Array ? $Array.prototype.slice.call(m.content) : m.content;
                    }
                    return d;
                };

                /**
                 * Converts this PlatformFile to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.PlatformFile
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                PlatformFile.prototype.toJSON = function() {
                    return PlatformFile.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for PlatformFile
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.PlatformFile
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                PlatformFile.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.PlatformFile";
                };

                return PlatformFile;
            })();

            v1.EgressRule = (function() {

                /**
                 * Properties of an EgressRule.
                 * @typedef {Object} platform.agent.v1.EgressRule.$Properties
                 * @property {string|null} [ipnet] EgressRule ipnet
                 * @property {string|null} [domainname] EgressRule domainname
                 * @property {number|null} [portFirst] EgressRule portFirst
                 * @property {number|null} [portLast] EgressRule portLast
                 * @property {string|null} [protocol] EgressRule protocol
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of an EgressRule.
                 * @memberof platform.agent.v1
                 * @interface IEgressRule
                 * @augments platform.agent.v1.EgressRule.$Properties
                 * @deprecated Use platform.agent.v1.EgressRule.$Properties instead.
                 */

                /**
                 * Shape of an EgressRule.
                 * @typedef {platform.agent.v1.EgressRule.$Properties} platform.agent.v1.EgressRule.$Shape
                 */

                /**
                 * Constructs a new EgressRule.
                 * @memberof platform.agent.v1
                 * @classdesc Represents an EgressRule.
                 * @constructor
                 * @param {platform.agent.v1.EgressRule.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const EgressRule = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * EgressRule ipnet.
                 * @member {string} ipnet
                 * @memberof platform.agent.v1.EgressRule
                 * @instance
                 */
                EgressRule.prototype.ipnet = "";

                /**
                 * EgressRule domainname.
                 * @member {string} domainname
                 * @memberof platform.agent.v1.EgressRule
                 * @instance
                 */
                EgressRule.prototype.domainname = "";

                /**
                 * EgressRule portFirst.
                 * @member {number} portFirst
                 * @memberof platform.agent.v1.EgressRule
                 * @instance
                 */
                EgressRule.prototype.portFirst = 0;

                /**
                 * EgressRule portLast.
                 * @member {number} portLast
                 * @memberof platform.agent.v1.EgressRule
                 * @instance
                 */
                EgressRule.prototype.portLast = 0;

                /**
                 * EgressRule protocol.
                 * @member {string} protocol
                 * @memberof platform.agent.v1.EgressRule
                 * @instance
                 */
                EgressRule.prototype.protocol = "";

                /**
                 * Creates a new EgressRule instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.EgressRule
                 * @static
                 * @param {platform.agent.v1.EgressRule.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.EgressRule} EgressRule instance
                 * @type {{
                 *   (properties: platform.agent.v1.EgressRule.$Shape): platform.agent.v1.EgressRule & platform.agent.v1.EgressRule.$Shape;
                 *   (properties?: platform.agent.v1.EgressRule.$Properties): platform.agent.v1.EgressRule;
                 * }}
                 */
                EgressRule.create = function(properties) {
                    return new EgressRule(properties);
                };

                /**
                 * Encodes the specified EgressRule message. Does not implicitly {@link platform.agent.v1.EgressRule.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.EgressRule
                 * @static
                 * @param {platform.agent.v1.EgressRule.$Properties} m EgressRule message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                EgressRule.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.ipnet != null && $Object.hasOwnProperty.call(m, "ipnet") && m.ipnet !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.ipnet);
                    if (m.domainname != null && $Object.hasOwnProperty.call(m, "domainname") && m.domainname !== "")
                        w.uint32(/* id 2, wireType 2 =*/18).string(m.domainname);
                    if (m.portFirst != null && $Object.hasOwnProperty.call(m, "portFirst") && m.portFirst !== 0)
                        w.uint32(/* id 3, wireType 0 =*/24).uint32(m.portFirst);
                    if (m.portLast != null && $Object.hasOwnProperty.call(m, "portLast") && m.portLast !== 0)
                        w.uint32(/* id 4, wireType 0 =*/32).uint32(m.portLast);
                    if (m.protocol != null && $Object.hasOwnProperty.call(m, "protocol") && m.protocol !== "")
                        w.uint32(/* id 5, wireType 2 =*/42).string(m.protocol);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes an EgressRule message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.EgressRule
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.EgressRule & platform.agent.v1.EgressRule.$Shape} EgressRule
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                EgressRule.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.EgressRule();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.ipnet = v;
                                else
                                    delete m.ipnet;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.domainname = v;
                                else
                                    delete m.domainname;
                                continue;
                            }
                        case 3: {
                                if (u !== 0)
                                    break;
                                if (v = r.uint32())
                                    m.portFirst = v;
                                else
                                    delete m.portFirst;
                                continue;
                            }
                        case 4: {
                                if (u !== 0)
                                    break;
                                if (v = r.uint32())
                                    m.portLast = v;
                                else
                                    delete m.portLast;
                                continue;
                            }
                        case 5: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.protocol = v;
                                else
                                    delete m.protocol;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates an EgressRule message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.EgressRule
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.EgressRule} EgressRule
                 */
                EgressRule.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.EgressRule)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.EgressRule: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.EgressRule();
                    if (d.ipnet != null) {
                        if (typeof d.ipnet !== "string" || d.ipnet.length) {
                            m.ipnet = $String(d.ipnet);
                        }
                    }
                    if (d.domainname != null) {
                        if (typeof d.domainname !== "string" || d.domainname.length) {
                            m.domainname = $String(d.domainname);
                        }
                    }
                    if (d.portFirst != null) {
                        if ($Number(d.portFirst) !== 0) {
                            m.portFirst = d.portFirst >>> 0;
                        }
                    }
                    if (d.portLast != null) {
                        if ($Number(d.portLast) !== 0) {
                            m.portLast = d.portLast >>> 0;
                        }
                    }
                    if (d.protocol != null) {
                        if (typeof d.protocol !== "string" || d.protocol.length) {
                            m.protocol = $String(d.protocol);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from an EgressRule message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.EgressRule
                 * @static
                 * @param {platform.agent.v1.EgressRule} m EgressRule
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                EgressRule.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.ipnet = "";
                        d.domainname = "";
                        d.portFirst = 0;
                        d.portLast = 0;
                        d.protocol = "";
                    }
                    if (m.ipnet != null && $Object.hasOwnProperty.call(m, "ipnet")) {
                        d.ipnet = m.ipnet;
                    }
                    if (m.domainname != null && $Object.hasOwnProperty.call(m, "domainname")) {
                        d.domainname = m.domainname;
                    }
                    if (m.portFirst != null && $Object.hasOwnProperty.call(m, "portFirst")) {
                        d.portFirst = m.portFirst;
                    }
                    if (m.portLast != null && $Object.hasOwnProperty.call(m, "portLast")) {
                        d.portLast = m.portLast;
                    }
                    if (m.protocol != null && $Object.hasOwnProperty.call(m, "protocol")) {
                        d.protocol = m.protocol;
                    }
                    return d;
                };

                /**
                 * Converts this EgressRule to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.EgressRule
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                EgressRule.prototype.toJSON = function() {
                    return EgressRule.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for EgressRule
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.EgressRule
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                EgressRule.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.EgressRule";
                };

                return EgressRule;
            })();

            v1.JobEgress = (function() {

                /**
                 * Properties of a JobEgress.
                 * @typedef {Object} platform.agent.v1.JobEgress.$Properties
                 * @property {string|null} [jobUuid] JobEgress jobUuid
                 * @property {Array.<platform.agent.v1.EgressRule.$Properties>|null} [rules] JobEgress rules
                 * @property {Array.<string>|null} [endpoints] JobEgress endpoints
                 * @property {string|null} [requestId] JobEgress requestId
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a JobEgress.
                 * @memberof platform.agent.v1
                 * @interface IJobEgress
                 * @augments platform.agent.v1.JobEgress.$Properties
                 * @deprecated Use platform.agent.v1.JobEgress.$Properties instead.
                 */

                /**
                 * Shape of a JobEgress.
                 * @typedef {platform.agent.v1.JobEgress.$Properties} platform.agent.v1.JobEgress.$Shape
                 */

                /**
                 * Constructs a new JobEgress.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a JobEgress.
                 * @constructor
                 * @param {platform.agent.v1.JobEgress.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const JobEgress = function (p) {
                    this.rules = [];
                    this.endpoints = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * JobEgress jobUuid.
                 * @member {string} jobUuid
                 * @memberof platform.agent.v1.JobEgress
                 * @instance
                 */
                JobEgress.prototype.jobUuid = "";

                /**
                 * JobEgress rules.
                 * @member {Array.<platform.agent.v1.EgressRule.$Properties>} rules
                 * @memberof platform.agent.v1.JobEgress
                 * @instance
                 */
                JobEgress.prototype.rules = $util.emptyArray;

                /**
                 * JobEgress endpoints.
                 * @member {Array.<string>} endpoints
                 * @memberof platform.agent.v1.JobEgress
                 * @instance
                 */
                JobEgress.prototype.endpoints = $util.emptyArray;

                /**
                 * JobEgress requestId.
                 * @member {string} requestId
                 * @memberof platform.agent.v1.JobEgress
                 * @instance
                 */
                JobEgress.prototype.requestId = "";

                /**
                 * Creates a new JobEgress instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.JobEgress
                 * @static
                 * @param {platform.agent.v1.JobEgress.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.JobEgress} JobEgress instance
                 * @type {{
                 *   (properties: platform.agent.v1.JobEgress.$Shape): platform.agent.v1.JobEgress & platform.agent.v1.JobEgress.$Shape;
                 *   (properties?: platform.agent.v1.JobEgress.$Properties): platform.agent.v1.JobEgress;
                 * }}
                 */
                JobEgress.create = function(properties) {
                    return new JobEgress(properties);
                };

                /**
                 * Encodes the specified JobEgress message. Does not implicitly {@link platform.agent.v1.JobEgress.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.JobEgress
                 * @static
                 * @param {platform.agent.v1.JobEgress.$Properties} m JobEgress message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                JobEgress.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.jobUuid != null && $Object.hasOwnProperty.call(m, "jobUuid") && m.jobUuid !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.jobUuid);
                    if (m.rules != null && m.rules.length) {
                        for (var i = 0; i < m.rules.length; ++i)
                            $root.platform.agent.v1.EgressRule.encode(m.rules[i], w.uint32(/* id 2, wireType 2 =*/18).fork(), q + 1).ldelim();
                    }
                    if (m.endpoints != null && m.endpoints.length) {
                        for (var i = 0; i < m.endpoints.length; ++i)
                            w.uint32(/* id 3, wireType 2 =*/26).string(m.endpoints[i]);
                    }
                    if (m.requestId != null && $Object.hasOwnProperty.call(m, "requestId") && m.requestId !== "")
                        w.uint32(/* id 4, wireType 2 =*/34).string(m.requestId);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a JobEgress message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.JobEgress
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.JobEgress & platform.agent.v1.JobEgress.$Shape} JobEgress
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                JobEgress.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.JobEgress();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.jobUuid = v;
                                else
                                    delete m.jobUuid;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if (!(m.rules && m.rules.length))
                                    m.rules = [];
                                m.rules.push($root.platform.agent.v1.EgressRule.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if (!(m.endpoints && m.endpoints.length))
                                    m.endpoints = [];
                                m.endpoints.push(r.stringVerify());
                                continue;
                            }
                        case 4: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.requestId = v;
                                else
                                    delete m.requestId;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a JobEgress message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.JobEgress
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.JobEgress} JobEgress
                 */
                JobEgress.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.JobEgress)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.JobEgress: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.JobEgress();
                    if (d.jobUuid != null) {
                        if (typeof d.jobUuid !== "string" || d.jobUuid.length) {
                            m.jobUuid = $String(d.jobUuid);
                        }
                    }
                    if (d.rules) {
                        if (!$Array.isArray(d.rules))
                            throw $TypeError(".platform.agent.v1.JobEgress.rules: array expected");
                        m.rules = $Array(d.rules.length);
                        for (var i = 0; i < d.rules.length; ++i) {
                            if (!$util.isObject(d.rules[i]))
                                throw $TypeError(".platform.agent.v1.JobEgress.rules: object expected");
                            m.rules[i] = $root.platform.agent.v1.EgressRule.fromObject(d.rules[i], q + 1);
                        }
                    }
                    if (d.endpoints) {
                        if (!$Array.isArray(d.endpoints))
                            throw $TypeError(".platform.agent.v1.JobEgress.endpoints: array expected");
                        m.endpoints = $Array(d.endpoints.length);
                        for (var i = 0; i < d.endpoints.length; ++i) {
                            m.endpoints[i] = $String(d.endpoints[i]);
                        }
                    }
                    if (d.requestId != null) {
                        if (typeof d.requestId !== "string" || d.requestId.length) {
                            m.requestId = $String(d.requestId);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a JobEgress message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.JobEgress
                 * @static
                 * @param {platform.agent.v1.JobEgress} m JobEgress
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                JobEgress.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.rules = [];
                        d.endpoints = [];
                    }
                    if (o.defaults) {
                        d.jobUuid = "";
                        d.requestId = "";
                    }
                    if (m.jobUuid != null && $Object.hasOwnProperty.call(m, "jobUuid")) {
                        d.jobUuid = m.jobUuid;
                    }
                    if (m.rules && m.rules.length) {
                        d.rules = $Array(m.rules.length);
                        for (var j = 0; j < m.rules.length; ++j) {
                            d.rules[j] = $root.platform.agent.v1.EgressRule.toObject(m.rules[j], o, q + 1);
                        }
                    }
                    if (m.endpoints && m.endpoints.length) {
                        d.endpoints = $Array(m.endpoints.length);
                        for (var j = 0; j < m.endpoints.length; ++j) {
                            d.endpoints[j] = m.endpoints[j];
                        }
                    }
                    if (m.requestId != null && $Object.hasOwnProperty.call(m, "requestId")) {
                        d.requestId = m.requestId;
                    }
                    return d;
                };

                /**
                 * Converts this JobEgress to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.JobEgress
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                JobEgress.prototype.toJSON = function() {
                    return JobEgress.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for JobEgress
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.JobEgress
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                JobEgress.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.JobEgress";
                };

                return JobEgress;
            })();

            v1.EgressApplied = (function() {

                /**
                 * Properties of an EgressApplied.
                 * @typedef {Object} platform.agent.v1.EgressApplied.$Properties
                 * @property {string|null} [requestId] EgressApplied requestId
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of an EgressApplied.
                 * @memberof platform.agent.v1
                 * @interface IEgressApplied
                 * @augments platform.agent.v1.EgressApplied.$Properties
                 * @deprecated Use platform.agent.v1.EgressApplied.$Properties instead.
                 */

                /**
                 * Shape of an EgressApplied.
                 * @typedef {platform.agent.v1.EgressApplied.$Properties} platform.agent.v1.EgressApplied.$Shape
                 */

                /**
                 * Constructs a new EgressApplied.
                 * @memberof platform.agent.v1
                 * @classdesc Represents an EgressApplied.
                 * @constructor
                 * @param {platform.agent.v1.EgressApplied.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const EgressApplied = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * EgressApplied requestId.
                 * @member {string} requestId
                 * @memberof platform.agent.v1.EgressApplied
                 * @instance
                 */
                EgressApplied.prototype.requestId = "";

                /**
                 * Creates a new EgressApplied instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.EgressApplied
                 * @static
                 * @param {platform.agent.v1.EgressApplied.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.EgressApplied} EgressApplied instance
                 * @type {{
                 *   (properties: platform.agent.v1.EgressApplied.$Shape): platform.agent.v1.EgressApplied & platform.agent.v1.EgressApplied.$Shape;
                 *   (properties?: platform.agent.v1.EgressApplied.$Properties): platform.agent.v1.EgressApplied;
                 * }}
                 */
                EgressApplied.create = function(properties) {
                    return new EgressApplied(properties);
                };

                /**
                 * Encodes the specified EgressApplied message. Does not implicitly {@link platform.agent.v1.EgressApplied.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.EgressApplied
                 * @static
                 * @param {platform.agent.v1.EgressApplied.$Properties} m EgressApplied message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                EgressApplied.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.requestId != null && $Object.hasOwnProperty.call(m, "requestId") && m.requestId !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.requestId);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes an EgressApplied message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.EgressApplied
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.EgressApplied & platform.agent.v1.EgressApplied.$Shape} EgressApplied
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                EgressApplied.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.EgressApplied();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.requestId = v;
                                else
                                    delete m.requestId;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates an EgressApplied message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.EgressApplied
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.EgressApplied} EgressApplied
                 */
                EgressApplied.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.EgressApplied)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.EgressApplied: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.EgressApplied();
                    if (d.requestId != null) {
                        if (typeof d.requestId !== "string" || d.requestId.length) {
                            m.requestId = $String(d.requestId);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from an EgressApplied message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.EgressApplied
                 * @static
                 * @param {platform.agent.v1.EgressApplied} m EgressApplied
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                EgressApplied.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.requestId = "";
                    }
                    if (m.requestId != null && $Object.hasOwnProperty.call(m, "requestId")) {
                        d.requestId = m.requestId;
                    }
                    return d;
                };

                /**
                 * Converts this EgressApplied to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.EgressApplied
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                EgressApplied.prototype.toJSON = function() {
                    return EgressApplied.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for EgressApplied
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.EgressApplied
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                EgressApplied.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.EgressApplied";
                };

                return EgressApplied;
            })();

            v1.NetworkSpec = (function() {

                /**
                 * Properties of a NetworkSpec.
                 * @typedef {Object} platform.agent.v1.NetworkSpec.$Properties
                 * @property {string|null} [networkUuid] NetworkSpec networkUuid
                 * @property {string|null} [networkFqn] NetworkSpec networkFqn
                 * @property {string|null} [subnet] NetworkSpec subnet
                 * @property {string|null} [address] NetworkSpec address
                 * @property {string|null} [gateway] NetworkSpec gateway
                 * @property {number|null} [vni] NetworkSpec vni
                 * @property {boolean|null} [broadcastEnable] NetworkSpec broadcastEnable
                 * @property {Array.<string>|null} [routes] NetworkSpec routes
                 * @property {Array.<string>|null} [multicastRoutes] NetworkSpec multicastRoutes
                 * @property {Array.<platform.agent.v1.NetworkHost.$Properties>|null} [hosts] NetworkSpec hosts
                 * @property {Array.<string>|null} [peers] NetworkSpec peers
                 * @property {string|null} [hardwareAddress] NetworkSpec hardwareAddress
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a NetworkSpec.
                 * @memberof platform.agent.v1
                 * @interface INetworkSpec
                 * @augments platform.agent.v1.NetworkSpec.$Properties
                 * @deprecated Use platform.agent.v1.NetworkSpec.$Properties instead.
                 */

                /**
                 * Shape of a NetworkSpec.
                 * @typedef {platform.agent.v1.NetworkSpec.$Properties} platform.agent.v1.NetworkSpec.$Shape
                 */

                /**
                 * Constructs a new NetworkSpec.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a NetworkSpec.
                 * @constructor
                 * @param {platform.agent.v1.NetworkSpec.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const NetworkSpec = function (p) {
                    this.routes = [];
                    this.multicastRoutes = [];
                    this.hosts = [];
                    this.peers = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * NetworkSpec networkUuid.
                 * @member {string} networkUuid
                 * @memberof platform.agent.v1.NetworkSpec
                 * @instance
                 */
                NetworkSpec.prototype.networkUuid = "";

                /**
                 * NetworkSpec networkFqn.
                 * @member {string} networkFqn
                 * @memberof platform.agent.v1.NetworkSpec
                 * @instance
                 */
                NetworkSpec.prototype.networkFqn = "";

                /**
                 * NetworkSpec subnet.
                 * @member {string} subnet
                 * @memberof platform.agent.v1.NetworkSpec
                 * @instance
                 */
                NetworkSpec.prototype.subnet = "";

                /**
                 * NetworkSpec address.
                 * @member {string} address
                 * @memberof platform.agent.v1.NetworkSpec
                 * @instance
                 */
                NetworkSpec.prototype.address = "";

                /**
                 * NetworkSpec gateway.
                 * @member {string} gateway
                 * @memberof platform.agent.v1.NetworkSpec
                 * @instance
                 */
                NetworkSpec.prototype.gateway = "";

                /**
                 * NetworkSpec vni.
                 * @member {number} vni
                 * @memberof platform.agent.v1.NetworkSpec
                 * @instance
                 */
                NetworkSpec.prototype.vni = 0;

                /**
                 * NetworkSpec broadcastEnable.
                 * @member {boolean} broadcastEnable
                 * @memberof platform.agent.v1.NetworkSpec
                 * @instance
                 */
                NetworkSpec.prototype.broadcastEnable = false;

                /**
                 * NetworkSpec routes.
                 * @member {Array.<string>} routes
                 * @memberof platform.agent.v1.NetworkSpec
                 * @instance
                 */
                NetworkSpec.prototype.routes = $util.emptyArray;

                /**
                 * NetworkSpec multicastRoutes.
                 * @member {Array.<string>} multicastRoutes
                 * @memberof platform.agent.v1.NetworkSpec
                 * @instance
                 */
                NetworkSpec.prototype.multicastRoutes = $util.emptyArray;

                /**
                 * NetworkSpec hosts.
                 * @member {Array.<platform.agent.v1.NetworkHost.$Properties>} hosts
                 * @memberof platform.agent.v1.NetworkSpec
                 * @instance
                 */
                NetworkSpec.prototype.hosts = $util.emptyArray;

                /**
                 * NetworkSpec peers.
                 * @member {Array.<string>} peers
                 * @memberof platform.agent.v1.NetworkSpec
                 * @instance
                 */
                NetworkSpec.prototype.peers = $util.emptyArray;

                /**
                 * NetworkSpec hardwareAddress.
                 * @member {string} hardwareAddress
                 * @memberof platform.agent.v1.NetworkSpec
                 * @instance
                 */
                NetworkSpec.prototype.hardwareAddress = "";

                /**
                 * Creates a new NetworkSpec instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.NetworkSpec
                 * @static
                 * @param {platform.agent.v1.NetworkSpec.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.NetworkSpec} NetworkSpec instance
                 * @type {{
                 *   (properties: platform.agent.v1.NetworkSpec.$Shape): platform.agent.v1.NetworkSpec & platform.agent.v1.NetworkSpec.$Shape;
                 *   (properties?: platform.agent.v1.NetworkSpec.$Properties): platform.agent.v1.NetworkSpec;
                 * }}
                 */
                NetworkSpec.create = function(properties) {
                    return new NetworkSpec(properties);
                };

                /**
                 * Encodes the specified NetworkSpec message. Does not implicitly {@link platform.agent.v1.NetworkSpec.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.NetworkSpec
                 * @static
                 * @param {platform.agent.v1.NetworkSpec.$Properties} m NetworkSpec message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                NetworkSpec.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.networkUuid != null && $Object.hasOwnProperty.call(m, "networkUuid") && m.networkUuid !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.networkUuid);
                    if (m.networkFqn != null && $Object.hasOwnProperty.call(m, "networkFqn") && m.networkFqn !== "")
                        w.uint32(/* id 2, wireType 2 =*/18).string(m.networkFqn);
                    if (m.subnet != null && $Object.hasOwnProperty.call(m, "subnet") && m.subnet !== "")
                        w.uint32(/* id 3, wireType 2 =*/26).string(m.subnet);
                    if (m.address != null && $Object.hasOwnProperty.call(m, "address") && m.address !== "")
                        w.uint32(/* id 4, wireType 2 =*/34).string(m.address);
                    if (m.gateway != null && $Object.hasOwnProperty.call(m, "gateway") && m.gateway !== "")
                        w.uint32(/* id 5, wireType 2 =*/42).string(m.gateway);
                    if (m.vni != null && $Object.hasOwnProperty.call(m, "vni") && m.vni !== 0)
                        w.uint32(/* id 6, wireType 0 =*/48).uint32(m.vni);
                    if (m.broadcastEnable != null && $Object.hasOwnProperty.call(m, "broadcastEnable") && m.broadcastEnable !== false)
                        w.uint32(/* id 7, wireType 0 =*/56).bool(m.broadcastEnable);
                    if (m.routes != null && m.routes.length) {
                        for (var i = 0; i < m.routes.length; ++i)
                            w.uint32(/* id 8, wireType 2 =*/66).string(m.routes[i]);
                    }
                    if (m.hosts != null && m.hosts.length) {
                        for (var i = 0; i < m.hosts.length; ++i)
                            $root.platform.agent.v1.NetworkHost.encode(m.hosts[i], w.uint32(/* id 9, wireType 2 =*/74).fork(), q + 1).ldelim();
                    }
                    if (m.peers != null && m.peers.length) {
                        for (var i = 0; i < m.peers.length; ++i)
                            w.uint32(/* id 10, wireType 2 =*/82).string(m.peers[i]);
                    }
                    if (m.hardwareAddress != null && $Object.hasOwnProperty.call(m, "hardwareAddress") && m.hardwareAddress !== "")
                        w.uint32(/* id 11, wireType 2 =*/90).string(m.hardwareAddress);
                    if (m.multicastRoutes != null && m.multicastRoutes.length) {
                        for (var i = 0; i < m.multicastRoutes.length; ++i)
                            w.uint32(/* id 12, wireType 2 =*/98).string(m.multicastRoutes[i]);
                    }
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a NetworkSpec message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.NetworkSpec
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.NetworkSpec & platform.agent.v1.NetworkSpec.$Shape} NetworkSpec
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                NetworkSpec.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.NetworkSpec();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.networkUuid = v;
                                else
                                    delete m.networkUuid;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.networkFqn = v;
                                else
                                    delete m.networkFqn;
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.subnet = v;
                                else
                                    delete m.subnet;
                                continue;
                            }
                        case 4: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.address = v;
                                else
                                    delete m.address;
                                continue;
                            }
                        case 5: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.gateway = v;
                                else
                                    delete m.gateway;
                                continue;
                            }
                        case 6: {
                                if (u !== 0)
                                    break;
                                if (v = r.uint32())
                                    m.vni = v;
                                else
                                    delete m.vni;
                                continue;
                            }
                        case 7: {
                                if (u !== 0)
                                    break;
                                if (v = r.bool())
                                    m.broadcastEnable = v;
                                else
                                    delete m.broadcastEnable;
                                continue;
                            }
                        case 8: {
                                if (u !== 2)
                                    break;
                                if (!(m.routes && m.routes.length))
                                    m.routes = [];
                                m.routes.push(r.stringVerify());
                                continue;
                            }
                        case 12: {
                                if (u !== 2)
                                    break;
                                if (!(m.multicastRoutes && m.multicastRoutes.length))
                                    m.multicastRoutes = [];
                                m.multicastRoutes.push(r.stringVerify());
                                continue;
                            }
                        case 9: {
                                if (u !== 2)
                                    break;
                                if (!(m.hosts && m.hosts.length))
                                    m.hosts = [];
                                m.hosts.push($root.platform.agent.v1.NetworkHost.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        case 10: {
                                if (u !== 2)
                                    break;
                                if (!(m.peers && m.peers.length))
                                    m.peers = [];
                                m.peers.push(r.stringVerify());
                                continue;
                            }
                        case 11: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.hardwareAddress = v;
                                else
                                    delete m.hardwareAddress;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a NetworkSpec message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.NetworkSpec
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.NetworkSpec} NetworkSpec
                 */
                NetworkSpec.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.NetworkSpec)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.NetworkSpec: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.NetworkSpec();
                    if (d.networkUuid != null) {
                        if (typeof d.networkUuid !== "string" || d.networkUuid.length) {
                            m.networkUuid = $String(d.networkUuid);
                        }
                    }
                    if (d.networkFqn != null) {
                        if (typeof d.networkFqn !== "string" || d.networkFqn.length) {
                            m.networkFqn = $String(d.networkFqn);
                        }
                    }
                    if (d.subnet != null) {
                        if (typeof d.subnet !== "string" || d.subnet.length) {
                            m.subnet = $String(d.subnet);
                        }
                    }
                    if (d.address != null) {
                        if (typeof d.address !== "string" || d.address.length) {
                            m.address = $String(d.address);
                        }
                    }
                    if (d.gateway != null) {
                        if (typeof d.gateway !== "string" || d.gateway.length) {
                            m.gateway = $String(d.gateway);
                        }
                    }
                    if (d.vni != null) {
                        if ($Number(d.vni) !== 0) {
                            m.vni = d.vni >>> 0;
                        }
                    }
                    if (d.broadcastEnable != null) {
                        if (d.broadcastEnable) {
                            m.broadcastEnable = $Boolean(d.broadcastEnable);
                        }
                    }
                    if (d.routes) {
                        if (!$Array.isArray(d.routes))
                            throw $TypeError(".platform.agent.v1.NetworkSpec.routes: array expected");
                        m.routes = $Array(d.routes.length);
                        for (var i = 0; i < d.routes.length; ++i) {
                            m.routes[i] = $String(d.routes[i]);
                        }
                    }
                    if (d.multicastRoutes) {
                        if (!$Array.isArray(d.multicastRoutes))
                            throw $TypeError(".platform.agent.v1.NetworkSpec.multicastRoutes: array expected");
                        m.multicastRoutes = $Array(d.multicastRoutes.length);
                        for (var i = 0; i < d.multicastRoutes.length; ++i) {
                            m.multicastRoutes[i] = $String(d.multicastRoutes[i]);
                        }
                    }
                    if (d.hosts) {
                        if (!$Array.isArray(d.hosts))
                            throw $TypeError(".platform.agent.v1.NetworkSpec.hosts: array expected");
                        m.hosts = $Array(d.hosts.length);
                        for (var i = 0; i < d.hosts.length; ++i) {
                            if (!$util.isObject(d.hosts[i]))
                                throw $TypeError(".platform.agent.v1.NetworkSpec.hosts: object expected");
                            m.hosts[i] = $root.platform.agent.v1.NetworkHost.fromObject(d.hosts[i], q + 1);
                        }
                    }
                    if (d.peers) {
                        if (!$Array.isArray(d.peers))
                            throw $TypeError(".platform.agent.v1.NetworkSpec.peers: array expected");
                        m.peers = $Array(d.peers.length);
                        for (var i = 0; i < d.peers.length; ++i) {
                            m.peers[i] = $String(d.peers[i]);
                        }
                    }
                    if (d.hardwareAddress != null) {
                        if (typeof d.hardwareAddress !== "string" || d.hardwareAddress.length) {
                            m.hardwareAddress = $String(d.hardwareAddress);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a NetworkSpec message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.NetworkSpec
                 * @static
                 * @param {platform.agent.v1.NetworkSpec} m NetworkSpec
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                NetworkSpec.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.routes = [];
                        d.hosts = [];
                        d.peers = [];
                        d.multicastRoutes = [];
                    }
                    if (o.defaults) {
                        d.networkUuid = "";
                        d.networkFqn = "";
                        d.subnet = "";
                        d.address = "";
                        d.gateway = "";
                        d.vni = 0;
                        d.broadcastEnable = false;
                        d.hardwareAddress = "";
                    }
                    if (m.networkUuid != null && $Object.hasOwnProperty.call(m, "networkUuid")) {
                        d.networkUuid = m.networkUuid;
                    }
                    if (m.networkFqn != null && $Object.hasOwnProperty.call(m, "networkFqn")) {
                        d.networkFqn = m.networkFqn;
                    }
                    if (m.subnet != null && $Object.hasOwnProperty.call(m, "subnet")) {
                        d.subnet = m.subnet;
                    }
                    if (m.address != null && $Object.hasOwnProperty.call(m, "address")) {
                        d.address = m.address;
                    }
                    if (m.gateway != null && $Object.hasOwnProperty.call(m, "gateway")) {
                        d.gateway = m.gateway;
                    }
                    if (m.vni != null && $Object.hasOwnProperty.call(m, "vni")) {
                        d.vni = m.vni;
                    }
                    if (m.broadcastEnable != null && $Object.hasOwnProperty.call(m, "broadcastEnable")) {
                        d.broadcastEnable = m.broadcastEnable;
                    }
                    if (m.routes && m.routes.length) {
                        d.routes = $Array(m.routes.length);
                        for (var j = 0; j < m.routes.length; ++j) {
                            d.routes[j] = m.routes[j];
                        }
                    }
                    if (m.hosts && m.hosts.length) {
                        d.hosts = $Array(m.hosts.length);
                        for (var j = 0; j < m.hosts.length; ++j) {
                            d.hosts[j] = $root.platform.agent.v1.NetworkHost.toObject(m.hosts[j], o, q + 1);
                        }
                    }
                    if (m.peers && m.peers.length) {
                        d.peers = $Array(m.peers.length);
                        for (var j = 0; j < m.peers.length; ++j) {
                            d.peers[j] = m.peers[j];
                        }
                    }
                    if (m.hardwareAddress != null && $Object.hasOwnProperty.call(m, "hardwareAddress")) {
                        d.hardwareAddress = m.hardwareAddress;
                    }
                    if (m.multicastRoutes && m.multicastRoutes.length) {
                        d.multicastRoutes = $Array(m.multicastRoutes.length);
                        for (var j = 0; j < m.multicastRoutes.length; ++j) {
                            d.multicastRoutes[j] = m.multicastRoutes[j];
                        }
                    }
                    return d;
                };

                /**
                 * Converts this NetworkSpec to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.NetworkSpec
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                NetworkSpec.prototype.toJSON = function() {
                    return NetworkSpec.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for NetworkSpec
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.NetworkSpec
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                NetworkSpec.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.NetworkSpec";
                };

                return NetworkSpec;
            })();

            v1.DrainSpec = (function() {

                /**
                 * Properties of a DrainSpec.
                 * @typedef {Object} platform.agent.v1.DrainSpec.$Properties
                 * @property {string|null} [uuid] DrainSpec uuid
                 * @property {string|null} [url] DrainSpec url
                 * @property {number|null} [priority] DrainSpec priority
                 * @property {string|null} [protocol] DrainSpec protocol
                 * @property {number|null} [maxSize] DrainSpec maxSize
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a DrainSpec.
                 * @memberof platform.agent.v1
                 * @interface IDrainSpec
                 * @augments platform.agent.v1.DrainSpec.$Properties
                 * @deprecated Use platform.agent.v1.DrainSpec.$Properties instead.
                 */

                /**
                 * Shape of a DrainSpec.
                 * @typedef {platform.agent.v1.DrainSpec.$Properties} platform.agent.v1.DrainSpec.$Shape
                 */

                /**
                 * Constructs a new DrainSpec.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a DrainSpec.
                 * @constructor
                 * @param {platform.agent.v1.DrainSpec.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const DrainSpec = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * DrainSpec uuid.
                 * @member {string} uuid
                 * @memberof platform.agent.v1.DrainSpec
                 * @instance
                 */
                DrainSpec.prototype.uuid = "";

                /**
                 * DrainSpec url.
                 * @member {string} url
                 * @memberof platform.agent.v1.DrainSpec
                 * @instance
                 */
                DrainSpec.prototype.url = "";

                /**
                 * DrainSpec priority.
                 * @member {number} priority
                 * @memberof platform.agent.v1.DrainSpec
                 * @instance
                 */
                DrainSpec.prototype.priority = 0;

                /**
                 * DrainSpec protocol.
                 * @member {string} protocol
                 * @memberof platform.agent.v1.DrainSpec
                 * @instance
                 */
                DrainSpec.prototype.protocol = "";

                /**
                 * DrainSpec maxSize.
                 * @member {number} maxSize
                 * @memberof platform.agent.v1.DrainSpec
                 * @instance
                 */
                DrainSpec.prototype.maxSize = 0;

                /**
                 * Creates a new DrainSpec instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.DrainSpec
                 * @static
                 * @param {platform.agent.v1.DrainSpec.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.DrainSpec} DrainSpec instance
                 * @type {{
                 *   (properties: platform.agent.v1.DrainSpec.$Shape): platform.agent.v1.DrainSpec & platform.agent.v1.DrainSpec.$Shape;
                 *   (properties?: platform.agent.v1.DrainSpec.$Properties): platform.agent.v1.DrainSpec;
                 * }}
                 */
                DrainSpec.create = function(properties) {
                    return new DrainSpec(properties);
                };

                /**
                 * Encodes the specified DrainSpec message. Does not implicitly {@link platform.agent.v1.DrainSpec.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.DrainSpec
                 * @static
                 * @param {platform.agent.v1.DrainSpec.$Properties} m DrainSpec message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                DrainSpec.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.uuid != null && $Object.hasOwnProperty.call(m, "uuid") && m.uuid !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.uuid);
                    if (m.url != null && $Object.hasOwnProperty.call(m, "url") && m.url !== "")
                        w.uint32(/* id 2, wireType 2 =*/18).string(m.url);
                    if (m.priority != null && $Object.hasOwnProperty.call(m, "priority") && m.priority !== 0)
                        w.uint32(/* id 3, wireType 0 =*/24).uint32(m.priority);
                    if (m.protocol != null && $Object.hasOwnProperty.call(m, "protocol") && m.protocol !== "")
                        w.uint32(/* id 4, wireType 2 =*/34).string(m.protocol);
                    if (m.maxSize != null && $Object.hasOwnProperty.call(m, "maxSize") && m.maxSize !== 0)
                        w.uint32(/* id 5, wireType 0 =*/40).uint32(m.maxSize);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a DrainSpec message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.DrainSpec
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.DrainSpec & platform.agent.v1.DrainSpec.$Shape} DrainSpec
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                DrainSpec.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.DrainSpec();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.uuid = v;
                                else
                                    delete m.uuid;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.url = v;
                                else
                                    delete m.url;
                                continue;
                            }
                        case 3: {
                                if (u !== 0)
                                    break;
                                if (v = r.uint32())
                                    m.priority = v;
                                else
                                    delete m.priority;
                                continue;
                            }
                        case 4: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.protocol = v;
                                else
                                    delete m.protocol;
                                continue;
                            }
                        case 5: {
                                if (u !== 0)
                                    break;
                                if (v = r.uint32())
                                    m.maxSize = v;
                                else
                                    delete m.maxSize;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a DrainSpec message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.DrainSpec
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.DrainSpec} DrainSpec
                 */
                DrainSpec.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.DrainSpec)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.DrainSpec: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.DrainSpec();
                    if (d.uuid != null) {
                        if (typeof d.uuid !== "string" || d.uuid.length) {
                            m.uuid = $String(d.uuid);
                        }
                    }
                    if (d.url != null) {
                        if (typeof d.url !== "string" || d.url.length) {
                            m.url = $String(d.url);
                        }
                    }
                    if (d.priority != null) {
                        if ($Number(d.priority) !== 0) {
                            m.priority = d.priority >>> 0;
                        }
                    }
                    if (d.protocol != null) {
                        if (typeof d.protocol !== "string" || d.protocol.length) {
                            m.protocol = $String(d.protocol);
                        }
                    }
                    if (d.maxSize != null) {
                        if ($Number(d.maxSize) !== 0) {
                            m.maxSize = d.maxSize >>> 0;
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a DrainSpec message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.DrainSpec
                 * @static
                 * @param {platform.agent.v1.DrainSpec} m DrainSpec
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                DrainSpec.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.uuid = "";
                        d.url = "";
                        d.priority = 0;
                        d.protocol = "";
                        d.maxSize = 0;
                    }
                    if (m.uuid != null && $Object.hasOwnProperty.call(m, "uuid")) {
                        d.uuid = m.uuid;
                    }
                    if (m.url != null && $Object.hasOwnProperty.call(m, "url")) {
                        d.url = m.url;
                    }
                    if (m.priority != null && $Object.hasOwnProperty.call(m, "priority")) {
                        d.priority = m.priority;
                    }
                    if (m.protocol != null && $Object.hasOwnProperty.call(m, "protocol")) {
                        d.protocol = m.protocol;
                    }
                    if (m.maxSize != null && $Object.hasOwnProperty.call(m, "maxSize")) {
                        d.maxSize = m.maxSize;
                    }
                    return d;
                };

                /**
                 * Converts this DrainSpec to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.DrainSpec
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                DrainSpec.prototype.toJSON = function() {
                    return DrainSpec.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for DrainSpec
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.DrainSpec
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                DrainSpec.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.DrainSpec";
                };

                return DrainSpec;
            })();

            v1.LinkSpec = (function() {

                /**
                 * Properties of a LinkSpec.
                 * @typedef {Object} platform.agent.v1.LinkSpec.$Properties
                 * @property {string|null} [bindingUuid] LinkSpec bindingUuid
                 * @property {Array.<string>|null} [envVars] LinkSpec envVars
                 * @property {string|null} [targetJobUuid] LinkSpec targetJobUuid
                 * @property {number|null} [targetPort] LinkSpec targetPort
                 * @property {string|null} [boundIp] LinkSpec boundIp
                 * @property {number|null} [boundPort] LinkSpec boundPort
                 * @property {Array.<string>|null} [addresses] LinkSpec addresses
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a LinkSpec.
                 * @memberof platform.agent.v1
                 * @interface ILinkSpec
                 * @augments platform.agent.v1.LinkSpec.$Properties
                 * @deprecated Use platform.agent.v1.LinkSpec.$Properties instead.
                 */

                /**
                 * Shape of a LinkSpec.
                 * @typedef {platform.agent.v1.LinkSpec.$Properties} platform.agent.v1.LinkSpec.$Shape
                 */

                /**
                 * Constructs a new LinkSpec.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a LinkSpec.
                 * @constructor
                 * @param {platform.agent.v1.LinkSpec.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const LinkSpec = function (p) {
                    this.envVars = [];
                    this.addresses = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * LinkSpec bindingUuid.
                 * @member {string} bindingUuid
                 * @memberof platform.agent.v1.LinkSpec
                 * @instance
                 */
                LinkSpec.prototype.bindingUuid = "";

                /**
                 * LinkSpec envVars.
                 * @member {Array.<string>} envVars
                 * @memberof platform.agent.v1.LinkSpec
                 * @instance
                 */
                LinkSpec.prototype.envVars = $util.emptyArray;

                /**
                 * LinkSpec targetJobUuid.
                 * @member {string} targetJobUuid
                 * @memberof platform.agent.v1.LinkSpec
                 * @instance
                 */
                LinkSpec.prototype.targetJobUuid = "";

                /**
                 * LinkSpec targetPort.
                 * @member {number} targetPort
                 * @memberof platform.agent.v1.LinkSpec
                 * @instance
                 */
                LinkSpec.prototype.targetPort = 0;

                /**
                 * LinkSpec boundIp.
                 * @member {string} boundIp
                 * @memberof platform.agent.v1.LinkSpec
                 * @instance
                 */
                LinkSpec.prototype.boundIp = "";

                /**
                 * LinkSpec boundPort.
                 * @member {number} boundPort
                 * @memberof platform.agent.v1.LinkSpec
                 * @instance
                 */
                LinkSpec.prototype.boundPort = 0;

                /**
                 * LinkSpec addresses.
                 * @member {Array.<string>} addresses
                 * @memberof platform.agent.v1.LinkSpec
                 * @instance
                 */
                LinkSpec.prototype.addresses = $util.emptyArray;

                /**
                 * Creates a new LinkSpec instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.LinkSpec
                 * @static
                 * @param {platform.agent.v1.LinkSpec.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.LinkSpec} LinkSpec instance
                 * @type {{
                 *   (properties: platform.agent.v1.LinkSpec.$Shape): platform.agent.v1.LinkSpec & platform.agent.v1.LinkSpec.$Shape;
                 *   (properties?: platform.agent.v1.LinkSpec.$Properties): platform.agent.v1.LinkSpec;
                 * }}
                 */
                LinkSpec.create = function(properties) {
                    return new LinkSpec(properties);
                };

                /**
                 * Encodes the specified LinkSpec message. Does not implicitly {@link platform.agent.v1.LinkSpec.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.LinkSpec
                 * @static
                 * @param {platform.agent.v1.LinkSpec.$Properties} m LinkSpec message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                LinkSpec.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.bindingUuid != null && $Object.hasOwnProperty.call(m, "bindingUuid") && m.bindingUuid !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.bindingUuid);
                    if (m.envVars != null && m.envVars.length) {
                        for (var i = 0; i < m.envVars.length; ++i)
                            w.uint32(/* id 2, wireType 2 =*/18).string(m.envVars[i]);
                    }
                    if (m.targetJobUuid != null && $Object.hasOwnProperty.call(m, "targetJobUuid") && m.targetJobUuid !== "")
                        w.uint32(/* id 3, wireType 2 =*/26).string(m.targetJobUuid);
                    if (m.targetPort != null && $Object.hasOwnProperty.call(m, "targetPort") && m.targetPort !== 0)
                        w.uint32(/* id 4, wireType 0 =*/32).uint32(m.targetPort);
                    if (m.boundIp != null && $Object.hasOwnProperty.call(m, "boundIp") && m.boundIp !== "")
                        w.uint32(/* id 5, wireType 2 =*/42).string(m.boundIp);
                    if (m.boundPort != null && $Object.hasOwnProperty.call(m, "boundPort") && m.boundPort !== 0)
                        w.uint32(/* id 6, wireType 0 =*/48).uint32(m.boundPort);
                    if (m.addresses != null && m.addresses.length) {
                        for (var i = 0; i < m.addresses.length; ++i)
                            w.uint32(/* id 7, wireType 2 =*/58).string(m.addresses[i]);
                    }
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a LinkSpec message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.LinkSpec
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.LinkSpec & platform.agent.v1.LinkSpec.$Shape} LinkSpec
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                LinkSpec.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.LinkSpec();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.bindingUuid = v;
                                else
                                    delete m.bindingUuid;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if (!(m.envVars && m.envVars.length))
                                    m.envVars = [];
                                m.envVars.push(r.stringVerify());
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.targetJobUuid = v;
                                else
                                    delete m.targetJobUuid;
                                continue;
                            }
                        case 4: {
                                if (u !== 0)
                                    break;
                                if (v = r.uint32())
                                    m.targetPort = v;
                                else
                                    delete m.targetPort;
                                continue;
                            }
                        case 5: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.boundIp = v;
                                else
                                    delete m.boundIp;
                                continue;
                            }
                        case 6: {
                                if (u !== 0)
                                    break;
                                if (v = r.uint32())
                                    m.boundPort = v;
                                else
                                    delete m.boundPort;
                                continue;
                            }
                        case 7: {
                                if (u !== 2)
                                    break;
                                if (!(m.addresses && m.addresses.length))
                                    m.addresses = [];
                                m.addresses.push(r.stringVerify());
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a LinkSpec message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.LinkSpec
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.LinkSpec} LinkSpec
                 */
                LinkSpec.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.LinkSpec)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.LinkSpec: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.LinkSpec();
                    if (d.bindingUuid != null) {
                        if (typeof d.bindingUuid !== "string" || d.bindingUuid.length) {
                            m.bindingUuid = $String(d.bindingUuid);
                        }
                    }
                    if (d.envVars) {
                        if (!$Array.isArray(d.envVars))
                            throw $TypeError(".platform.agent.v1.LinkSpec.envVars: array expected");
                        m.envVars = $Array(d.envVars.length);
                        for (var i = 0; i < d.envVars.length; ++i) {
                            m.envVars[i] = $String(d.envVars[i]);
                        }
                    }
                    if (d.targetJobUuid != null) {
                        if (typeof d.targetJobUuid !== "string" || d.targetJobUuid.length) {
                            m.targetJobUuid = $String(d.targetJobUuid);
                        }
                    }
                    if (d.targetPort != null) {
                        if ($Number(d.targetPort) !== 0) {
                            m.targetPort = d.targetPort >>> 0;
                        }
                    }
                    if (d.boundIp != null) {
                        if (typeof d.boundIp !== "string" || d.boundIp.length) {
                            m.boundIp = $String(d.boundIp);
                        }
                    }
                    if (d.boundPort != null) {
                        if ($Number(d.boundPort) !== 0) {
                            m.boundPort = d.boundPort >>> 0;
                        }
                    }
                    if (d.addresses) {
                        if (!$Array.isArray(d.addresses))
                            throw $TypeError(".platform.agent.v1.LinkSpec.addresses: array expected");
                        m.addresses = $Array(d.addresses.length);
                        for (var i = 0; i < d.addresses.length; ++i) {
                            m.addresses[i] = $String(d.addresses[i]);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a LinkSpec message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.LinkSpec
                 * @static
                 * @param {platform.agent.v1.LinkSpec} m LinkSpec
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                LinkSpec.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.envVars = [];
                        d.addresses = [];
                    }
                    if (o.defaults) {
                        d.bindingUuid = "";
                        d.targetJobUuid = "";
                        d.targetPort = 0;
                        d.boundIp = "";
                        d.boundPort = 0;
                    }
                    if (m.bindingUuid != null && $Object.hasOwnProperty.call(m, "bindingUuid")) {
                        d.bindingUuid = m.bindingUuid;
                    }
                    if (m.envVars && m.envVars.length) {
                        d.envVars = $Array(m.envVars.length);
                        for (var j = 0; j < m.envVars.length; ++j) {
                            d.envVars[j] = m.envVars[j];
                        }
                    }
                    if (m.targetJobUuid != null && $Object.hasOwnProperty.call(m, "targetJobUuid")) {
                        d.targetJobUuid = m.targetJobUuid;
                    }
                    if (m.targetPort != null && $Object.hasOwnProperty.call(m, "targetPort")) {
                        d.targetPort = m.targetPort;
                    }
                    if (m.boundIp != null && $Object.hasOwnProperty.call(m, "boundIp")) {
                        d.boundIp = m.boundIp;
                    }
                    if (m.boundPort != null && $Object.hasOwnProperty.call(m, "boundPort")) {
                        d.boundPort = m.boundPort;
                    }
                    if (m.addresses && m.addresses.length) {
                        d.addresses = $Array(m.addresses.length);
                        for (var j = 0; j < m.addresses.length; ++j) {
                            d.addresses[j] = m.addresses[j];
                        }
                    }
                    return d;
                };

                /**
                 * Converts this LinkSpec to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.LinkSpec
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                LinkSpec.prototype.toJSON = function() {
                    return LinkSpec.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for LinkSpec
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.LinkSpec
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                LinkSpec.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.LinkSpec";
                };

                return LinkSpec;
            })();

            v1.PackageSpec = (function() {

                /**
                 * Properties of a PackageSpec.
                 * @typedef {Object} platform.agent.v1.PackageSpec.$Properties
                 * @property {string|null} [uuid] PackageSpec uuid
                 * @property {string|null} [fqn] PackageSpec fqn
                 * @property {string|null} [digest] PackageSpec digest
                 * @property {number|null} [length] PackageSpec length
                 * @property {string|null} [installPath] PackageSpec installPath
                 * @property {Object.<string,string>|null} [environment] PackageSpec environment
                 * @property {Array.<platform.agent.v1.TemplateSpec.$Properties>|null} [templates] PackageSpec templates
                 * @property {Array.<string>|null} [hostPaths] PackageSpec hostPaths
                 * @property {boolean|null} [rootFilesystem] PackageSpec rootFilesystem
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a PackageSpec.
                 * @memberof platform.agent.v1
                 * @interface IPackageSpec
                 * @augments platform.agent.v1.PackageSpec.$Properties
                 * @deprecated Use platform.agent.v1.PackageSpec.$Properties instead.
                 */

                /**
                 * Shape of a PackageSpec.
                 * @typedef {platform.agent.v1.PackageSpec.$Properties} platform.agent.v1.PackageSpec.$Shape
                 */

                /**
                 * Constructs a new PackageSpec.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a PackageSpec.
                 * @constructor
                 * @param {platform.agent.v1.PackageSpec.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const PackageSpec = function (p) {
                    this.environment = {};
                    this.templates = [];
                    this.hostPaths = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * PackageSpec uuid.
                 * @member {string} uuid
                 * @memberof platform.agent.v1.PackageSpec
                 * @instance
                 */
                PackageSpec.prototype.uuid = "";

                /**
                 * PackageSpec fqn.
                 * @member {string} fqn
                 * @memberof platform.agent.v1.PackageSpec
                 * @instance
                 */
                PackageSpec.prototype.fqn = "";

                /**
                 * PackageSpec digest.
                 * @member {string} digest
                 * @memberof platform.agent.v1.PackageSpec
                 * @instance
                 */
                PackageSpec.prototype.digest = "";

                /**
                 * PackageSpec length.
                 * @member {number} length
                 * @memberof platform.agent.v1.PackageSpec
                 * @instance
                 */
                PackageSpec.prototype.length = 0;

                /**
                 * PackageSpec installPath.
                 * @member {string} installPath
                 * @memberof platform.agent.v1.PackageSpec
                 * @instance
                 */
                PackageSpec.prototype.installPath = "";

                /**
                 * PackageSpec environment.
                 * @member {Object.<string,string>} environment
                 * @memberof platform.agent.v1.PackageSpec
                 * @instance
                 */
                PackageSpec.prototype.environment = $util.emptyObject;

                /**
                 * PackageSpec templates.
                 * @member {Array.<platform.agent.v1.TemplateSpec.$Properties>} templates
                 * @memberof platform.agent.v1.PackageSpec
                 * @instance
                 */
                PackageSpec.prototype.templates = $util.emptyArray;

                /**
                 * PackageSpec hostPaths.
                 * @member {Array.<string>} hostPaths
                 * @memberof platform.agent.v1.PackageSpec
                 * @instance
                 */
                PackageSpec.prototype.hostPaths = $util.emptyArray;

                /**
                 * PackageSpec rootFilesystem.
                 * @member {boolean} rootFilesystem
                 * @memberof platform.agent.v1.PackageSpec
                 * @instance
                 */
                PackageSpec.prototype.rootFilesystem = false;

                /**
                 * Creates a new PackageSpec instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.PackageSpec
                 * @static
                 * @param {platform.agent.v1.PackageSpec.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.PackageSpec} PackageSpec instance
                 * @type {{
                 *   (properties: platform.agent.v1.PackageSpec.$Shape): platform.agent.v1.PackageSpec & platform.agent.v1.PackageSpec.$Shape;
                 *   (properties?: platform.agent.v1.PackageSpec.$Properties): platform.agent.v1.PackageSpec;
                 * }}
                 */
                PackageSpec.create = function(properties) {
                    return new PackageSpec(properties);
                };

                /**
                 * Encodes the specified PackageSpec message. Does not implicitly {@link platform.agent.v1.PackageSpec.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.PackageSpec
                 * @static
                 * @param {platform.agent.v1.PackageSpec.$Properties} m PackageSpec message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                PackageSpec.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.uuid != null && $Object.hasOwnProperty.call(m, "uuid") && m.uuid !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.uuid);
                    if (m.fqn != null && $Object.hasOwnProperty.call(m, "fqn") && m.fqn !== "")
                        w.uint32(/* id 2, wireType 2 =*/18).string(m.fqn);
                    if (m.digest != null && $Object.hasOwnProperty.call(m, "digest") && m.digest !== "")
                        w.uint32(/* id 3, wireType 2 =*/26).string(m.digest);
                    if (m.length != null && $Object.hasOwnProperty.call(m, "length") && !$Object.is(m.length, 0))
                        w.uint32(/* id 4, wireType 1 =*/33).double(m.length);
                    if (m.installPath != null && $Object.hasOwnProperty.call(m, "installPath") && m.installPath !== "")
                        w.uint32(/* id 5, wireType 2 =*/42).string(m.installPath);
                    if (m.environment != null && $Object.hasOwnProperty.call(m, "environment")) {
                        for (var ks = $Object.keys(m.environment), i = 0; i < ks.length; ++i) {
                            w.uint32(/* id 6, wireType 2 =*/50).fork().uint32(/* id 1, wireType 2 =*/10).string(ks[i]).uint32(/* id 2, wireType 2 =*/18).string(m.environment[ks[i]]).ldelim();
                        }
                    }
                    if (m.templates != null && m.templates.length) {
                        for (var i = 0; i < m.templates.length; ++i)
                            $root.platform.agent.v1.TemplateSpec.encode(m.templates[i], w.uint32(/* id 7, wireType 2 =*/58).fork(), q + 1).ldelim();
                    }
                    if (m.hostPaths != null && m.hostPaths.length) {
                        for (var i = 0; i < m.hostPaths.length; ++i)
                            w.uint32(/* id 8, wireType 2 =*/66).string(m.hostPaths[i]);
                    }
                    if (m.rootFilesystem != null && $Object.hasOwnProperty.call(m, "rootFilesystem") && m.rootFilesystem !== false)
                        w.uint32(/* id 9, wireType 0 =*/72).bool(m.rootFilesystem);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a PackageSpec message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.PackageSpec
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.PackageSpec & platform.agent.v1.PackageSpec.$Shape} PackageSpec
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                PackageSpec.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, k, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.PackageSpec();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.uuid = v;
                                else
                                    delete m.uuid;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.fqn = v;
                                else
                                    delete m.fqn;
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.digest = v;
                                else
                                    delete m.digest;
                                continue;
                            }
                        case 4: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.length = v;
                                else
                                    delete m.length;
                                continue;
                            }
                        case 5: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.installPath = v;
                                else
                                    delete m.installPath;
                                continue;
                            }
                        case 6: {
                                if (u !== 2)
                                    break;
                                if (m.environment === $util.emptyObject)
                                    m.environment = {};
                                var c2 = r.size() + r.pos;
                                if (c2 > r.len)
                                    throw $RangeError("index out of range");
                                r.len = c2;
                                k = "";
                                v = "";
                                while (r.pos < c2) {
                                    var t2 = r.tag();
                                    u = t2 & 7;
                                    switch (t2 >>>= 3) {
                                    case 1:
                                        if (u !== 2)
                                            break;
                                        k = r.stringVerify();
                                        continue;
                                    case 2:
                                        if (u !== 2)
                                            break;
                                        v = r.stringVerify();
                                        continue;
                                    }
                                    r.skipType(u, q, t2);
                                }
                                if (r.pos !== c2)
                                    throw $RangeError("index out of range");
                                r.len = c;
                                if (k === "__proto__")
                                    $util.makeProp(m.environment, k);
                                m.environment[k] = v;
                                continue;
                            }
                        case 7: {
                                if (u !== 2)
                                    break;
                                if (!(m.templates && m.templates.length))
                                    m.templates = [];
                                m.templates.push($root.platform.agent.v1.TemplateSpec.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        case 8: {
                                if (u !== 2)
                                    break;
                                if (!(m.hostPaths && m.hostPaths.length))
                                    m.hostPaths = [];
                                m.hostPaths.push(r.stringVerify());
                                continue;
                            }
                        case 9: {
                                if (u !== 0)
                                    break;
                                if (v = r.bool())
                                    m.rootFilesystem = v;
                                else
                                    delete m.rootFilesystem;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a PackageSpec message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.PackageSpec
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.PackageSpec} PackageSpec
                 */
                PackageSpec.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.PackageSpec)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.PackageSpec: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.PackageSpec();
                    if (d.uuid != null) {
                        if (typeof d.uuid !== "string" || d.uuid.length) {
                            m.uuid = $String(d.uuid);
                        }
                    }
                    if (d.fqn != null) {
                        if (typeof d.fqn !== "string" || d.fqn.length) {
                            m.fqn = $String(d.fqn);
                        }
                    }
                    if (d.digest != null) {
                        if (typeof d.digest !== "string" || d.digest.length) {
                            m.digest = $String(d.digest);
                        }
                    }
                    if (d.length != null) {
                        if (!$Object.is($Number(d.length), 0)) {
                            m.length = $Number(d.length);
                        }
                    }
                    if (d.installPath != null) {
                        if (typeof d.installPath !== "string" || d.installPath.length) {
                            m.installPath = $String(d.installPath);
                        }
                    }
                    if (d.environment) {
                        if (!$util.isObject(d.environment))
                            throw $TypeError(".platform.agent.v1.PackageSpec.environment: object expected");
                        m.environment = {};
                        for (var ks = $Object.keys(d.environment), i = 0; i < ks.length; ++i) {
                            if (ks[i] === "__proto__")
                                $util.makeProp(m.environment, ks[i]);
                            m.environment[ks[i]] = $String(d.environment[ks[i]]);
                        }
                    }
                    if (d.templates) {
                        if (!$Array.isArray(d.templates))
                            throw $TypeError(".platform.agent.v1.PackageSpec.templates: array expected");
                        m.templates = $Array(d.templates.length);
                        for (var i = 0; i < d.templates.length; ++i) {
                            if (!$util.isObject(d.templates[i]))
                                throw $TypeError(".platform.agent.v1.PackageSpec.templates: object expected");
                            m.templates[i] = $root.platform.agent.v1.TemplateSpec.fromObject(d.templates[i], q + 1);
                        }
                    }
                    if (d.hostPaths) {
                        if (!$Array.isArray(d.hostPaths))
                            throw $TypeError(".platform.agent.v1.PackageSpec.hostPaths: array expected");
                        m.hostPaths = $Array(d.hostPaths.length);
                        for (var i = 0; i < d.hostPaths.length; ++i) {
                            m.hostPaths[i] = $String(d.hostPaths[i]);
                        }
                    }
                    if (d.rootFilesystem != null) {
                        if (d.rootFilesystem) {
                            m.rootFilesystem = $Boolean(d.rootFilesystem);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a PackageSpec message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.PackageSpec
                 * @static
                 * @param {platform.agent.v1.PackageSpec} m PackageSpec
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                PackageSpec.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.templates = [];
                        d.hostPaths = [];
                    }
                    if (o.objects || o.defaults) {
                        d.environment = {};
                    }
                    if (o.defaults) {
                        d.uuid = "";
                        d.fqn = "";
                        d.digest = "";
                        d.length = 0;
                        d.installPath = "";
                        d.rootFilesystem = false;
                    }
                    if (m.uuid != null && $Object.hasOwnProperty.call(m, "uuid")) {
                        d.uuid = m.uuid;
                    }
                    if (m.fqn != null && $Object.hasOwnProperty.call(m, "fqn")) {
                        d.fqn = m.fqn;
                    }
                    if (m.digest != null && $Object.hasOwnProperty.call(m, "digest")) {
                        d.digest = m.digest;
                    }
                    if (m.length != null && $Object.hasOwnProperty.call(m, "length")) {
                        d.length = o.json && !$isFinite(m.length) ? $String(m.length) : m.length;
                    }
                    if (m.installPath != null && $Object.hasOwnProperty.call(m, "installPath")) {
                        d.installPath = m.installPath;
                    }
                    var ks2;
                    if (m.environment && (ks2 = $Object.keys(m.environment)).length) {
                        d.environment = {};
                        for (var j = 0; j < ks2.length; ++j) {
                            if (ks2[j] === "__proto__")
                                $util.makeProp(d.environment, ks2[j]);
                            d.environment[ks2[j]] = m.environment[ks2[j]];
                        }
                    }
                    if (m.templates && m.templates.length) {
                        d.templates = $Array(m.templates.length);
                        for (var j = 0; j < m.templates.length; ++j) {
                            d.templates[j] = $root.platform.agent.v1.TemplateSpec.toObject(m.templates[j], o, q + 1);
                        }
                    }
                    if (m.hostPaths && m.hostPaths.length) {
                        d.hostPaths = $Array(m.hostPaths.length);
                        for (var j = 0; j < m.hostPaths.length; ++j) {
                            d.hostPaths[j] = m.hostPaths[j];
                        }
                    }
                    if (m.rootFilesystem != null && $Object.hasOwnProperty.call(m, "rootFilesystem")) {
                        d.rootFilesystem = m.rootFilesystem;
                    }
                    return d;
                };

                /**
                 * Converts this PackageSpec to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.PackageSpec
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                PackageSpec.prototype.toJSON = function() {
                    return PackageSpec.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for PackageSpec
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.PackageSpec
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                PackageSpec.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.PackageSpec";
                };

                return PackageSpec;
            })();

            v1.TemplateSpec = (function() {

                /**
                 * Properties of a TemplateSpec.
                 * @typedef {Object} platform.agent.v1.TemplateSpec.$Properties
                 * @property {string|null} [path] TemplateSpec path
                 * @property {string|null} [leftDelimiter] TemplateSpec leftDelimiter
                 * @property {string|null} [rightDelimiter] TemplateSpec rightDelimiter
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a TemplateSpec.
                 * @memberof platform.agent.v1
                 * @interface ITemplateSpec
                 * @augments platform.agent.v1.TemplateSpec.$Properties
                 * @deprecated Use platform.agent.v1.TemplateSpec.$Properties instead.
                 */

                /**
                 * Shape of a TemplateSpec.
                 * @typedef {platform.agent.v1.TemplateSpec.$Properties} platform.agent.v1.TemplateSpec.$Shape
                 */

                /**
                 * Constructs a new TemplateSpec.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a TemplateSpec.
                 * @constructor
                 * @param {platform.agent.v1.TemplateSpec.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const TemplateSpec = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * TemplateSpec path.
                 * @member {string} path
                 * @memberof platform.agent.v1.TemplateSpec
                 * @instance
                 */
                TemplateSpec.prototype.path = "";

                /**
                 * TemplateSpec leftDelimiter.
                 * @member {string} leftDelimiter
                 * @memberof platform.agent.v1.TemplateSpec
                 * @instance
                 */
                TemplateSpec.prototype.leftDelimiter = "";

                /**
                 * TemplateSpec rightDelimiter.
                 * @member {string} rightDelimiter
                 * @memberof platform.agent.v1.TemplateSpec
                 * @instance
                 */
                TemplateSpec.prototype.rightDelimiter = "";

                /**
                 * Creates a new TemplateSpec instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.TemplateSpec
                 * @static
                 * @param {platform.agent.v1.TemplateSpec.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.TemplateSpec} TemplateSpec instance
                 * @type {{
                 *   (properties: platform.agent.v1.TemplateSpec.$Shape): platform.agent.v1.TemplateSpec & platform.agent.v1.TemplateSpec.$Shape;
                 *   (properties?: platform.agent.v1.TemplateSpec.$Properties): platform.agent.v1.TemplateSpec;
                 * }}
                 */
                TemplateSpec.create = function(properties) {
                    return new TemplateSpec(properties);
                };

                /**
                 * Encodes the specified TemplateSpec message. Does not implicitly {@link platform.agent.v1.TemplateSpec.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.TemplateSpec
                 * @static
                 * @param {platform.agent.v1.TemplateSpec.$Properties} m TemplateSpec message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                TemplateSpec.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.path != null && $Object.hasOwnProperty.call(m, "path") && m.path !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.path);
                    if (m.leftDelimiter != null && $Object.hasOwnProperty.call(m, "leftDelimiter") && m.leftDelimiter !== "")
                        w.uint32(/* id 2, wireType 2 =*/18).string(m.leftDelimiter);
                    if (m.rightDelimiter != null && $Object.hasOwnProperty.call(m, "rightDelimiter") && m.rightDelimiter !== "")
                        w.uint32(/* id 3, wireType 2 =*/26).string(m.rightDelimiter);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a TemplateSpec message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.TemplateSpec
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.TemplateSpec & platform.agent.v1.TemplateSpec.$Shape} TemplateSpec
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                TemplateSpec.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.TemplateSpec();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.path = v;
                                else
                                    delete m.path;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.leftDelimiter = v;
                                else
                                    delete m.leftDelimiter;
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.rightDelimiter = v;
                                else
                                    delete m.rightDelimiter;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a TemplateSpec message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.TemplateSpec
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.TemplateSpec} TemplateSpec
                 */
                TemplateSpec.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.TemplateSpec)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.TemplateSpec: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.TemplateSpec();
                    if (d.path != null) {
                        if (typeof d.path !== "string" || d.path.length) {
                            m.path = $String(d.path);
                        }
                    }
                    if (d.leftDelimiter != null) {
                        if (typeof d.leftDelimiter !== "string" || d.leftDelimiter.length) {
                            m.leftDelimiter = $String(d.leftDelimiter);
                        }
                    }
                    if (d.rightDelimiter != null) {
                        if (typeof d.rightDelimiter !== "string" || d.rightDelimiter.length) {
                            m.rightDelimiter = $String(d.rightDelimiter);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a TemplateSpec message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.TemplateSpec
                 * @static
                 * @param {platform.agent.v1.TemplateSpec} m TemplateSpec
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                TemplateSpec.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.path = "";
                        d.leftDelimiter = "";
                        d.rightDelimiter = "";
                    }
                    if (m.path != null && $Object.hasOwnProperty.call(m, "path")) {
                        d.path = m.path;
                    }
                    if (m.leftDelimiter != null && $Object.hasOwnProperty.call(m, "leftDelimiter")) {
                        d.leftDelimiter = m.leftDelimiter;
                    }
                    if (m.rightDelimiter != null && $Object.hasOwnProperty.call(m, "rightDelimiter")) {
                        d.rightDelimiter = m.rightDelimiter;
                    }
                    return d;
                };

                /**
                 * Converts this TemplateSpec to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.TemplateSpec
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                TemplateSpec.prototype.toJSON = function() {
                    return TemplateSpec.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for TemplateSpec
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.TemplateSpec
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                TemplateSpec.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.TemplateSpec";
                };

                return TemplateSpec;
            })();

            v1.ProcessSpec = (function() {

                /**
                 * Properties of a ProcessSpec.
                 * @typedef {Object} platform.agent.v1.ProcessSpec.$Properties
                 * @property {string|null} [name] ProcessSpec name
                 * @property {string|null} [startCommand] ProcessSpec startCommand
                 * @property {Array.<string>|null} [startCommandRaw] ProcessSpec startCommandRaw
                 * @property {number|null} [startCommandTimeoutS] ProcessSpec startCommandTimeoutS
                 * @property {string|null} [stopCommand] ProcessSpec stopCommand
                 * @property {Array.<string>|null} [stopCommandRaw] ProcessSpec stopCommandRaw
                 * @property {number|null} [stopTimeoutS] ProcessSpec stopTimeoutS
                 * @property {Object.<string,string>|null} [environment] ProcessSpec environment
                 * @property {string|null} [user] ProcessSpec user
                 * @property {string|null} [group] ProcessSpec group
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a ProcessSpec.
                 * @memberof platform.agent.v1
                 * @interface IProcessSpec
                 * @augments platform.agent.v1.ProcessSpec.$Properties
                 * @deprecated Use platform.agent.v1.ProcessSpec.$Properties instead.
                 */

                /**
                 * Shape of a ProcessSpec.
                 * @typedef {platform.agent.v1.ProcessSpec.$Properties} platform.agent.v1.ProcessSpec.$Shape
                 */

                /**
                 * Constructs a new ProcessSpec.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a ProcessSpec.
                 * @constructor
                 * @param {platform.agent.v1.ProcessSpec.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const ProcessSpec = function (p) {
                    this.startCommandRaw = [];
                    this.stopCommandRaw = [];
                    this.environment = {};
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * ProcessSpec name.
                 * @member {string} name
                 * @memberof platform.agent.v1.ProcessSpec
                 * @instance
                 */
                ProcessSpec.prototype.name = "";

                /**
                 * ProcessSpec startCommand.
                 * @member {string} startCommand
                 * @memberof platform.agent.v1.ProcessSpec
                 * @instance
                 */
                ProcessSpec.prototype.startCommand = "";

                /**
                 * ProcessSpec startCommandRaw.
                 * @member {Array.<string>} startCommandRaw
                 * @memberof platform.agent.v1.ProcessSpec
                 * @instance
                 */
                ProcessSpec.prototype.startCommandRaw = $util.emptyArray;

                /**
                 * ProcessSpec startCommandTimeoutS.
                 * @member {number} startCommandTimeoutS
                 * @memberof platform.agent.v1.ProcessSpec
                 * @instance
                 */
                ProcessSpec.prototype.startCommandTimeoutS = 0;

                /**
                 * ProcessSpec stopCommand.
                 * @member {string} stopCommand
                 * @memberof platform.agent.v1.ProcessSpec
                 * @instance
                 */
                ProcessSpec.prototype.stopCommand = "";

                /**
                 * ProcessSpec stopCommandRaw.
                 * @member {Array.<string>} stopCommandRaw
                 * @memberof platform.agent.v1.ProcessSpec
                 * @instance
                 */
                ProcessSpec.prototype.stopCommandRaw = $util.emptyArray;

                /**
                 * ProcessSpec stopTimeoutS.
                 * @member {number} stopTimeoutS
                 * @memberof platform.agent.v1.ProcessSpec
                 * @instance
                 */
                ProcessSpec.prototype.stopTimeoutS = 0;

                /**
                 * ProcessSpec environment.
                 * @member {Object.<string,string>} environment
                 * @memberof platform.agent.v1.ProcessSpec
                 * @instance
                 */
                ProcessSpec.prototype.environment = $util.emptyObject;

                /**
                 * ProcessSpec user.
                 * @member {string} user
                 * @memberof platform.agent.v1.ProcessSpec
                 * @instance
                 */
                ProcessSpec.prototype.user = "";

                /**
                 * ProcessSpec group.
                 * @member {string} group
                 * @memberof platform.agent.v1.ProcessSpec
                 * @instance
                 */
                ProcessSpec.prototype.group = "";

                /**
                 * Creates a new ProcessSpec instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.ProcessSpec
                 * @static
                 * @param {platform.agent.v1.ProcessSpec.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.ProcessSpec} ProcessSpec instance
                 * @type {{
                 *   (properties: platform.agent.v1.ProcessSpec.$Shape): platform.agent.v1.ProcessSpec & platform.agent.v1.ProcessSpec.$Shape;
                 *   (properties?: platform.agent.v1.ProcessSpec.$Properties): platform.agent.v1.ProcessSpec;
                 * }}
                 */
                ProcessSpec.create = function(properties) {
                    return new ProcessSpec(properties);
                };

                /**
                 * Encodes the specified ProcessSpec message. Does not implicitly {@link platform.agent.v1.ProcessSpec.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.ProcessSpec
                 * @static
                 * @param {platform.agent.v1.ProcessSpec.$Properties} m ProcessSpec message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                ProcessSpec.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.name != null && $Object.hasOwnProperty.call(m, "name") && m.name !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.name);
                    if (m.startCommand != null && $Object.hasOwnProperty.call(m, "startCommand") && m.startCommand !== "")
                        w.uint32(/* id 2, wireType 2 =*/18).string(m.startCommand);
                    if (m.startCommandRaw != null && m.startCommandRaw.length) {
                        for (var i = 0; i < m.startCommandRaw.length; ++i)
                            w.uint32(/* id 3, wireType 2 =*/26).string(m.startCommandRaw[i]);
                    }
                    if (m.startCommandTimeoutS != null && $Object.hasOwnProperty.call(m, "startCommandTimeoutS") && !$Object.is(m.startCommandTimeoutS, 0))
                        w.uint32(/* id 4, wireType 1 =*/33).double(m.startCommandTimeoutS);
                    if (m.stopCommand != null && $Object.hasOwnProperty.call(m, "stopCommand") && m.stopCommand !== "")
                        w.uint32(/* id 5, wireType 2 =*/42).string(m.stopCommand);
                    if (m.stopCommandRaw != null && m.stopCommandRaw.length) {
                        for (var i = 0; i < m.stopCommandRaw.length; ++i)
                            w.uint32(/* id 6, wireType 2 =*/50).string(m.stopCommandRaw[i]);
                    }
                    if (m.stopTimeoutS != null && $Object.hasOwnProperty.call(m, "stopTimeoutS") && !$Object.is(m.stopTimeoutS, 0))
                        w.uint32(/* id 7, wireType 1 =*/57).double(m.stopTimeoutS);
                    if (m.environment != null && $Object.hasOwnProperty.call(m, "environment")) {
                        for (var ks = $Object.keys(m.environment), i = 0; i < ks.length; ++i) {
                            w.uint32(/* id 8, wireType 2 =*/66).fork().uint32(/* id 1, wireType 2 =*/10).string(ks[i]).uint32(/* id 2, wireType 2 =*/18).string(m.environment[ks[i]]).ldelim();
                        }
                    }
                    if (m.user != null && $Object.hasOwnProperty.call(m, "user") && m.user !== "")
                        w.uint32(/* id 9, wireType 2 =*/74).string(m.user);
                    if (m.group != null && $Object.hasOwnProperty.call(m, "group") && m.group !== "")
                        w.uint32(/* id 10, wireType 2 =*/82).string(m.group);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a ProcessSpec message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.ProcessSpec
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.ProcessSpec & platform.agent.v1.ProcessSpec.$Shape} ProcessSpec
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                ProcessSpec.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, k, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.ProcessSpec();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.name = v;
                                else
                                    delete m.name;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.startCommand = v;
                                else
                                    delete m.startCommand;
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if (!(m.startCommandRaw && m.startCommandRaw.length))
                                    m.startCommandRaw = [];
                                m.startCommandRaw.push(r.stringVerify());
                                continue;
                            }
                        case 4: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.startCommandTimeoutS = v;
                                else
                                    delete m.startCommandTimeoutS;
                                continue;
                            }
                        case 5: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.stopCommand = v;
                                else
                                    delete m.stopCommand;
                                continue;
                            }
                        case 6: {
                                if (u !== 2)
                                    break;
                                if (!(m.stopCommandRaw && m.stopCommandRaw.length))
                                    m.stopCommandRaw = [];
                                m.stopCommandRaw.push(r.stringVerify());
                                continue;
                            }
                        case 7: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.stopTimeoutS = v;
                                else
                                    delete m.stopTimeoutS;
                                continue;
                            }
                        case 8: {
                                if (u !== 2)
                                    break;
                                if (m.environment === $util.emptyObject)
                                    m.environment = {};
                                var c2 = r.size() + r.pos;
                                if (c2 > r.len)
                                    throw $RangeError("index out of range");
                                r.len = c2;
                                k = "";
                                v = "";
                                while (r.pos < c2) {
                                    var t2 = r.tag();
                                    u = t2 & 7;
                                    switch (t2 >>>= 3) {
                                    case 1:
                                        if (u !== 2)
                                            break;
                                        k = r.stringVerify();
                                        continue;
                                    case 2:
                                        if (u !== 2)
                                            break;
                                        v = r.stringVerify();
                                        continue;
                                    }
                                    r.skipType(u, q, t2);
                                }
                                if (r.pos !== c2)
                                    throw $RangeError("index out of range");
                                r.len = c;
                                if (k === "__proto__")
                                    $util.makeProp(m.environment, k);
                                m.environment[k] = v;
                                continue;
                            }
                        case 9: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.user = v;
                                else
                                    delete m.user;
                                continue;
                            }
                        case 10: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.group = v;
                                else
                                    delete m.group;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a ProcessSpec message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.ProcessSpec
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.ProcessSpec} ProcessSpec
                 */
                ProcessSpec.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.ProcessSpec)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.ProcessSpec: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.ProcessSpec();
                    if (d.name != null) {
                        if (typeof d.name !== "string" || d.name.length) {
                            m.name = $String(d.name);
                        }
                    }
                    if (d.startCommand != null) {
                        if (typeof d.startCommand !== "string" || d.startCommand.length) {
                            m.startCommand = $String(d.startCommand);
                        }
                    }
                    if (d.startCommandRaw) {
                        if (!$Array.isArray(d.startCommandRaw))
                            throw $TypeError(".platform.agent.v1.ProcessSpec.startCommandRaw: array expected");
                        m.startCommandRaw = $Array(d.startCommandRaw.length);
                        for (var i = 0; i < d.startCommandRaw.length; ++i) {
                            m.startCommandRaw[i] = $String(d.startCommandRaw[i]);
                        }
                    }
                    if (d.startCommandTimeoutS != null) {
                        if (!$Object.is($Number(d.startCommandTimeoutS), 0)) {
                            m.startCommandTimeoutS = $Number(d.startCommandTimeoutS);
                        }
                    }
                    if (d.stopCommand != null) {
                        if (typeof d.stopCommand !== "string" || d.stopCommand.length) {
                            m.stopCommand = $String(d.stopCommand);
                        }
                    }
                    if (d.stopCommandRaw) {
                        if (!$Array.isArray(d.stopCommandRaw))
                            throw $TypeError(".platform.agent.v1.ProcessSpec.stopCommandRaw: array expected");
                        m.stopCommandRaw = $Array(d.stopCommandRaw.length);
                        for (var i = 0; i < d.stopCommandRaw.length; ++i) {
                            m.stopCommandRaw[i] = $String(d.stopCommandRaw[i]);
                        }
                    }
                    if (d.stopTimeoutS != null) {
                        if (!$Object.is($Number(d.stopTimeoutS), 0)) {
                            m.stopTimeoutS = $Number(d.stopTimeoutS);
                        }
                    }
                    if (d.environment) {
                        if (!$util.isObject(d.environment))
                            throw $TypeError(".platform.agent.v1.ProcessSpec.environment: object expected");
                        m.environment = {};
                        for (var ks = $Object.keys(d.environment), i = 0; i < ks.length; ++i) {
                            if (ks[i] === "__proto__")
                                $util.makeProp(m.environment, ks[i]);
                            m.environment[ks[i]] = $String(d.environment[ks[i]]);
                        }
                    }
                    if (d.user != null) {
                        if (typeof d.user !== "string" || d.user.length) {
                            m.user = $String(d.user);
                        }
                    }
                    if (d.group != null) {
                        if (typeof d.group !== "string" || d.group.length) {
                            m.group = $String(d.group);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a ProcessSpec message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.ProcessSpec
                 * @static
                 * @param {platform.agent.v1.ProcessSpec} m ProcessSpec
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                ProcessSpec.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.startCommandRaw = [];
                        d.stopCommandRaw = [];
                    }
                    if (o.objects || o.defaults) {
                        d.environment = {};
                    }
                    if (o.defaults) {
                        d.name = "";
                        d.startCommand = "";
                        d.startCommandTimeoutS = 0;
                        d.stopCommand = "";
                        d.stopTimeoutS = 0;
                        d.user = "";
                        d.group = "";
                    }
                    if (m.name != null && $Object.hasOwnProperty.call(m, "name")) {
                        d.name = m.name;
                    }
                    if (m.startCommand != null && $Object.hasOwnProperty.call(m, "startCommand")) {
                        d.startCommand = m.startCommand;
                    }
                    if (m.startCommandRaw && m.startCommandRaw.length) {
                        d.startCommandRaw = $Array(m.startCommandRaw.length);
                        for (var j = 0; j < m.startCommandRaw.length; ++j) {
                            d.startCommandRaw[j] = m.startCommandRaw[j];
                        }
                    }
                    if (m.startCommandTimeoutS != null && $Object.hasOwnProperty.call(m, "startCommandTimeoutS")) {
                        d.startCommandTimeoutS = o.json && !$isFinite(m.startCommandTimeoutS) ? $String(m.startCommandTimeoutS) : m.startCommandTimeoutS;
                    }
                    if (m.stopCommand != null && $Object.hasOwnProperty.call(m, "stopCommand")) {
                        d.stopCommand = m.stopCommand;
                    }
                    if (m.stopCommandRaw && m.stopCommandRaw.length) {
                        d.stopCommandRaw = $Array(m.stopCommandRaw.length);
                        for (var j = 0; j < m.stopCommandRaw.length; ++j) {
                            d.stopCommandRaw[j] = m.stopCommandRaw[j];
                        }
                    }
                    if (m.stopTimeoutS != null && $Object.hasOwnProperty.call(m, "stopTimeoutS")) {
                        d.stopTimeoutS = o.json && !$isFinite(m.stopTimeoutS) ? $String(m.stopTimeoutS) : m.stopTimeoutS;
                    }
                    var ks2;
                    if (m.environment && (ks2 = $Object.keys(m.environment)).length) {
                        d.environment = {};
                        for (var j = 0; j < ks2.length; ++j) {
                            if (ks2[j] === "__proto__")
                                $util.makeProp(d.environment, ks2[j]);
                            d.environment[ks2[j]] = m.environment[ks2[j]];
                        }
                    }
                    if (m.user != null && $Object.hasOwnProperty.call(m, "user")) {
                        d.user = m.user;
                    }
                    if (m.group != null && $Object.hasOwnProperty.call(m, "group")) {
                        d.group = m.group;
                    }
                    return d;
                };

                /**
                 * Converts this ProcessSpec to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.ProcessSpec
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                ProcessSpec.prototype.toJSON = function() {
                    return ProcessSpec.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for ProcessSpec
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.ProcessSpec
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                ProcessSpec.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.ProcessSpec";
                };

                return ProcessSpec;
            })();

            v1.PortSpec = (function() {

                /**
                 * Properties of a PortSpec.
                 * @typedef {Object} platform.agent.v1.PortSpec.$Properties
                 * @property {number|null} [number] PortSpec number
                 * @property {boolean|null} [optional] PortSpec optional
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a PortSpec.
                 * @memberof platform.agent.v1
                 * @interface IPortSpec
                 * @augments platform.agent.v1.PortSpec.$Properties
                 * @deprecated Use platform.agent.v1.PortSpec.$Properties instead.
                 */

                /**
                 * Shape of a PortSpec.
                 * @typedef {platform.agent.v1.PortSpec.$Properties} platform.agent.v1.PortSpec.$Shape
                 */

                /**
                 * Constructs a new PortSpec.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a PortSpec.
                 * @constructor
                 * @param {platform.agent.v1.PortSpec.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const PortSpec = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * PortSpec number.
                 * @member {number} number
                 * @memberof platform.agent.v1.PortSpec
                 * @instance
                 */
                PortSpec.prototype.number = 0;

                /**
                 * PortSpec optional.
                 * @member {boolean} optional
                 * @memberof platform.agent.v1.PortSpec
                 * @instance
                 */
                PortSpec.prototype.optional = false;

                /**
                 * Creates a new PortSpec instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.PortSpec
                 * @static
                 * @param {platform.agent.v1.PortSpec.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.PortSpec} PortSpec instance
                 * @type {{
                 *   (properties: platform.agent.v1.PortSpec.$Shape): platform.agent.v1.PortSpec & platform.agent.v1.PortSpec.$Shape;
                 *   (properties?: platform.agent.v1.PortSpec.$Properties): platform.agent.v1.PortSpec;
                 * }}
                 */
                PortSpec.create = function(properties) {
                    return new PortSpec(properties);
                };

                /**
                 * Encodes the specified PortSpec message. Does not implicitly {@link platform.agent.v1.PortSpec.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.PortSpec
                 * @static
                 * @param {platform.agent.v1.PortSpec.$Properties} m PortSpec message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                PortSpec.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.number != null && $Object.hasOwnProperty.call(m, "number") && m.number !== 0)
                        w.uint32(/* id 1, wireType 0 =*/8).uint32(m.number);
                    if (m.optional != null && $Object.hasOwnProperty.call(m, "optional") && m.optional !== false)
                        w.uint32(/* id 2, wireType 0 =*/16).bool(m.optional);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a PortSpec message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.PortSpec
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.PortSpec & platform.agent.v1.PortSpec.$Shape} PortSpec
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                PortSpec.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.PortSpec();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 0)
                                    break;
                                if (v = r.uint32())
                                    m.number = v;
                                else
                                    delete m.number;
                                continue;
                            }
                        case 2: {
                                if (u !== 0)
                                    break;
                                if (v = r.bool())
                                    m.optional = v;
                                else
                                    delete m.optional;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a PortSpec message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.PortSpec
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.PortSpec} PortSpec
                 */
                PortSpec.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.PortSpec)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.PortSpec: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.PortSpec();
                    if (d.number != null) {
                        if ($Number(d.number) !== 0) {
                            m.number = d.number >>> 0;
                        }
                    }
                    if (d.optional != null) {
                        if (d.optional) {
                            m.optional = $Boolean(d.optional);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a PortSpec message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.PortSpec
                 * @static
                 * @param {platform.agent.v1.PortSpec} m PortSpec
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                PortSpec.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.number = 0;
                        d.optional = false;
                    }
                    if (m.number != null && $Object.hasOwnProperty.call(m, "number")) {
                        d.number = m.number;
                    }
                    if (m.optional != null && $Object.hasOwnProperty.call(m, "optional")) {
                        d.optional = m.optional;
                    }
                    return d;
                };

                /**
                 * Converts this PortSpec to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.PortSpec
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                PortSpec.prototype.toJSON = function() {
                    return PortSpec.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for PortSpec
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.PortSpec
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                PortSpec.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.PortSpec";
                };

                return PortSpec;
            })();

            v1.LogSpec = (function() {

                /**
                 * Properties of a LogSpec.
                 * @typedef {Object} platform.agent.v1.LogSpec.$Properties
                 * @property {string|null} [file] LogSpec file
                 * @property {string|null} [channel] LogSpec channel
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a LogSpec.
                 * @memberof platform.agent.v1
                 * @interface ILogSpec
                 * @augments platform.agent.v1.LogSpec.$Properties
                 * @deprecated Use platform.agent.v1.LogSpec.$Properties instead.
                 */

                /**
                 * Shape of a LogSpec.
                 * @typedef {platform.agent.v1.LogSpec.$Properties} platform.agent.v1.LogSpec.$Shape
                 */

                /**
                 * Constructs a new LogSpec.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a LogSpec.
                 * @constructor
                 * @param {platform.agent.v1.LogSpec.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const LogSpec = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * LogSpec file.
                 * @member {string} file
                 * @memberof platform.agent.v1.LogSpec
                 * @instance
                 */
                LogSpec.prototype.file = "";

                /**
                 * LogSpec channel.
                 * @member {string} channel
                 * @memberof platform.agent.v1.LogSpec
                 * @instance
                 */
                LogSpec.prototype.channel = "";

                /**
                 * Creates a new LogSpec instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.LogSpec
                 * @static
                 * @param {platform.agent.v1.LogSpec.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.LogSpec} LogSpec instance
                 * @type {{
                 *   (properties: platform.agent.v1.LogSpec.$Shape): platform.agent.v1.LogSpec & platform.agent.v1.LogSpec.$Shape;
                 *   (properties?: platform.agent.v1.LogSpec.$Properties): platform.agent.v1.LogSpec;
                 * }}
                 */
                LogSpec.create = function(properties) {
                    return new LogSpec(properties);
                };

                /**
                 * Encodes the specified LogSpec message. Does not implicitly {@link platform.agent.v1.LogSpec.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.LogSpec
                 * @static
                 * @param {platform.agent.v1.LogSpec.$Properties} m LogSpec message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                LogSpec.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.file != null && $Object.hasOwnProperty.call(m, "file") && m.file !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.file);
                    if (m.channel != null && $Object.hasOwnProperty.call(m, "channel") && m.channel !== "")
                        w.uint32(/* id 2, wireType 2 =*/18).string(m.channel);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a LogSpec message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.LogSpec
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.LogSpec & platform.agent.v1.LogSpec.$Shape} LogSpec
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                LogSpec.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.LogSpec();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.file = v;
                                else
                                    delete m.file;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.channel = v;
                                else
                                    delete m.channel;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a LogSpec message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.LogSpec
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.LogSpec} LogSpec
                 */
                LogSpec.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.LogSpec)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.LogSpec: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.LogSpec();
                    if (d.file != null) {
                        if (typeof d.file !== "string" || d.file.length) {
                            m.file = $String(d.file);
                        }
                    }
                    if (d.channel != null) {
                        if (typeof d.channel !== "string" || d.channel.length) {
                            m.channel = $String(d.channel);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a LogSpec message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.LogSpec
                 * @static
                 * @param {platform.agent.v1.LogSpec} m LogSpec
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                LogSpec.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.file = "";
                        d.channel = "";
                    }
                    if (m.file != null && $Object.hasOwnProperty.call(m, "file")) {
                        d.file = m.file;
                    }
                    if (m.channel != null && $Object.hasOwnProperty.call(m, "channel")) {
                        d.channel = m.channel;
                    }
                    return d;
                };

                /**
                 * Converts this LogSpec to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.LogSpec
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                LogSpec.prototype.toJSON = function() {
                    return LogSpec.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for LogSpec
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.LogSpec
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                LogSpec.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.LogSpec";
                };

                return LogSpec;
            })();

            v1.FetchBlobRequest = (function() {

                /**
                 * Properties of a FetchBlobRequest.
                 * @typedef {Object} platform.agent.v1.FetchBlobRequest.$Properties
                 * @property {string|null} [digest] FetchBlobRequest digest
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a FetchBlobRequest.
                 * @memberof platform.agent.v1
                 * @interface IFetchBlobRequest
                 * @augments platform.agent.v1.FetchBlobRequest.$Properties
                 * @deprecated Use platform.agent.v1.FetchBlobRequest.$Properties instead.
                 */

                /**
                 * Shape of a FetchBlobRequest.
                 * @typedef {platform.agent.v1.FetchBlobRequest.$Properties} platform.agent.v1.FetchBlobRequest.$Shape
                 */

                /**
                 * Constructs a new FetchBlobRequest.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a FetchBlobRequest.
                 * @constructor
                 * @param {platform.agent.v1.FetchBlobRequest.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const FetchBlobRequest = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * FetchBlobRequest digest.
                 * @member {string} digest
                 * @memberof platform.agent.v1.FetchBlobRequest
                 * @instance
                 */
                FetchBlobRequest.prototype.digest = "";

                /**
                 * Creates a new FetchBlobRequest instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.FetchBlobRequest
                 * @static
                 * @param {platform.agent.v1.FetchBlobRequest.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.FetchBlobRequest} FetchBlobRequest instance
                 * @type {{
                 *   (properties: platform.agent.v1.FetchBlobRequest.$Shape): platform.agent.v1.FetchBlobRequest & platform.agent.v1.FetchBlobRequest.$Shape;
                 *   (properties?: platform.agent.v1.FetchBlobRequest.$Properties): platform.agent.v1.FetchBlobRequest;
                 * }}
                 */
                FetchBlobRequest.create = function(properties) {
                    return new FetchBlobRequest(properties);
                };

                /**
                 * Encodes the specified FetchBlobRequest message. Does not implicitly {@link platform.agent.v1.FetchBlobRequest.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.FetchBlobRequest
                 * @static
                 * @param {platform.agent.v1.FetchBlobRequest.$Properties} m FetchBlobRequest message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                FetchBlobRequest.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.digest != null && $Object.hasOwnProperty.call(m, "digest") && m.digest !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.digest);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a FetchBlobRequest message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.FetchBlobRequest
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.FetchBlobRequest & platform.agent.v1.FetchBlobRequest.$Shape} FetchBlobRequest
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                FetchBlobRequest.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.FetchBlobRequest();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.digest = v;
                                else
                                    delete m.digest;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a FetchBlobRequest message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.FetchBlobRequest
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.FetchBlobRequest} FetchBlobRequest
                 */
                FetchBlobRequest.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.FetchBlobRequest)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.FetchBlobRequest: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.FetchBlobRequest();
                    if (d.digest != null) {
                        if (typeof d.digest !== "string" || d.digest.length) {
                            m.digest = $String(d.digest);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a FetchBlobRequest message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.FetchBlobRequest
                 * @static
                 * @param {platform.agent.v1.FetchBlobRequest} m FetchBlobRequest
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                FetchBlobRequest.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.digest = "";
                    }
                    if (m.digest != null && $Object.hasOwnProperty.call(m, "digest")) {
                        d.digest = m.digest;
                    }
                    return d;
                };

                /**
                 * Converts this FetchBlobRequest to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.FetchBlobRequest
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                FetchBlobRequest.prototype.toJSON = function() {
                    return FetchBlobRequest.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for FetchBlobRequest
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.FetchBlobRequest
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                FetchBlobRequest.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.FetchBlobRequest";
                };

                return FetchBlobRequest;
            })();

            v1.BlobChunk = (function() {

                /**
                 * Properties of a BlobChunk.
                 * @typedef {Object} platform.agent.v1.BlobChunk.$Properties
                 * @property {Uint8Array|null} [data] BlobChunk data
                 * @property {number|null} [totalLength] BlobChunk totalLength
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a BlobChunk.
                 * @memberof platform.agent.v1
                 * @interface IBlobChunk
                 * @augments platform.agent.v1.BlobChunk.$Properties
                 * @deprecated Use platform.agent.v1.BlobChunk.$Properties instead.
                 */

                /**
                 * Shape of a BlobChunk.
                 * @typedef {platform.agent.v1.BlobChunk.$Properties} platform.agent.v1.BlobChunk.$Shape
                 */

                /**
                 * Constructs a new BlobChunk.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a BlobChunk.
                 * @constructor
                 * @param {platform.agent.v1.BlobChunk.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const BlobChunk = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * BlobChunk data.
                 * @member {Uint8Array} data
                 * @memberof platform.agent.v1.BlobChunk
                 * @instance
                 */
                BlobChunk.prototype.data = $util.newBuffer([]);

                /**
                 * BlobChunk totalLength.
                 * @member {number} totalLength
                 * @memberof platform.agent.v1.BlobChunk
                 * @instance
                 */
                BlobChunk.prototype.totalLength = 0;

                /**
                 * Creates a new BlobChunk instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.BlobChunk
                 * @static
                 * @param {platform.agent.v1.BlobChunk.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.BlobChunk} BlobChunk instance
                 * @type {{
                 *   (properties: platform.agent.v1.BlobChunk.$Shape): platform.agent.v1.BlobChunk & platform.agent.v1.BlobChunk.$Shape;
                 *   (properties?: platform.agent.v1.BlobChunk.$Properties): platform.agent.v1.BlobChunk;
                 * }}
                 */
                BlobChunk.create = function(properties) {
                    return new BlobChunk(properties);
                };

                /**
                 * Encodes the specified BlobChunk message. Does not implicitly {@link platform.agent.v1.BlobChunk.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.BlobChunk
                 * @static
                 * @param {platform.agent.v1.BlobChunk.$Properties} m BlobChunk message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                BlobChunk.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.data != null && $Object.hasOwnProperty.call(m, "data") && m.data.length)
                        w.uint32(/* id 1, wireType 2 =*/10).bytes(m.data);
                    if (m.totalLength != null && $Object.hasOwnProperty.call(m, "totalLength") && !$Object.is(m.totalLength, 0))
                        w.uint32(/* id 2, wireType 1 =*/17).double(m.totalLength);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a BlobChunk message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.BlobChunk
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.BlobChunk & platform.agent.v1.BlobChunk.$Shape} BlobChunk
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                BlobChunk.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.BlobChunk();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.bytes()).length)
                                    m.data = v;
                                else
                                    delete m.data;
                                continue;
                            }
                        case 2: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.totalLength = v;
                                else
                                    delete m.totalLength;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a BlobChunk message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.BlobChunk
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.BlobChunk} BlobChunk
                 */
                BlobChunk.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.BlobChunk)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.BlobChunk: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.BlobChunk();
                    if (d.data != null) {
                        if (d.data.length) {
                            if (typeof d.data === "string")
                                $util.base64.decode(d.data, m.data = $util.newBuffer($util.base64.length(d.data)), 0);
                            else if (d.data.length >= 0)
                                m.data = d.data;
                        }
                    }
                    if (d.totalLength != null) {
                        if (!$Object.is($Number(d.totalLength), 0)) {
                            m.totalLength = $Number(d.totalLength);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a BlobChunk message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.BlobChunk
                 * @static
                 * @param {platform.agent.v1.BlobChunk} m BlobChunk
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                BlobChunk.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        if (o.bytes === $String)
                            d.data = "";
                        else {
                            d.data = [];
                            if (o.bytes !== $Array)
                                d.data = $util.newBuffer(d.data);
                        }
                        d.totalLength = 0;
                    }
                    if (m.data != null && $Object.hasOwnProperty.call(m, "data")) {
                        d.data = o.bytes === $String ? $util.base64.encode(m.data, 0, m.data.length) : o.bytes === $Array ? $Array.prototype.slice.call(m.data) : m.data;
                    }
                    if (m.totalLength != null && $Object.hasOwnProperty.call(m, "totalLength")) {
                        d.totalLength = o.json && !$isFinite(m.totalLength) ? $String(m.totalLength) : m.totalLength;
                    }
                    return d;
                };

                /**
                 * Converts this BlobChunk to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.BlobChunk
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                BlobChunk.prototype.toJSON = function() {
                    return BlobChunk.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for BlobChunk
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.BlobChunk
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                BlobChunk.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.BlobChunk";
                };

                return BlobChunk;
            })();

            v1.SnapshotChunk = (function() {

                /**
                 * Properties of a SnapshotChunk.
                 * @typedef {Object} platform.agent.v1.SnapshotChunk.$Properties
                 * @property {string|null} [requestId] SnapshotChunk requestId
                 * @property {Uint8Array|null} [data] SnapshotChunk data
                 * @property {string|null} [error] SnapshotChunk error
                 * @property {string|null} [errorKind] SnapshotChunk errorKind
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a SnapshotChunk.
                 * @memberof platform.agent.v1
                 * @interface ISnapshotChunk
                 * @augments platform.agent.v1.SnapshotChunk.$Properties
                 * @deprecated Use platform.agent.v1.SnapshotChunk.$Properties instead.
                 */

                /**
                 * Shape of a SnapshotChunk.
                 * @typedef {platform.agent.v1.SnapshotChunk.$Properties} platform.agent.v1.SnapshotChunk.$Shape
                 */

                /**
                 * Constructs a new SnapshotChunk.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a SnapshotChunk.
                 * @constructor
                 * @param {platform.agent.v1.SnapshotChunk.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const SnapshotChunk = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * SnapshotChunk requestId.
                 * @member {string} requestId
                 * @memberof platform.agent.v1.SnapshotChunk
                 * @instance
                 */
                SnapshotChunk.prototype.requestId = "";

                /**
                 * SnapshotChunk data.
                 * @member {Uint8Array} data
                 * @memberof platform.agent.v1.SnapshotChunk
                 * @instance
                 */
                SnapshotChunk.prototype.data = $util.newBuffer([]);

                /**
                 * SnapshotChunk error.
                 * @member {string} error
                 * @memberof platform.agent.v1.SnapshotChunk
                 * @instance
                 */
                SnapshotChunk.prototype.error = "";

                /**
                 * SnapshotChunk errorKind.
                 * @member {string} errorKind
                 * @memberof platform.agent.v1.SnapshotChunk
                 * @instance
                 */
                SnapshotChunk.prototype.errorKind = "";

                /**
                 * Creates a new SnapshotChunk instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.SnapshotChunk
                 * @static
                 * @param {platform.agent.v1.SnapshotChunk.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.SnapshotChunk} SnapshotChunk instance
                 * @type {{
                 *   (properties: platform.agent.v1.SnapshotChunk.$Shape): platform.agent.v1.SnapshotChunk & platform.agent.v1.SnapshotChunk.$Shape;
                 *   (properties?: platform.agent.v1.SnapshotChunk.$Properties): platform.agent.v1.SnapshotChunk;
                 * }}
                 */
                SnapshotChunk.create = function(properties) {
                    return new SnapshotChunk(properties);
                };

                /**
                 * Encodes the specified SnapshotChunk message. Does not implicitly {@link platform.agent.v1.SnapshotChunk.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.SnapshotChunk
                 * @static
                 * @param {platform.agent.v1.SnapshotChunk.$Properties} m SnapshotChunk message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                SnapshotChunk.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.requestId != null && $Object.hasOwnProperty.call(m, "requestId") && m.requestId !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.requestId);
                    if (m.data != null && $Object.hasOwnProperty.call(m, "data") && m.data.length)
                        w.uint32(/* id 2, wireType 2 =*/18).bytes(m.data);
                    if (m.error != null && $Object.hasOwnProperty.call(m, "error") && m.error !== "")
                        w.uint32(/* id 3, wireType 2 =*/26).string(m.error);
                    if (m.errorKind != null && $Object.hasOwnProperty.call(m, "errorKind") && m.errorKind !== "")
                        w.uint32(/* id 4, wireType 2 =*/34).string(m.errorKind);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a SnapshotChunk message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.SnapshotChunk
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.SnapshotChunk & platform.agent.v1.SnapshotChunk.$Shape} SnapshotChunk
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                SnapshotChunk.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m, v;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.SnapshotChunk();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        var u = t & 7;
                        switch (t >>>= 3) {
                        case 1: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.requestId = v;
                                else
                                    delete m.requestId;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.bytes()).length)
                                    m.data = v;
                                else
                                    delete m.data;
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.error = v;
                                else
                                    delete m.error;
                                continue;
                            }
                        case 4: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.errorKind = v;
                                else
                                    delete m.errorKind;
                                continue;
                            }
                        }
                        r.skipType(u, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a SnapshotChunk message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.SnapshotChunk
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.SnapshotChunk} SnapshotChunk
                 */
                SnapshotChunk.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.SnapshotChunk)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.SnapshotChunk: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.agent.v1.SnapshotChunk();
                    if (d.requestId != null) {
                        if (typeof d.requestId !== "string" || d.requestId.length) {
                            m.requestId = $String(d.requestId);
                        }
                    }
                    if (d.data != null) {
                        if (d.data.length) {
                            if (typeof d.data === "string")
                                $util.base64.decode(d.data, m.data = $util.newBuffer($util.base64.length(d.data)), 0);
                            else if (d.data.length >= 0)
                                m.data = d.data;
                        }
                    }
                    if (d.error != null) {
                        if (typeof d.error !== "string" || d.error.length) {
                            m.error = $String(d.error);
                        }
                    }
                    if (d.errorKind != null) {
                        if (typeof d.errorKind !== "string" || d.errorKind.length) {
                            m.errorKind = $String(d.errorKind);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a SnapshotChunk message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.SnapshotChunk
                 * @static
                 * @param {platform.agent.v1.SnapshotChunk} m SnapshotChunk
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                SnapshotChunk.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.requestId = "";
                        if (o.bytes === $String)
                            d.data = "";
                        else {
                            d.data = [];
                            if (o.bytes !== $Array)
                                d.data = $util.newBuffer(d.data);
                        }
                        d.error = "";
                        d.errorKind = "";
                    }
                    if (m.requestId != null && $Object.hasOwnProperty.call(m, "requestId")) {
                        d.requestId = m.requestId;
                    }
                    if (m.data != null && $Object.hasOwnProperty.call(m, "data")) {
                        d.data = o.bytes === $String ? $util.base64.encode(m.data, 0, m.data.length) : o.bytes === $Array ? $Array.prototype.slice.call(m.data) : m.data;
                    }
                    if (m.error != null && $Object.hasOwnProperty.call(m, "error")) {
                        d.error = m.error;
                    }
                    if (m.errorKind != null && $Object.hasOwnProperty.call(m, "errorKind")) {
                        d.errorKind = m.errorKind;
                    }
                    return d;
                };

                /**
                 * Converts this SnapshotChunk to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.SnapshotChunk
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                SnapshotChunk.prototype.toJSON = function() {
                    return SnapshotChunk.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for SnapshotChunk
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.SnapshotChunk
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                SnapshotChunk.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.SnapshotChunk";
                };

                return SnapshotChunk;
            })();

            v1.SnapshotAck = (function() {

                /**
                 * Properties of a SnapshotAck.
                 * @typedef {Object} platform.agent.v1.SnapshotAck.$Properties
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a SnapshotAck.
                 * @memberof platform.agent.v1
                 * @interface ISnapshotAck
                 * @augments platform.agent.v1.SnapshotAck.$Properties
                 * @deprecated Use platform.agent.v1.SnapshotAck.$Properties instead.
                 */

                /**
                 * Shape of a SnapshotAck.
                 * @typedef {platform.agent.v1.SnapshotAck.$Properties} platform.agent.v1.SnapshotAck.$Shape
                 */

                /**
                 * Constructs a new SnapshotAck.
                 * @memberof platform.agent.v1
                 * @classdesc Represents a SnapshotAck.
                 * @constructor
                 * @param {platform.agent.v1.SnapshotAck.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const SnapshotAck = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * Creates a new SnapshotAck instance using the specified properties.
                 * @function create
                 * @memberof platform.agent.v1.SnapshotAck
                 * @static
                 * @param {platform.agent.v1.SnapshotAck.$Properties=} [properties] Properties to set
                 * @returns {platform.agent.v1.SnapshotAck} SnapshotAck instance
                 * @type {{
                 *   (properties: platform.agent.v1.SnapshotAck.$Shape): platform.agent.v1.SnapshotAck & platform.agent.v1.SnapshotAck.$Shape;
                 *   (properties?: platform.agent.v1.SnapshotAck.$Properties): platform.agent.v1.SnapshotAck;
                 * }}
                 */
                SnapshotAck.create = function(properties) {
                    return new SnapshotAck(properties);
                };

                /**
                 * Encodes the specified SnapshotAck message. Does not implicitly {@link platform.agent.v1.SnapshotAck.verify|verify} messages.
                 * @function encode
                 * @memberof platform.agent.v1.SnapshotAck
                 * @static
                 * @param {platform.agent.v1.SnapshotAck.$Properties} m SnapshotAck message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                SnapshotAck.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a SnapshotAck message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.agent.v1.SnapshotAck
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.agent.v1.SnapshotAck & platform.agent.v1.SnapshotAck.$Shape} SnapshotAck
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                SnapshotAck.decode = function (r, l, z, q, g) {
                    if (!(r instanceof $Reader))
                        r = $Reader.create(r);
                    if (q === $undefined)
                        q = 0;
                    if (q > $Reader.recursionLimit)
                        throw $Error("max depth exceeded");
                    var c, m;
                    if (l === $undefined)
                        c = r.len;
                    else {
                        c = r.pos + l;
                        if (c > r.len)
                            throw $RangeError("index out of range");
                        l = r.len;
                        r.len = c;
                    }
                    m = g || new $root.platform.agent.v1.SnapshotAck();
                    while (r.pos < c) {
                        var s = r.pos;
                        var t = r.tag();
                        if (t === z) {
                            z = $undefined;
                            break;
                        }
                        r.skipType(t & 7, q, t);
                        if (!r.discardUnknown) {
                            $util.makeProp(m, "$unknowns", false);
                            (m.$unknowns || (m.$unknowns = [])).push(r.raw(s, r.pos));
                        }
                    }
                    if (l !== $undefined) {
                        if (r.pos !== c)
                            throw $RangeError("index out of range");
                        r.len = l;
                    }
                    if (z !== $undefined)
                        throw $Error("missing end group");
                    return m;
                };

                /**
                 * Creates a SnapshotAck message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.agent.v1.SnapshotAck
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.agent.v1.SnapshotAck} SnapshotAck
                 */
                SnapshotAck.fromObject = function (d, q) {
                    if (d instanceof $root.platform.agent.v1.SnapshotAck)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.agent.v1.SnapshotAck: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    return new $root.platform.agent.v1.SnapshotAck();
                };

                /**
                 * Creates a plain object from a SnapshotAck message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.agent.v1.SnapshotAck
                 * @static
                 * @param {platform.agent.v1.SnapshotAck} m SnapshotAck
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                SnapshotAck.toObject = function () {
                    return {};
                };

                /**
                 * Converts this SnapshotAck to JSON.
                 * @function toJSON
                 * @memberof platform.agent.v1.SnapshotAck
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                SnapshotAck.prototype.toJSON = function() {
                    return SnapshotAck.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for SnapshotAck
                 * @function getTypeUrl
                 * @memberof platform.agent.v1.SnapshotAck
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                SnapshotAck.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.agent.v1.SnapshotAck";
                };

                return SnapshotAck;
            })();

            return v1;
        })();

        return agent;
    })();

    return platform;
})();

export {
  $root as default
};
