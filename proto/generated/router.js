/*eslint-disable block-scoped-var, id-length, no-control-regex, no-magic-numbers, no-mixed-operators, no-prototype-builtins, no-redeclare, no-shadow, no-var, sort-vars, default-case, jsdoc/require-param*/
import $protobuf from "protobufjs/minimal.js";

// Common aliases
const $Reader = $protobuf.Reader, $Writer = $protobuf.Writer, $util = $protobuf.util;
const $Object = $util.global.Object, $undefined = $util.global.undefined, $Error = $util.global.Error, $RangeError = $util.global.RangeError, $TypeError = $util.global.TypeError, $String = $util.global.String, $Number = $util.global.Number, $isFinite = $util.global.isFinite, $Boolean = $util.global.Boolean, $Array = $util.global.Array;

// Exported root namespace
const $root = $protobuf.roots["router"] || ($protobuf.roots["router"] = {});

export const platform = $root.platform = (() => {

    /**
     * Namespace platform.
     * @exports platform
     * @namespace
     */
    const platform = {};

    platform.router = (function() {

        /**
         * Namespace router.
         * @memberof platform
         * @namespace
         */
        const router = {};

        router.v1 = (function() {

            /**
             * Namespace v1.
             * @memberof platform.router
             * @namespace
             */
            const v1 = {};

            v1.RouteTableService = (function() {

                /**
                 * Constructs a new RouteTableService service.
                 * @memberof platform.router.v1
                 * @classdesc Represents a RouteTableService
                 * @extends $protobuf.rpc.Service
                 * @constructor
                 * @param {$protobuf.RPCImpl} rpcImpl RPC implementation
                 * @param {boolean} [requestDelimited=false] Whether requests are length-delimited
                 * @param {boolean} [responseDelimited=false] Whether responses are length-delimited
                 */
                const RouteTableService = function(rpcImpl, requestDelimited, responseDelimited) {
                    $protobuf.rpc.Service.call(this, rpcImpl, requestDelimited, responseDelimited);
                };

                $Object.defineProperty(RouteTableService.prototype = $Object.create($protobuf.rpc.Service.prototype), "constructor", { value: RouteTableService, writable: true, enumerable: false, configurable: true });

                /**
                 * Creates new RouteTableService service using the specified rpc implementation.
                 * @function create
                 * @memberof platform.router.v1.RouteTableService
                 * @static
                 * @param {$protobuf.RPCImpl} rpcImpl RPC implementation
                 * @param {boolean} [requestDelimited=false] Whether requests are length-delimited
                 * @param {boolean} [responseDelimited=false] Whether responses are length-delimited
                 * @returns {RouteTableService} RPC service. Useful where requests and/or responses are streamed.
                 */
                RouteTableService.create = function(rpcImpl, requestDelimited, responseDelimited) {
                    return new this(rpcImpl, requestDelimited, responseDelimited);
                };

                /**
                 * Callback as used by {@link platform.router.v1.RouteTableService#watch}.
                 * @memberof platform.router.v1.RouteTableService
                 * @typedef WatchCallback
                 * @type {function}
                 * @param {Error|null} error Error, if any
                 * @param {platform.router.v1.TableUpdate} [response] TableUpdate
                 */

                /**
                 * Calls Watch.
                 * @memberof platform.router.v1.RouteTableService
                 * @typedef Watch
                 * @type {{
                 *   (request: platform.router.v1.IWatchRequest, callback: platform.router.v1.RouteTableService.WatchCallback): void;
                 *   (request: platform.router.v1.IWatchRequest): Promise<platform.router.v1.TableUpdate>;
                 *   readonly name: "Watch";
                 *   readonly path: "/platform.router.v1.RouteTableService/Watch";
                 *   readonly requestType: "WatchRequest";
                 *   readonly responseType: "TableUpdate";
                 *   readonly requestStream: undefined;
                 *   readonly responseStream: true;
                 * }}
                 */

                /**
                 * Calls Watch.
                 * @name platform.router.v1.RouteTableService#watch
                 * @type {platform.router.v1.RouteTableService.Watch}
                 */
                $Object.defineProperties(RouteTableService.prototype.watch = function(request, callback) {
                    return $protobuf.rpc.Service.prototype.rpcCall.call(this, RouteTableService.prototype.watch, $root.platform.router.v1.WatchRequest, $root.platform.router.v1.TableUpdate, request, callback);
                }, {
                    name: { value: "Watch" },
                    path: { value: "/platform.router.v1.RouteTableService/Watch" },
                    requestType: { value: "WatchRequest" },
                    responseType: { value: "TableUpdate" },
                    requestStream: { value: $undefined },
                    responseStream: { value: true }
                });

                /**
                 * Callback as used by {@link platform.router.v1.RouteTableService#reportRequests}.
                 * @memberof platform.router.v1.RouteTableService
                 * @typedef ReportRequestsCallback
                 * @type {function}
                 * @param {Error|null} error Error, if any
                 * @param {platform.router.v1.RequestReportAck} [response] RequestReportAck
                 */

                /**
                 * Calls ReportRequests.
                 * @memberof platform.router.v1.RouteTableService
                 * @typedef ReportRequests
                 * @type {{
                 *   (request: platform.router.v1.IRequestReport, callback: platform.router.v1.RouteTableService.ReportRequestsCallback): void;
                 *   (request: platform.router.v1.IRequestReport): Promise<platform.router.v1.RequestReportAck>;
                 *   readonly name: "ReportRequests";
                 *   readonly path: "/platform.router.v1.RouteTableService/ReportRequests";
                 *   readonly requestType: "RequestReport";
                 *   readonly responseType: "RequestReportAck";
                 *   readonly requestStream: undefined;
                 *   readonly responseStream: undefined;
                 * }}
                 */

                /**
                 * Calls ReportRequests.
                 * @name platform.router.v1.RouteTableService#reportRequests
                 * @type {platform.router.v1.RouteTableService.ReportRequests}
                 */
                $Object.defineProperties(RouteTableService.prototype.reportRequests = function(request, callback) {
                    return $protobuf.rpc.Service.prototype.rpcCall.call(this, RouteTableService.prototype.reportRequests, $root.platform.router.v1.RequestReport, $root.platform.router.v1.RequestReportAck, request, callback);
                }, {
                    name: { value: "ReportRequests" },
                    path: { value: "/platform.router.v1.RouteTableService/ReportRequests" },
                    requestType: { value: "RequestReport" },
                    responseType: { value: "RequestReportAck" },
                    requestStream: { value: $undefined },
                    responseStream: { value: $undefined }
                });

                return RouteTableService;
            })();

            v1.WatchRequest = (function() {

                /**
                 * Properties of a WatchRequest.
                 * @typedef {Object} platform.router.v1.WatchRequest.$Properties
                 * @property {string|null} [epoch] WatchRequest epoch
                 * @property {number|null} [version] WatchRequest version
                 * @property {string|null} [routerName] WatchRequest routerName
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a WatchRequest.
                 * @memberof platform.router.v1
                 * @interface IWatchRequest
                 * @augments platform.router.v1.WatchRequest.$Properties
                 * @deprecated Use platform.router.v1.WatchRequest.$Properties instead.
                 */

                /**
                 * Shape of a WatchRequest.
                 * @typedef {platform.router.v1.WatchRequest.$Properties} platform.router.v1.WatchRequest.$Shape
                 */

                /**
                 * Constructs a new WatchRequest.
                 * @memberof platform.router.v1
                 * @classdesc Represents a WatchRequest.
                 * @constructor
                 * @param {platform.router.v1.WatchRequest.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const WatchRequest = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * WatchRequest epoch.
                 * @member {string} epoch
                 * @memberof platform.router.v1.WatchRequest
                 * @instance
                 */
                WatchRequest.prototype.epoch = "";

                /**
                 * WatchRequest version.
                 * @member {number} version
                 * @memberof platform.router.v1.WatchRequest
                 * @instance
                 */
                WatchRequest.prototype.version = 0;

                /**
                 * WatchRequest routerName.
                 * @member {string} routerName
                 * @memberof platform.router.v1.WatchRequest
                 * @instance
                 */
                WatchRequest.prototype.routerName = "";

                /**
                 * Creates a new WatchRequest instance using the specified properties.
                 * @function create
                 * @memberof platform.router.v1.WatchRequest
                 * @static
                 * @param {platform.router.v1.WatchRequest.$Properties=} [properties] Properties to set
                 * @returns {platform.router.v1.WatchRequest} WatchRequest instance
                 * @type {{
                 *   (properties: platform.router.v1.WatchRequest.$Shape): platform.router.v1.WatchRequest & platform.router.v1.WatchRequest.$Shape;
                 *   (properties?: platform.router.v1.WatchRequest.$Properties): platform.router.v1.WatchRequest;
                 * }}
                 */
                WatchRequest.create = function(properties) {
                    return new WatchRequest(properties);
                };

                /**
                 * Encodes the specified WatchRequest message. Does not implicitly {@link platform.router.v1.WatchRequest.verify|verify} messages.
                 * @function encode
                 * @memberof platform.router.v1.WatchRequest
                 * @static
                 * @param {platform.router.v1.WatchRequest.$Properties} m WatchRequest message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                WatchRequest.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.epoch != null && $Object.hasOwnProperty.call(m, "epoch") && m.epoch !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.epoch);
                    if (m.version != null && $Object.hasOwnProperty.call(m, "version") && !$Object.is(m.version, 0))
                        w.uint32(/* id 2, wireType 1 =*/17).double(m.version);
                    if (m.routerName != null && $Object.hasOwnProperty.call(m, "routerName") && m.routerName !== "")
                        w.uint32(/* id 3, wireType 2 =*/26).string(m.routerName);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a WatchRequest message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.router.v1.WatchRequest
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.router.v1.WatchRequest & platform.router.v1.WatchRequest.$Shape} WatchRequest
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                WatchRequest.decode = function (r, l, z, q, g) {
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
                    m = g || new $root.platform.router.v1.WatchRequest();
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
                                    m.epoch = v;
                                else
                                    delete m.epoch;
                                continue;
                            }
                        case 2: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.version = v;
                                else
                                    delete m.version;
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.routerName = v;
                                else
                                    delete m.routerName;
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
                 * Creates a WatchRequest message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.router.v1.WatchRequest
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.router.v1.WatchRequest} WatchRequest
                 */
                WatchRequest.fromObject = function (d, q) {
                    if (d instanceof $root.platform.router.v1.WatchRequest)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.router.v1.WatchRequest: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.router.v1.WatchRequest();
                    if (d.epoch != null) {
                        if (typeof d.epoch !== "string" || d.epoch.length) {
                            m.epoch = $String(d.epoch);
                        }
                    }
                    if (d.version != null) {
                        if (!$Object.is($Number(d.version), 0)) {
                            m.version = $Number(d.version);
                        }
                    }
                    if (d.routerName != null) {
                        if (typeof d.routerName !== "string" || d.routerName.length) {
                            m.routerName = $String(d.routerName);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a WatchRequest message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.router.v1.WatchRequest
                 * @static
                 * @param {platform.router.v1.WatchRequest} m WatchRequest
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                WatchRequest.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.epoch = "";
                        d.version = 0;
                        d.routerName = "";
                    }
                    if (m.epoch != null && $Object.hasOwnProperty.call(m, "epoch")) {
                        d.epoch = m.epoch;
                    }
                    if (m.version != null && $Object.hasOwnProperty.call(m, "version")) {
                        d.version = o.json && !$isFinite(m.version) ? $String(m.version) : m.version;
                    }
                    if (m.routerName != null && $Object.hasOwnProperty.call(m, "routerName")) {
                        d.routerName = m.routerName;
                    }
                    return d;
                };

                /**
                 * Converts this WatchRequest to JSON.
                 * @function toJSON
                 * @memberof platform.router.v1.WatchRequest
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                WatchRequest.prototype.toJSON = function() {
                    return WatchRequest.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for WatchRequest
                 * @function getTypeUrl
                 * @memberof platform.router.v1.WatchRequest
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                WatchRequest.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.router.v1.WatchRequest";
                };

                return WatchRequest;
            })();

            v1.TableUpdate = (function() {

                /**
                 * Properties of a TableUpdate.
                 * @typedef {Object} platform.router.v1.TableUpdate.$Properties
                 * @property {string|null} [epoch] TableUpdate epoch
                 * @property {number|null} [version] TableUpdate version
                 * @property {boolean|null} [snapshot] TableUpdate snapshot
                 * @property {Array.<platform.router.v1.TableEntry.$Properties>|null} [upserts] TableUpdate upserts
                 * @property {Array.<string>|null} [removes] TableUpdate removes
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a TableUpdate.
                 * @memberof platform.router.v1
                 * @interface ITableUpdate
                 * @augments platform.router.v1.TableUpdate.$Properties
                 * @deprecated Use platform.router.v1.TableUpdate.$Properties instead.
                 */

                /**
                 * Shape of a TableUpdate.
                 * @typedef {platform.router.v1.TableUpdate.$Properties} platform.router.v1.TableUpdate.$Shape
                 */

                /**
                 * Constructs a new TableUpdate.
                 * @memberof platform.router.v1
                 * @classdesc Represents a TableUpdate.
                 * @constructor
                 * @param {platform.router.v1.TableUpdate.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const TableUpdate = function (p) {
                    this.upserts = [];
                    this.removes = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * TableUpdate epoch.
                 * @member {string} epoch
                 * @memberof platform.router.v1.TableUpdate
                 * @instance
                 */
                TableUpdate.prototype.epoch = "";

                /**
                 * TableUpdate version.
                 * @member {number} version
                 * @memberof platform.router.v1.TableUpdate
                 * @instance
                 */
                TableUpdate.prototype.version = 0;

                /**
                 * TableUpdate snapshot.
                 * @member {boolean} snapshot
                 * @memberof platform.router.v1.TableUpdate
                 * @instance
                 */
                TableUpdate.prototype.snapshot = false;

                /**
                 * TableUpdate upserts.
                 * @member {Array.<platform.router.v1.TableEntry.$Properties>} upserts
                 * @memberof platform.router.v1.TableUpdate
                 * @instance
                 */
                TableUpdate.prototype.upserts = $util.emptyArray;

                /**
                 * TableUpdate removes.
                 * @member {Array.<string>} removes
                 * @memberof platform.router.v1.TableUpdate
                 * @instance
                 */
                TableUpdate.prototype.removes = $util.emptyArray;

                /**
                 * Creates a new TableUpdate instance using the specified properties.
                 * @function create
                 * @memberof platform.router.v1.TableUpdate
                 * @static
                 * @param {platform.router.v1.TableUpdate.$Properties=} [properties] Properties to set
                 * @returns {platform.router.v1.TableUpdate} TableUpdate instance
                 * @type {{
                 *   (properties: platform.router.v1.TableUpdate.$Shape): platform.router.v1.TableUpdate & platform.router.v1.TableUpdate.$Shape;
                 *   (properties?: platform.router.v1.TableUpdate.$Properties): platform.router.v1.TableUpdate;
                 * }}
                 */
                TableUpdate.create = function(properties) {
                    return new TableUpdate(properties);
                };

                /**
                 * Encodes the specified TableUpdate message. Does not implicitly {@link platform.router.v1.TableUpdate.verify|verify} messages.
                 * @function encode
                 * @memberof platform.router.v1.TableUpdate
                 * @static
                 * @param {platform.router.v1.TableUpdate.$Properties} m TableUpdate message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                TableUpdate.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.epoch != null && $Object.hasOwnProperty.call(m, "epoch") && m.epoch !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.epoch);
                    if (m.version != null && $Object.hasOwnProperty.call(m, "version") && !$Object.is(m.version, 0))
                        w.uint32(/* id 2, wireType 1 =*/17).double(m.version);
                    if (m.snapshot != null && $Object.hasOwnProperty.call(m, "snapshot") && m.snapshot !== false)
                        w.uint32(/* id 3, wireType 0 =*/24).bool(m.snapshot);
                    if (m.upserts != null && m.upserts.length) {
                        for (var i = 0; i < m.upserts.length; ++i)
                            $root.platform.router.v1.TableEntry.encode(m.upserts[i], w.uint32(/* id 4, wireType 2 =*/34).fork(), q + 1).ldelim();
                    }
                    if (m.removes != null && m.removes.length) {
                        for (var i = 0; i < m.removes.length; ++i)
                            w.uint32(/* id 5, wireType 2 =*/42).string(m.removes[i]);
                    }
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a TableUpdate message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.router.v1.TableUpdate
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.router.v1.TableUpdate & platform.router.v1.TableUpdate.$Shape} TableUpdate
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                TableUpdate.decode = function (r, l, z, q, g) {
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
                    m = g || new $root.platform.router.v1.TableUpdate();
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
                                    m.epoch = v;
                                else
                                    delete m.epoch;
                                continue;
                            }
                        case 2: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.version = v;
                                else
                                    delete m.version;
                                continue;
                            }
                        case 3: {
                                if (u !== 0)
                                    break;
                                if (v = r.bool())
                                    m.snapshot = v;
                                else
                                    delete m.snapshot;
                                continue;
                            }
                        case 4: {
                                if (u !== 2)
                                    break;
                                if (!(m.upserts && m.upserts.length))
                                    m.upserts = [];
                                m.upserts.push($root.platform.router.v1.TableEntry.decode(r, r.size(), $undefined, q + 1));
                                continue;
                            }
                        case 5: {
                                if (u !== 2)
                                    break;
                                if (!(m.removes && m.removes.length))
                                    m.removes = [];
                                m.removes.push(r.stringVerify());
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
                 * Creates a TableUpdate message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.router.v1.TableUpdate
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.router.v1.TableUpdate} TableUpdate
                 */
                TableUpdate.fromObject = function (d, q) {
                    if (d instanceof $root.platform.router.v1.TableUpdate)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.router.v1.TableUpdate: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.router.v1.TableUpdate();
                    if (d.epoch != null) {
                        if (typeof d.epoch !== "string" || d.epoch.length) {
                            m.epoch = $String(d.epoch);
                        }
                    }
                    if (d.version != null) {
                        if (!$Object.is($Number(d.version), 0)) {
                            m.version = $Number(d.version);
                        }
                    }
                    if (d.snapshot != null) {
                        if (d.snapshot) {
                            m.snapshot = $Boolean(d.snapshot);
                        }
                    }
                    if (d.upserts) {
                        if (!$Array.isArray(d.upserts))
                            throw $TypeError(".platform.router.v1.TableUpdate.upserts: array expected");
                        m.upserts = $Array(d.upserts.length);
                        for (var i = 0; i < d.upserts.length; ++i) {
                            if (!$util.isObject(d.upserts[i]))
                                throw $TypeError(".platform.router.v1.TableUpdate.upserts: object expected");
                            m.upserts[i] = $root.platform.router.v1.TableEntry.fromObject(d.upserts[i], q + 1);
                        }
                    }
                    if (d.removes) {
                        if (!$Array.isArray(d.removes))
                            throw $TypeError(".platform.router.v1.TableUpdate.removes: array expected");
                        m.removes = $Array(d.removes.length);
                        for (var i = 0; i < d.removes.length; ++i) {
                            m.removes[i] = $String(d.removes[i]);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a TableUpdate message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.router.v1.TableUpdate
                 * @static
                 * @param {platform.router.v1.TableUpdate} m TableUpdate
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                TableUpdate.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.upserts = [];
                        d.removes = [];
                    }
                    if (o.defaults) {
                        d.epoch = "";
                        d.version = 0;
                        d.snapshot = false;
                    }
                    if (m.epoch != null && $Object.hasOwnProperty.call(m, "epoch")) {
                        d.epoch = m.epoch;
                    }
                    if (m.version != null && $Object.hasOwnProperty.call(m, "version")) {
                        d.version = o.json && !$isFinite(m.version) ? $String(m.version) : m.version;
                    }
                    if (m.snapshot != null && $Object.hasOwnProperty.call(m, "snapshot")) {
                        d.snapshot = m.snapshot;
                    }
                    if (m.upserts && m.upserts.length) {
                        d.upserts = $Array(m.upserts.length);
                        for (var j = 0; j < m.upserts.length; ++j) {
                            d.upserts[j] = $root.platform.router.v1.TableEntry.toObject(m.upserts[j], o, q + 1);
                        }
                    }
                    if (m.removes && m.removes.length) {
                        d.removes = $Array(m.removes.length);
                        for (var j = 0; j < m.removes.length; ++j) {
                            d.removes[j] = m.removes[j];
                        }
                    }
                    return d;
                };

                /**
                 * Converts this TableUpdate to JSON.
                 * @function toJSON
                 * @memberof platform.router.v1.TableUpdate
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                TableUpdate.prototype.toJSON = function() {
                    return TableUpdate.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for TableUpdate
                 * @function getTypeUrl
                 * @memberof platform.router.v1.TableUpdate
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                TableUpdate.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.router.v1.TableUpdate";
                };

                return TableUpdate;
            })();

            v1.TableEntry = (function() {

                /**
                 * Properties of a TableEntry.
                 * @typedef {Object} platform.router.v1.TableEntry.$Properties
                 * @property {string|null} [type] TableEntry type
                 * @property {string|null} [endpoint] TableEntry endpoint
                 * @property {Array.<platform.router.v1.TablePath.$Properties>|null} [paths] TableEntry paths
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a TableEntry.
                 * @memberof platform.router.v1
                 * @interface ITableEntry
                 * @augments platform.router.v1.TableEntry.$Properties
                 * @deprecated Use platform.router.v1.TableEntry.$Properties instead.
                 */

                /**
                 * Shape of a TableEntry.
                 * @typedef {platform.router.v1.TableEntry.$Properties} platform.router.v1.TableEntry.$Shape
                 */

                /**
                 * Constructs a new TableEntry.
                 * @memberof platform.router.v1
                 * @classdesc Represents a TableEntry.
                 * @constructor
                 * @param {platform.router.v1.TableEntry.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const TableEntry = function (p) {
                    this.paths = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * TableEntry type.
                 * @member {string} type
                 * @memberof platform.router.v1.TableEntry
                 * @instance
                 */
                TableEntry.prototype.type = "";

                /**
                 * TableEntry endpoint.
                 * @member {string} endpoint
                 * @memberof platform.router.v1.TableEntry
                 * @instance
                 */
                TableEntry.prototype.endpoint = "";

                /**
                 * TableEntry paths.
                 * @member {Array.<platform.router.v1.TablePath.$Properties>} paths
                 * @memberof platform.router.v1.TableEntry
                 * @instance
                 */
                TableEntry.prototype.paths = $util.emptyArray;

                /**
                 * Creates a new TableEntry instance using the specified properties.
                 * @function create
                 * @memberof platform.router.v1.TableEntry
                 * @static
                 * @param {platform.router.v1.TableEntry.$Properties=} [properties] Properties to set
                 * @returns {platform.router.v1.TableEntry} TableEntry instance
                 * @type {{
                 *   (properties: platform.router.v1.TableEntry.$Shape): platform.router.v1.TableEntry & platform.router.v1.TableEntry.$Shape;
                 *   (properties?: platform.router.v1.TableEntry.$Properties): platform.router.v1.TableEntry;
                 * }}
                 */
                TableEntry.create = function(properties) {
                    return new TableEntry(properties);
                };

                /**
                 * Encodes the specified TableEntry message. Does not implicitly {@link platform.router.v1.TableEntry.verify|verify} messages.
                 * @function encode
                 * @memberof platform.router.v1.TableEntry
                 * @static
                 * @param {platform.router.v1.TableEntry.$Properties} m TableEntry message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                TableEntry.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.type != null && $Object.hasOwnProperty.call(m, "type") && m.type !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.type);
                    if (m.endpoint != null && $Object.hasOwnProperty.call(m, "endpoint") && m.endpoint !== "")
                        w.uint32(/* id 2, wireType 2 =*/18).string(m.endpoint);
                    if (m.paths != null && m.paths.length) {
                        for (var i = 0; i < m.paths.length; ++i)
                            $root.platform.router.v1.TablePath.encode(m.paths[i], w.uint32(/* id 3, wireType 2 =*/26).fork(), q + 1).ldelim();
                    }
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a TableEntry message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.router.v1.TableEntry
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.router.v1.TableEntry & platform.router.v1.TableEntry.$Shape} TableEntry
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                TableEntry.decode = function (r, l, z, q, g) {
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
                    m = g || new $root.platform.router.v1.TableEntry();
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
                                    m.type = v;
                                else
                                    delete m.type;
                                continue;
                            }
                        case 2: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.endpoint = v;
                                else
                                    delete m.endpoint;
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if (!(m.paths && m.paths.length))
                                    m.paths = [];
                                m.paths.push($root.platform.router.v1.TablePath.decode(r, r.size(), $undefined, q + 1));
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
                 * Creates a TableEntry message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.router.v1.TableEntry
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.router.v1.TableEntry} TableEntry
                 */
                TableEntry.fromObject = function (d, q) {
                    if (d instanceof $root.platform.router.v1.TableEntry)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.router.v1.TableEntry: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.router.v1.TableEntry();
                    if (d.type != null) {
                        if (typeof d.type !== "string" || d.type.length) {
                            m.type = $String(d.type);
                        }
                    }
                    if (d.endpoint != null) {
                        if (typeof d.endpoint !== "string" || d.endpoint.length) {
                            m.endpoint = $String(d.endpoint);
                        }
                    }
                    if (d.paths) {
                        if (!$Array.isArray(d.paths))
                            throw $TypeError(".platform.router.v1.TableEntry.paths: array expected");
                        m.paths = $Array(d.paths.length);
                        for (var i = 0; i < d.paths.length; ++i) {
                            if (!$util.isObject(d.paths[i]))
                                throw $TypeError(".platform.router.v1.TableEntry.paths: object expected");
                            m.paths[i] = $root.platform.router.v1.TablePath.fromObject(d.paths[i], q + 1);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a TableEntry message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.router.v1.TableEntry
                 * @static
                 * @param {platform.router.v1.TableEntry} m TableEntry
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                TableEntry.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.paths = [];
                    }
                    if (o.defaults) {
                        d.type = "";
                        d.endpoint = "";
                    }
                    if (m.type != null && $Object.hasOwnProperty.call(m, "type")) {
                        d.type = m.type;
                    }
                    if (m.endpoint != null && $Object.hasOwnProperty.call(m, "endpoint")) {
                        d.endpoint = m.endpoint;
                    }
                    if (m.paths && m.paths.length) {
                        d.paths = $Array(m.paths.length);
                        for (var j = 0; j < m.paths.length; ++j) {
                            d.paths[j] = $root.platform.router.v1.TablePath.toObject(m.paths[j], o, q + 1);
                        }
                    }
                    return d;
                };

                /**
                 * Converts this TableEntry to JSON.
                 * @function toJSON
                 * @memberof platform.router.v1.TableEntry
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                TableEntry.prototype.toJSON = function() {
                    return TableEntry.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for TableEntry
                 * @function getTypeUrl
                 * @memberof platform.router.v1.TableEntry
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                TableEntry.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.router.v1.TableEntry";
                };

                return TableEntry;
            })();

            v1.TablePath = (function() {

                /**
                 * Properties of a TablePath.
                 * @typedef {Object} platform.router.v1.TablePath.$Properties
                 * @property {string|null} [path] TablePath path
                 * @property {boolean|null} [httpsOnly] TablePath httpsOnly
                 * @property {Array.<platform.router.v1.TableJob.$Properties>|null} [jobs] TablePath jobs
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a TablePath.
                 * @memberof platform.router.v1
                 * @interface ITablePath
                 * @augments platform.router.v1.TablePath.$Properties
                 * @deprecated Use platform.router.v1.TablePath.$Properties instead.
                 */

                /**
                 * Shape of a TablePath.
                 * @typedef {platform.router.v1.TablePath.$Properties} platform.router.v1.TablePath.$Shape
                 */

                /**
                 * Constructs a new TablePath.
                 * @memberof platform.router.v1
                 * @classdesc Represents a TablePath.
                 * @constructor
                 * @param {platform.router.v1.TablePath.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const TablePath = function (p) {
                    this.jobs = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * TablePath path.
                 * @member {string} path
                 * @memberof platform.router.v1.TablePath
                 * @instance
                 */
                TablePath.prototype.path = "";

                /**
                 * TablePath httpsOnly.
                 * @member {boolean} httpsOnly
                 * @memberof platform.router.v1.TablePath
                 * @instance
                 */
                TablePath.prototype.httpsOnly = false;

                /**
                 * TablePath jobs.
                 * @member {Array.<platform.router.v1.TableJob.$Properties>} jobs
                 * @memberof platform.router.v1.TablePath
                 * @instance
                 */
                TablePath.prototype.jobs = $util.emptyArray;

                /**
                 * Creates a new TablePath instance using the specified properties.
                 * @function create
                 * @memberof platform.router.v1.TablePath
                 * @static
                 * @param {platform.router.v1.TablePath.$Properties=} [properties] Properties to set
                 * @returns {platform.router.v1.TablePath} TablePath instance
                 * @type {{
                 *   (properties: platform.router.v1.TablePath.$Shape): platform.router.v1.TablePath & platform.router.v1.TablePath.$Shape;
                 *   (properties?: platform.router.v1.TablePath.$Properties): platform.router.v1.TablePath;
                 * }}
                 */
                TablePath.create = function(properties) {
                    return new TablePath(properties);
                };

                /**
                 * Encodes the specified TablePath message. Does not implicitly {@link platform.router.v1.TablePath.verify|verify} messages.
                 * @function encode
                 * @memberof platform.router.v1.TablePath
                 * @static
                 * @param {platform.router.v1.TablePath.$Properties} m TablePath message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                TablePath.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.path != null && $Object.hasOwnProperty.call(m, "path") && m.path !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.path);
                    if (m.httpsOnly != null && $Object.hasOwnProperty.call(m, "httpsOnly") && m.httpsOnly !== false)
                        w.uint32(/* id 2, wireType 0 =*/16).bool(m.httpsOnly);
                    if (m.jobs != null && m.jobs.length) {
                        for (var i = 0; i < m.jobs.length; ++i)
                            $root.platform.router.v1.TableJob.encode(m.jobs[i], w.uint32(/* id 3, wireType 2 =*/26).fork(), q + 1).ldelim();
                    }
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a TablePath message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.router.v1.TablePath
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.router.v1.TablePath & platform.router.v1.TablePath.$Shape} TablePath
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                TablePath.decode = function (r, l, z, q, g) {
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
                    m = g || new $root.platform.router.v1.TablePath();
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
                                if (u !== 0)
                                    break;
                                if (v = r.bool())
                                    m.httpsOnly = v;
                                else
                                    delete m.httpsOnly;
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if (!(m.jobs && m.jobs.length))
                                    m.jobs = [];
                                m.jobs.push($root.platform.router.v1.TableJob.decode(r, r.size(), $undefined, q + 1));
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
                 * Creates a TablePath message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.router.v1.TablePath
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.router.v1.TablePath} TablePath
                 */
                TablePath.fromObject = function (d, q) {
                    if (d instanceof $root.platform.router.v1.TablePath)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.router.v1.TablePath: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.router.v1.TablePath();
                    if (d.path != null) {
                        if (typeof d.path !== "string" || d.path.length) {
                            m.path = $String(d.path);
                        }
                    }
                    if (d.httpsOnly != null) {
                        if (d.httpsOnly) {
                            m.httpsOnly = $Boolean(d.httpsOnly);
                        }
                    }
                    if (d.jobs) {
                        if (!$Array.isArray(d.jobs))
                            throw $TypeError(".platform.router.v1.TablePath.jobs: array expected");
                        m.jobs = $Array(d.jobs.length);
                        for (var i = 0; i < d.jobs.length; ++i) {
                            if (!$util.isObject(d.jobs[i]))
                                throw $TypeError(".platform.router.v1.TablePath.jobs: object expected");
                            m.jobs[i] = $root.platform.router.v1.TableJob.fromObject(d.jobs[i], q + 1);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a TablePath message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.router.v1.TablePath
                 * @static
                 * @param {platform.router.v1.TablePath} m TablePath
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                TablePath.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.jobs = [];
                    }
                    if (o.defaults) {
                        d.path = "";
                        d.httpsOnly = false;
                    }
                    if (m.path != null && $Object.hasOwnProperty.call(m, "path")) {
                        d.path = m.path;
                    }
                    if (m.httpsOnly != null && $Object.hasOwnProperty.call(m, "httpsOnly")) {
                        d.httpsOnly = m.httpsOnly;
                    }
                    if (m.jobs && m.jobs.length) {
                        d.jobs = $Array(m.jobs.length);
                        for (var j = 0; j < m.jobs.length; ++j) {
                            d.jobs[j] = $root.platform.router.v1.TableJob.toObject(m.jobs[j], o, q + 1);
                        }
                    }
                    return d;
                };

                /**
                 * Converts this TablePath to JSON.
                 * @function toJSON
                 * @memberof platform.router.v1.TablePath
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                TablePath.prototype.toJSON = function() {
                    return TablePath.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for TablePath
                 * @function getTypeUrl
                 * @memberof platform.router.v1.TablePath
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                TablePath.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.router.v1.TablePath";
                };

                return TablePath;
            })();

            v1.TableJob = (function() {

                /**
                 * Properties of a TableJob.
                 * @typedef {Object} platform.router.v1.TableJob.$Properties
                 * @property {string|null} [job] TableJob job
                 * @property {number|null} [weight] TableJob weight
                 * @property {Array.<string>|null} [stickyCookies] TableJob stickyCookies
                 * @property {Array.<platform.router.v1.TableBackend.$Properties>|null} [backends] TableJob backends
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a TableJob.
                 * @memberof platform.router.v1
                 * @interface ITableJob
                 * @augments platform.router.v1.TableJob.$Properties
                 * @deprecated Use platform.router.v1.TableJob.$Properties instead.
                 */

                /**
                 * Shape of a TableJob.
                 * @typedef {platform.router.v1.TableJob.$Properties} platform.router.v1.TableJob.$Shape
                 */

                /**
                 * Constructs a new TableJob.
                 * @memberof platform.router.v1
                 * @classdesc Represents a TableJob.
                 * @constructor
                 * @param {platform.router.v1.TableJob.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const TableJob = function (p) {
                    this.stickyCookies = [];
                    this.backends = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * TableJob job.
                 * @member {string} job
                 * @memberof platform.router.v1.TableJob
                 * @instance
                 */
                TableJob.prototype.job = "";

                /**
                 * TableJob weight.
                 * @member {number} weight
                 * @memberof platform.router.v1.TableJob
                 * @instance
                 */
                TableJob.prototype.weight = 0;

                /**
                 * TableJob stickyCookies.
                 * @member {Array.<string>} stickyCookies
                 * @memberof platform.router.v1.TableJob
                 * @instance
                 */
                TableJob.prototype.stickyCookies = $util.emptyArray;

                /**
                 * TableJob backends.
                 * @member {Array.<platform.router.v1.TableBackend.$Properties>} backends
                 * @memberof platform.router.v1.TableJob
                 * @instance
                 */
                TableJob.prototype.backends = $util.emptyArray;

                /**
                 * Creates a new TableJob instance using the specified properties.
                 * @function create
                 * @memberof platform.router.v1.TableJob
                 * @static
                 * @param {platform.router.v1.TableJob.$Properties=} [properties] Properties to set
                 * @returns {platform.router.v1.TableJob} TableJob instance
                 * @type {{
                 *   (properties: platform.router.v1.TableJob.$Shape): platform.router.v1.TableJob & platform.router.v1.TableJob.$Shape;
                 *   (properties?: platform.router.v1.TableJob.$Properties): platform.router.v1.TableJob;
                 * }}
                 */
                TableJob.create = function(properties) {
                    return new TableJob(properties);
                };

                /**
                 * Encodes the specified TableJob message. Does not implicitly {@link platform.router.v1.TableJob.verify|verify} messages.
                 * @function encode
                 * @memberof platform.router.v1.TableJob
                 * @static
                 * @param {platform.router.v1.TableJob.$Properties} m TableJob message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                TableJob.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.job != null && $Object.hasOwnProperty.call(m, "job") && m.job !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.job);
                    if (m.weight != null && $Object.hasOwnProperty.call(m, "weight") && !$Object.is(m.weight, 0))
                        w.uint32(/* id 2, wireType 1 =*/17).double(m.weight);
                    if (m.stickyCookies != null && m.stickyCookies.length) {
                        for (var i = 0; i < m.stickyCookies.length; ++i)
                            w.uint32(/* id 3, wireType 2 =*/26).string(m.stickyCookies[i]);
                    }
                    if (m.backends != null && m.backends.length) {
                        for (var i = 0; i < m.backends.length; ++i)
                            $root.platform.router.v1.TableBackend.encode(m.backends[i], w.uint32(/* id 4, wireType 2 =*/34).fork(), q + 1).ldelim();
                    }
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a TableJob message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.router.v1.TableJob
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.router.v1.TableJob & platform.router.v1.TableJob.$Shape} TableJob
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                TableJob.decode = function (r, l, z, q, g) {
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
                    m = g || new $root.platform.router.v1.TableJob();
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
                                    m.job = v;
                                else
                                    delete m.job;
                                continue;
                            }
                        case 2: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.weight = v;
                                else
                                    delete m.weight;
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if (!(m.stickyCookies && m.stickyCookies.length))
                                    m.stickyCookies = [];
                                m.stickyCookies.push(r.stringVerify());
                                continue;
                            }
                        case 4: {
                                if (u !== 2)
                                    break;
                                if (!(m.backends && m.backends.length))
                                    m.backends = [];
                                m.backends.push($root.platform.router.v1.TableBackend.decode(r, r.size(), $undefined, q + 1));
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
                 * Creates a TableJob message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.router.v1.TableJob
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.router.v1.TableJob} TableJob
                 */
                TableJob.fromObject = function (d, q) {
                    if (d instanceof $root.platform.router.v1.TableJob)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.router.v1.TableJob: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.router.v1.TableJob();
                    if (d.job != null) {
                        if (typeof d.job !== "string" || d.job.length) {
                            m.job = $String(d.job);
                        }
                    }
                    if (d.weight != null) {
                        if (!$Object.is($Number(d.weight), 0)) {
                            m.weight = $Number(d.weight);
                        }
                    }
                    if (d.stickyCookies) {
                        if (!$Array.isArray(d.stickyCookies))
                            throw $TypeError(".platform.router.v1.TableJob.stickyCookies: array expected");
                        m.stickyCookies = $Array(d.stickyCookies.length);
                        for (var i = 0; i < d.stickyCookies.length; ++i) {
                            m.stickyCookies[i] = $String(d.stickyCookies[i]);
                        }
                    }
                    if (d.backends) {
                        if (!$Array.isArray(d.backends))
                            throw $TypeError(".platform.router.v1.TableJob.backends: array expected");
                        m.backends = $Array(d.backends.length);
                        for (var i = 0; i < d.backends.length; ++i) {
                            if (!$util.isObject(d.backends[i]))
                                throw $TypeError(".platform.router.v1.TableJob.backends: object expected");
                            m.backends[i] = $root.platform.router.v1.TableBackend.fromObject(d.backends[i], q + 1);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a TableJob message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.router.v1.TableJob
                 * @static
                 * @param {platform.router.v1.TableJob} m TableJob
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                TableJob.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.stickyCookies = [];
                        d.backends = [];
                    }
                    if (o.defaults) {
                        d.job = "";
                        d.weight = 0;
                    }
                    if (m.job != null && $Object.hasOwnProperty.call(m, "job")) {
                        d.job = m.job;
                    }
                    if (m.weight != null && $Object.hasOwnProperty.call(m, "weight")) {
                        d.weight = o.json && !$isFinite(m.weight) ? $String(m.weight) : m.weight;
                    }
                    if (m.stickyCookies && m.stickyCookies.length) {
                        d.stickyCookies = $Array(m.stickyCookies.length);
                        for (var j = 0; j < m.stickyCookies.length; ++j) {
                            d.stickyCookies[j] = m.stickyCookies[j];
                        }
                    }
                    if (m.backends && m.backends.length) {
                        d.backends = $Array(m.backends.length);
                        for (var j = 0; j < m.backends.length; ++j) {
                            d.backends[j] = $root.platform.router.v1.TableBackend.toObject(m.backends[j], o, q + 1);
                        }
                    }
                    return d;
                };

                /**
                 * Converts this TableJob to JSON.
                 * @function toJSON
                 * @memberof platform.router.v1.TableJob
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                TableJob.prototype.toJSON = function() {
                    return TableJob.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for TableJob
                 * @function getTypeUrl
                 * @memberof platform.router.v1.TableJob
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                TableJob.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.router.v1.TableJob";
                };

                return TableJob;
            })();

            v1.TableBackend = (function() {

                /**
                 * Properties of a TableBackend.
                 * @typedef {Object} platform.router.v1.TableBackend.$Properties
                 * @property {string|null} [instance] TableBackend instance
                 * @property {string|null} [address] TableBackend address
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a TableBackend.
                 * @memberof platform.router.v1
                 * @interface ITableBackend
                 * @augments platform.router.v1.TableBackend.$Properties
                 * @deprecated Use platform.router.v1.TableBackend.$Properties instead.
                 */

                /**
                 * Shape of a TableBackend.
                 * @typedef {platform.router.v1.TableBackend.$Properties} platform.router.v1.TableBackend.$Shape
                 */

                /**
                 * Constructs a new TableBackend.
                 * @memberof platform.router.v1
                 * @classdesc Represents a TableBackend.
                 * @constructor
                 * @param {platform.router.v1.TableBackend.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const TableBackend = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * TableBackend instance.
                 * @member {string} instance
                 * @memberof platform.router.v1.TableBackend
                 * @instance
                 */
                TableBackend.prototype.instance = "";

                /**
                 * TableBackend address.
                 * @member {string} address
                 * @memberof platform.router.v1.TableBackend
                 * @instance
                 */
                TableBackend.prototype.address = "";

                /**
                 * Creates a new TableBackend instance using the specified properties.
                 * @function create
                 * @memberof platform.router.v1.TableBackend
                 * @static
                 * @param {platform.router.v1.TableBackend.$Properties=} [properties] Properties to set
                 * @returns {platform.router.v1.TableBackend} TableBackend instance
                 * @type {{
                 *   (properties: platform.router.v1.TableBackend.$Shape): platform.router.v1.TableBackend & platform.router.v1.TableBackend.$Shape;
                 *   (properties?: platform.router.v1.TableBackend.$Properties): platform.router.v1.TableBackend;
                 * }}
                 */
                TableBackend.create = function(properties) {
                    return new TableBackend(properties);
                };

                /**
                 * Encodes the specified TableBackend message. Does not implicitly {@link platform.router.v1.TableBackend.verify|verify} messages.
                 * @function encode
                 * @memberof platform.router.v1.TableBackend
                 * @static
                 * @param {platform.router.v1.TableBackend.$Properties} m TableBackend message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                TableBackend.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.instance != null && $Object.hasOwnProperty.call(m, "instance") && m.instance !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.instance);
                    if (m.address != null && $Object.hasOwnProperty.call(m, "address") && m.address !== "")
                        w.uint32(/* id 2, wireType 2 =*/18).string(m.address);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a TableBackend message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.router.v1.TableBackend
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.router.v1.TableBackend & platform.router.v1.TableBackend.$Shape} TableBackend
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                TableBackend.decode = function (r, l, z, q, g) {
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
                    m = g || new $root.platform.router.v1.TableBackend();
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
                                    m.instance = v;
                                else
                                    delete m.instance;
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
                 * Creates a TableBackend message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.router.v1.TableBackend
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.router.v1.TableBackend} TableBackend
                 */
                TableBackend.fromObject = function (d, q) {
                    if (d instanceof $root.platform.router.v1.TableBackend)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.router.v1.TableBackend: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.router.v1.TableBackend();
                    if (d.instance != null) {
                        if (typeof d.instance !== "string" || d.instance.length) {
                            m.instance = $String(d.instance);
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
                 * Creates a plain object from a TableBackend message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.router.v1.TableBackend
                 * @static
                 * @param {platform.router.v1.TableBackend} m TableBackend
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                TableBackend.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.instance = "";
                        d.address = "";
                    }
                    if (m.instance != null && $Object.hasOwnProperty.call(m, "instance")) {
                        d.instance = m.instance;
                    }
                    if (m.address != null && $Object.hasOwnProperty.call(m, "address")) {
                        d.address = m.address;
                    }
                    return d;
                };

                /**
                 * Converts this TableBackend to JSON.
                 * @function toJSON
                 * @memberof platform.router.v1.TableBackend
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                TableBackend.prototype.toJSON = function() {
                    return TableBackend.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for TableBackend
                 * @function getTypeUrl
                 * @memberof platform.router.v1.TableBackend
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                TableBackend.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.router.v1.TableBackend";
                };

                return TableBackend;
            })();

            v1.RequestReport = (function() {

                /**
                 * Properties of a RequestReport.
                 * @typedef {Object} platform.router.v1.RequestReport.$Properties
                 * @property {string|null} [routerId] RequestReport routerId
                 * @property {number|null} [sequence] RequestReport sequence
                 * @property {string|null} [routerName] RequestReport routerName
                 * @property {Array.<platform.router.v1.JobRequests.$Properties>|null} [jobs] RequestReport jobs
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a RequestReport.
                 * @memberof platform.router.v1
                 * @interface IRequestReport
                 * @augments platform.router.v1.RequestReport.$Properties
                 * @deprecated Use platform.router.v1.RequestReport.$Properties instead.
                 */

                /**
                 * Shape of a RequestReport.
                 * @typedef {platform.router.v1.RequestReport.$Properties} platform.router.v1.RequestReport.$Shape
                 */

                /**
                 * Constructs a new RequestReport.
                 * @memberof platform.router.v1
                 * @classdesc Represents a RequestReport.
                 * @constructor
                 * @param {platform.router.v1.RequestReport.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const RequestReport = function (p) {
                    this.jobs = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * RequestReport routerId.
                 * @member {string} routerId
                 * @memberof platform.router.v1.RequestReport
                 * @instance
                 */
                RequestReport.prototype.routerId = "";

                /**
                 * RequestReport sequence.
                 * @member {number} sequence
                 * @memberof platform.router.v1.RequestReport
                 * @instance
                 */
                RequestReport.prototype.sequence = 0;

                /**
                 * RequestReport routerName.
                 * @member {string} routerName
                 * @memberof platform.router.v1.RequestReport
                 * @instance
                 */
                RequestReport.prototype.routerName = "";

                /**
                 * RequestReport jobs.
                 * @member {Array.<platform.router.v1.JobRequests.$Properties>} jobs
                 * @memberof platform.router.v1.RequestReport
                 * @instance
                 */
                RequestReport.prototype.jobs = $util.emptyArray;

                /**
                 * Creates a new RequestReport instance using the specified properties.
                 * @function create
                 * @memberof platform.router.v1.RequestReport
                 * @static
                 * @param {platform.router.v1.RequestReport.$Properties=} [properties] Properties to set
                 * @returns {platform.router.v1.RequestReport} RequestReport instance
                 * @type {{
                 *   (properties: platform.router.v1.RequestReport.$Shape): platform.router.v1.RequestReport & platform.router.v1.RequestReport.$Shape;
                 *   (properties?: platform.router.v1.RequestReport.$Properties): platform.router.v1.RequestReport;
                 * }}
                 */
                RequestReport.create = function(properties) {
                    return new RequestReport(properties);
                };

                /**
                 * Encodes the specified RequestReport message. Does not implicitly {@link platform.router.v1.RequestReport.verify|verify} messages.
                 * @function encode
                 * @memberof platform.router.v1.RequestReport
                 * @static
                 * @param {platform.router.v1.RequestReport.$Properties} m RequestReport message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                RequestReport.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.routerId != null && $Object.hasOwnProperty.call(m, "routerId") && m.routerId !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.routerId);
                    if (m.sequence != null && $Object.hasOwnProperty.call(m, "sequence") && !$Object.is(m.sequence, 0))
                        w.uint32(/* id 2, wireType 1 =*/17).double(m.sequence);
                    if (m.routerName != null && $Object.hasOwnProperty.call(m, "routerName") && m.routerName !== "")
                        w.uint32(/* id 3, wireType 2 =*/26).string(m.routerName);
                    if (m.jobs != null && m.jobs.length) {
                        for (var i = 0; i < m.jobs.length; ++i)
                            $root.platform.router.v1.JobRequests.encode(m.jobs[i], w.uint32(/* id 4, wireType 2 =*/34).fork(), q + 1).ldelim();
                    }
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a RequestReport message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.router.v1.RequestReport
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.router.v1.RequestReport & platform.router.v1.RequestReport.$Shape} RequestReport
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                RequestReport.decode = function (r, l, z, q, g) {
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
                    m = g || new $root.platform.router.v1.RequestReport();
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
                                    m.routerId = v;
                                else
                                    delete m.routerId;
                                continue;
                            }
                        case 2: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.sequence = v;
                                else
                                    delete m.sequence;
                                continue;
                            }
                        case 3: {
                                if (u !== 2)
                                    break;
                                if ((v = r.stringVerify()).length)
                                    m.routerName = v;
                                else
                                    delete m.routerName;
                                continue;
                            }
                        case 4: {
                                if (u !== 2)
                                    break;
                                if (!(m.jobs && m.jobs.length))
                                    m.jobs = [];
                                m.jobs.push($root.platform.router.v1.JobRequests.decode(r, r.size(), $undefined, q + 1));
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
                 * Creates a RequestReport message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.router.v1.RequestReport
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.router.v1.RequestReport} RequestReport
                 */
                RequestReport.fromObject = function (d, q) {
                    if (d instanceof $root.platform.router.v1.RequestReport)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.router.v1.RequestReport: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.router.v1.RequestReport();
                    if (d.routerId != null) {
                        if (typeof d.routerId !== "string" || d.routerId.length) {
                            m.routerId = $String(d.routerId);
                        }
                    }
                    if (d.sequence != null) {
                        if (!$Object.is($Number(d.sequence), 0)) {
                            m.sequence = $Number(d.sequence);
                        }
                    }
                    if (d.routerName != null) {
                        if (typeof d.routerName !== "string" || d.routerName.length) {
                            m.routerName = $String(d.routerName);
                        }
                    }
                    if (d.jobs) {
                        if (!$Array.isArray(d.jobs))
                            throw $TypeError(".platform.router.v1.RequestReport.jobs: array expected");
                        m.jobs = $Array(d.jobs.length);
                        for (var i = 0; i < d.jobs.length; ++i) {
                            if (!$util.isObject(d.jobs[i]))
                                throw $TypeError(".platform.router.v1.RequestReport.jobs: object expected");
                            m.jobs[i] = $root.platform.router.v1.JobRequests.fromObject(d.jobs[i], q + 1);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a RequestReport message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.router.v1.RequestReport
                 * @static
                 * @param {platform.router.v1.RequestReport} m RequestReport
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                RequestReport.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.jobs = [];
                    }
                    if (o.defaults) {
                        d.routerId = "";
                        d.sequence = 0;
                        d.routerName = "";
                    }
                    if (m.routerId != null && $Object.hasOwnProperty.call(m, "routerId")) {
                        d.routerId = m.routerId;
                    }
                    if (m.sequence != null && $Object.hasOwnProperty.call(m, "sequence")) {
                        d.sequence = o.json && !$isFinite(m.sequence) ? $String(m.sequence) : m.sequence;
                    }
                    if (m.routerName != null && $Object.hasOwnProperty.call(m, "routerName")) {
                        d.routerName = m.routerName;
                    }
                    if (m.jobs && m.jobs.length) {
                        d.jobs = $Array(m.jobs.length);
                        for (var j = 0; j < m.jobs.length; ++j) {
                            d.jobs[j] = $root.platform.router.v1.JobRequests.toObject(m.jobs[j], o, q + 1);
                        }
                    }
                    return d;
                };

                /**
                 * Converts this RequestReport to JSON.
                 * @function toJSON
                 * @memberof platform.router.v1.RequestReport
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                RequestReport.prototype.toJSON = function() {
                    return RequestReport.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for RequestReport
                 * @function getTypeUrl
                 * @memberof platform.router.v1.RequestReport
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                RequestReport.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.router.v1.RequestReport";
                };

                return RequestReport;
            })();

            v1.JobRequests = (function() {

                /**
                 * Properties of a JobRequests.
                 * @typedef {Object} platform.router.v1.JobRequests.$Properties
                 * @property {string|null} [job] JobRequests job
                 * @property {number|null} [requests] JobRequests requests
                 * @property {number|null} [errors] JobRequests errors
                 * @property {number|null} [latencySumMs] JobRequests latencySumMs
                 * @property {number|null} [latencyMaxMs] JobRequests latencyMaxMs
                 * @property {Array.<number>|null} [latencyBuckets] JobRequests latencyBuckets
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a JobRequests.
                 * @memberof platform.router.v1
                 * @interface IJobRequests
                 * @augments platform.router.v1.JobRequests.$Properties
                 * @deprecated Use platform.router.v1.JobRequests.$Properties instead.
                 */

                /**
                 * Shape of a JobRequests.
                 * @typedef {platform.router.v1.JobRequests.$Properties} platform.router.v1.JobRequests.$Shape
                 */

                /**
                 * Constructs a new JobRequests.
                 * @memberof platform.router.v1
                 * @classdesc Represents a JobRequests.
                 * @constructor
                 * @param {platform.router.v1.JobRequests.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const JobRequests = function (p) {
                    this.latencyBuckets = [];
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * JobRequests job.
                 * @member {string} job
                 * @memberof platform.router.v1.JobRequests
                 * @instance
                 */
                JobRequests.prototype.job = "";

                /**
                 * JobRequests requests.
                 * @member {number} requests
                 * @memberof platform.router.v1.JobRequests
                 * @instance
                 */
                JobRequests.prototype.requests = 0;

                /**
                 * JobRequests errors.
                 * @member {number} errors
                 * @memberof platform.router.v1.JobRequests
                 * @instance
                 */
                JobRequests.prototype.errors = 0;

                /**
                 * JobRequests latencySumMs.
                 * @member {number} latencySumMs
                 * @memberof platform.router.v1.JobRequests
                 * @instance
                 */
                JobRequests.prototype.latencySumMs = 0;

                /**
                 * JobRequests latencyMaxMs.
                 * @member {number} latencyMaxMs
                 * @memberof platform.router.v1.JobRequests
                 * @instance
                 */
                JobRequests.prototype.latencyMaxMs = 0;

                /**
                 * JobRequests latencyBuckets.
                 * @member {Array.<number>} latencyBuckets
                 * @memberof platform.router.v1.JobRequests
                 * @instance
                 */
                JobRequests.prototype.latencyBuckets = $util.emptyArray;

                /**
                 * Creates a new JobRequests instance using the specified properties.
                 * @function create
                 * @memberof platform.router.v1.JobRequests
                 * @static
                 * @param {platform.router.v1.JobRequests.$Properties=} [properties] Properties to set
                 * @returns {platform.router.v1.JobRequests} JobRequests instance
                 * @type {{
                 *   (properties: platform.router.v1.JobRequests.$Shape): platform.router.v1.JobRequests & platform.router.v1.JobRequests.$Shape;
                 *   (properties?: platform.router.v1.JobRequests.$Properties): platform.router.v1.JobRequests;
                 * }}
                 */
                JobRequests.create = function(properties) {
                    return new JobRequests(properties);
                };

                /**
                 * Encodes the specified JobRequests message. Does not implicitly {@link platform.router.v1.JobRequests.verify|verify} messages.
                 * @function encode
                 * @memberof platform.router.v1.JobRequests
                 * @static
                 * @param {platform.router.v1.JobRequests.$Properties} m JobRequests message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                JobRequests.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.job != null && $Object.hasOwnProperty.call(m, "job") && m.job !== "")
                        w.uint32(/* id 1, wireType 2 =*/10).string(m.job);
                    if (m.requests != null && $Object.hasOwnProperty.call(m, "requests") && !$Object.is(m.requests, 0))
                        w.uint32(/* id 2, wireType 1 =*/17).double(m.requests);
                    if (m.errors != null && $Object.hasOwnProperty.call(m, "errors") && !$Object.is(m.errors, 0))
                        w.uint32(/* id 3, wireType 1 =*/25).double(m.errors);
                    if (m.latencySumMs != null && $Object.hasOwnProperty.call(m, "latencySumMs") && !$Object.is(m.latencySumMs, 0))
                        w.uint32(/* id 4, wireType 1 =*/33).double(m.latencySumMs);
                    if (m.latencyMaxMs != null && $Object.hasOwnProperty.call(m, "latencyMaxMs") && !$Object.is(m.latencyMaxMs, 0))
                        w.uint32(/* id 5, wireType 1 =*/41).double(m.latencyMaxMs);
                    if (m.latencyBuckets != null && m.latencyBuckets.length) {
                        w.uint32(/* id 6, wireType 2 =*/50).doubles(m.latencyBuckets);
                    }
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a JobRequests message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.router.v1.JobRequests
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.router.v1.JobRequests & platform.router.v1.JobRequests.$Shape} JobRequests
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                JobRequests.decode = function (r, l, z, q, g) {
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
                    m = g || new $root.platform.router.v1.JobRequests();
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
                                    m.job = v;
                                else
                                    delete m.job;
                                continue;
                            }
                        case 2: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.requests = v;
                                else
                                    delete m.requests;
                                continue;
                            }
                        case 3: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.errors = v;
                                else
                                    delete m.errors;
                                continue;
                            }
                        case 4: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.latencySumMs = v;
                                else
                                    delete m.latencySumMs;
                                continue;
                            }
                        case 5: {
                                if (u !== 1)
                                    break;
                                if (!$Object.is(v = r.double(), 0))
                                    m.latencyMaxMs = v;
                                else
                                    delete m.latencyMaxMs;
                                continue;
                            }
                        case 6: {
                                if (u === 2) {
                                    if (!(m.latencyBuckets && m.latencyBuckets.length))
                                        m.latencyBuckets = [];
                                    r.doubles(m.latencyBuckets);
                                    continue;
                                }
                                if (u !== 1)
                                    break;
                                if (!(m.latencyBuckets && m.latencyBuckets.length))
                                    m.latencyBuckets = [];
                                m.latencyBuckets.push(r.double());
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
                 * Creates a JobRequests message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.router.v1.JobRequests
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.router.v1.JobRequests} JobRequests
                 */
                JobRequests.fromObject = function (d, q) {
                    if (d instanceof $root.platform.router.v1.JobRequests)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.router.v1.JobRequests: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.router.v1.JobRequests();
                    if (d.job != null) {
                        if (typeof d.job !== "string" || d.job.length) {
                            m.job = $String(d.job);
                        }
                    }
                    if (d.requests != null) {
                        if (!$Object.is($Number(d.requests), 0)) {
                            m.requests = $Number(d.requests);
                        }
                    }
                    if (d.errors != null) {
                        if (!$Object.is($Number(d.errors), 0)) {
                            m.errors = $Number(d.errors);
                        }
                    }
                    if (d.latencySumMs != null) {
                        if (!$Object.is($Number(d.latencySumMs), 0)) {
                            m.latencySumMs = $Number(d.latencySumMs);
                        }
                    }
                    if (d.latencyMaxMs != null) {
                        if (!$Object.is($Number(d.latencyMaxMs), 0)) {
                            m.latencyMaxMs = $Number(d.latencyMaxMs);
                        }
                    }
                    if (d.latencyBuckets) {
                        if (!$Array.isArray(d.latencyBuckets))
                            throw $TypeError(".platform.router.v1.JobRequests.latencyBuckets: array expected");
                        m.latencyBuckets = $Array(d.latencyBuckets.length);
                        for (var i = 0; i < d.latencyBuckets.length; ++i) {
                            m.latencyBuckets[i] = $Number(d.latencyBuckets[i]);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a JobRequests message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.router.v1.JobRequests
                 * @static
                 * @param {platform.router.v1.JobRequests} m JobRequests
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                JobRequests.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.arrays || o.defaults) {
                        d.latencyBuckets = [];
                    }
                    if (o.defaults) {
                        d.job = "";
                        d.requests = 0;
                        d.errors = 0;
                        d.latencySumMs = 0;
                        d.latencyMaxMs = 0;
                    }
                    if (m.job != null && $Object.hasOwnProperty.call(m, "job")) {
                        d.job = m.job;
                    }
                    if (m.requests != null && $Object.hasOwnProperty.call(m, "requests")) {
                        d.requests = o.json && !$isFinite(m.requests) ? $String(m.requests) : m.requests;
                    }
                    if (m.errors != null && $Object.hasOwnProperty.call(m, "errors")) {
                        d.errors = o.json && !$isFinite(m.errors) ? $String(m.errors) : m.errors;
                    }
                    if (m.latencySumMs != null && $Object.hasOwnProperty.call(m, "latencySumMs")) {
                        d.latencySumMs = o.json && !$isFinite(m.latencySumMs) ? $String(m.latencySumMs) : m.latencySumMs;
                    }
                    if (m.latencyMaxMs != null && $Object.hasOwnProperty.call(m, "latencyMaxMs")) {
                        d.latencyMaxMs = o.json && !$isFinite(m.latencyMaxMs) ? $String(m.latencyMaxMs) : m.latencyMaxMs;
                    }
                    if (m.latencyBuckets && m.latencyBuckets.length) {
                        d.latencyBuckets = $Array(m.latencyBuckets.length);
                        for (var j = 0; j < m.latencyBuckets.length; ++j) {
                            d.latencyBuckets[j] = o.json && !$isFinite(m.latencyBuckets[j]) ? $String(m.latencyBuckets[j]) : m.latencyBuckets[j];
                        }
                    }
                    return d;
                };

                /**
                 * Converts this JobRequests to JSON.
                 * @function toJSON
                 * @memberof platform.router.v1.JobRequests
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                JobRequests.prototype.toJSON = function() {
                    return JobRequests.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for JobRequests
                 * @function getTypeUrl
                 * @memberof platform.router.v1.JobRequests
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                JobRequests.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.router.v1.JobRequests";
                };

                return JobRequests;
            })();

            v1.RequestReportAck = (function() {

                /**
                 * Properties of a RequestReportAck.
                 * @typedef {Object} platform.router.v1.RequestReportAck.$Properties
                 * @property {boolean|null} [counted] RequestReportAck counted
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */

                /**
                 * Properties of a RequestReportAck.
                 * @memberof platform.router.v1
                 * @interface IRequestReportAck
                 * @augments platform.router.v1.RequestReportAck.$Properties
                 * @deprecated Use platform.router.v1.RequestReportAck.$Properties instead.
                 */

                /**
                 * Shape of a RequestReportAck.
                 * @typedef {platform.router.v1.RequestReportAck.$Properties} platform.router.v1.RequestReportAck.$Shape
                 */

                /**
                 * Constructs a new RequestReportAck.
                 * @memberof platform.router.v1
                 * @classdesc Represents a RequestReportAck.
                 * @constructor
                 * @param {platform.router.v1.RequestReportAck.$Properties=} [p] Properties to set
                 * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
                 */
                const RequestReportAck = function (p) {
                    if (p)
                        for (var ks = $Object.keys(p), i = 0; i < ks.length; ++i)
                            if (p[ks[i]] != null && ks[i] !== "__proto__")
                                this[ks[i]] = p[ks[i]];
                };

                /**
                 * RequestReportAck counted.
                 * @member {boolean} counted
                 * @memberof platform.router.v1.RequestReportAck
                 * @instance
                 */
                RequestReportAck.prototype.counted = false;

                /**
                 * Creates a new RequestReportAck instance using the specified properties.
                 * @function create
                 * @memberof platform.router.v1.RequestReportAck
                 * @static
                 * @param {platform.router.v1.RequestReportAck.$Properties=} [properties] Properties to set
                 * @returns {platform.router.v1.RequestReportAck} RequestReportAck instance
                 * @type {{
                 *   (properties: platform.router.v1.RequestReportAck.$Shape): platform.router.v1.RequestReportAck & platform.router.v1.RequestReportAck.$Shape;
                 *   (properties?: platform.router.v1.RequestReportAck.$Properties): platform.router.v1.RequestReportAck;
                 * }}
                 */
                RequestReportAck.create = function(properties) {
                    return new RequestReportAck(properties);
                };

                /**
                 * Encodes the specified RequestReportAck message. Does not implicitly {@link platform.router.v1.RequestReportAck.verify|verify} messages.
                 * @function encode
                 * @memberof platform.router.v1.RequestReportAck
                 * @static
                 * @param {platform.router.v1.RequestReportAck.$Properties} m RequestReportAck message or plain object to encode
                 * @param {$protobuf.Writer} [w] Writer to encode to
                 * @returns {$protobuf.Writer} Writer
                 */
                RequestReportAck.encode = function (m, w, q) {
                    if (!w)
                        w = $Writer.create();
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    if (m.counted != null && $Object.hasOwnProperty.call(m, "counted") && m.counted !== false)
                        w.uint32(/* id 1, wireType 0 =*/8).bool(m.counted);
                    if (m.$unknowns != null && $Object.hasOwnProperty.call(m, "$unknowns"))
                        for (var i = 0; i < m.$unknowns.length; ++i)
                            w.raw(m.$unknowns[i]);
                    return w;
                };

                /**
                 * Decodes a RequestReportAck message from the specified reader or buffer.
                 * @function decode
                 * @memberof platform.router.v1.RequestReportAck
                 * @static
                 * @param {$protobuf.Reader|Uint8Array} r Reader or buffer to decode from
                 * @param {number} [l] Message length if known beforehand
                 * @returns {platform.router.v1.RequestReportAck & platform.router.v1.RequestReportAck.$Shape} RequestReportAck
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                RequestReportAck.decode = function (r, l, z, q, g) {
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
                    m = g || new $root.platform.router.v1.RequestReportAck();
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
                                if (v = r.bool())
                                    m.counted = v;
                                else
                                    delete m.counted;
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
                 * Creates a RequestReportAck message from a plain object. Also converts values to their respective internal types.
                 * @function fromObject
                 * @memberof platform.router.v1.RequestReportAck
                 * @static
                 * @param {Object.<string,*>} d Plain object
                 * @returns {platform.router.v1.RequestReportAck} RequestReportAck
                 */
                RequestReportAck.fromObject = function (d, q) {
                    if (d instanceof $root.platform.router.v1.RequestReportAck)
                        return d;
                    if (!$util.isObject(d))
                        throw $TypeError(".platform.router.v1.RequestReportAck: object expected");
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var m = new $root.platform.router.v1.RequestReportAck();
                    if (d.counted != null) {
                        if (d.counted) {
                            m.counted = $Boolean(d.counted);
                        }
                    }
                    return m;
                };

                /**
                 * Creates a plain object from a RequestReportAck message. Also converts values to other types if specified.
                 * @function toObject
                 * @memberof platform.router.v1.RequestReportAck
                 * @static
                 * @param {platform.router.v1.RequestReportAck} m RequestReportAck
                 * @param {$protobuf.IConversionOptions} [o] Conversion options
                 * @returns {Object.<string,*>} Plain object
                 */
                RequestReportAck.toObject = function (m, o, q) {
                    if (!o)
                        o = {};
                    if (q === $undefined)
                        q = 0;
                    if (q > $util.recursionLimit)
                        throw $Error("max depth exceeded");
                    var d = {};
                    if (o.defaults) {
                        d.counted = false;
                    }
                    if (m.counted != null && $Object.hasOwnProperty.call(m, "counted")) {
                        d.counted = m.counted;
                    }
                    return d;
                };

                /**
                 * Converts this RequestReportAck to JSON.
                 * @function toJSON
                 * @memberof platform.router.v1.RequestReportAck
                 * @instance
                 * @returns {Object.<string,*>} JSON object
                 */
                RequestReportAck.prototype.toJSON = function() {
                    return RequestReportAck.toObject(this, $protobuf.util.toJSONOptions);
                };

                /**
                 * Gets the type url for RequestReportAck
                 * @function getTypeUrl
                 * @memberof platform.router.v1.RequestReportAck
                 * @static
                 * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns {string} The type url
                 */
                RequestReportAck.getTypeUrl = function(prefix) {
                    if (prefix === $undefined)
                        prefix = "type.googleapis.com";
                    return prefix + "/platform.router.v1.RequestReportAck";
                };

                return RequestReportAck;
            })();

            return v1;
        })();

        return router;
    })();

    return platform;
})();

export {
  $root as default
};
