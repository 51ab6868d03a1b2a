/**
 * @platform/gateway-sdk: for people who write service gateways.
 *
 * A gateway is a job that provisions a service (a database, a queue, an
 * external API) for the cluster. With this SDK it is a few handlers:
 *
 *   import { runGateway } from '@platform/gateway-sdk';
 *   await runGateway({
 *     services: { create: async (req) => ({ state: {...} }), delete: async (service) => {...} },
 *     bindings: { create: async (req, { service }) => ({ url, protocol: { scheme } }), delete: async (b) => {...} },
 *   });
 *
 * Add `providers` for a three-tier gateway. What a handler must remember
 * travels in the state headers (typed: `GatewayDefinition<P, S, B>`); the
 * cluster keeps it and sends it back. The test kit is
 * `@platform/gateway-sdk/testkit`; `GatewayClient` is how the cluster calls a
 * gateway. See docs/gateway-authors.md.
 */
export {
  STATE_HEADERS,
  MAX_STATE_BYTES,
  encodeState,
  decodeState,
  encodeEnvelope,
  decodeEnvelope,
  isStateHeaderValue,
  type StateEnvelope,
  type StateKind,
  type States,
} from './state.js';
export {
  GatewayError,
  BadRequestError,
  NotFoundError,
  ConflictError,
  GatewayStateError,
  UrlTemplateError,
  GatewayCallError,
  GatewayUnreachableError,
  GatewayTimeoutError,
  GatewayRefusedError,
  GatewayProtocolError,
  type CreateEvidence,
  type ErrorBody,
  type GatewayCallFailure,
  type LateAnswer,
} from './errors.js';
export { parseUrlTemplate, renderUrlTemplate, urlTemplateProblem, randomAlphanum, MIN_ALPHANUM, MAX_ALPHANUM, type UrlTemplatePart, type AlphanumCase } from './url-template.js';
export {
  ENDPOINTS,
  tierOf,
  offers,
  paramsOf,
  requiredParams,
  bindingUrlProblem,
  formatBindingUrl,
  type Binding,
  type BindingProtocol,
  type BindingRequest,
  type Endpoint,
  type MethodMap,
  type Params,
  type Provider,
  type ProviderRequest,
  type Service,
  type ServiceRequest,
  type Tier,
  type Verb,
} from './wire.js';
export {
  GatewayServer,
  serveGateway,
  runGateway,
  methodMapOf,
  type GatewayDefinition,
  type GatewayEvent,
  type ServeOptions,
  type Stated,
  type RequestContext,
  type ProviderHandlers,
  type ServiceHandlers,
  type BindingHandlers,
  type ProviderCreated,
  type ServiceCreated,
  type BindingCreated,
} from './server.js';
export { GatewayClient, createOutcome, type CreateOutcome, type GatewayClientOptions, type GatewayReply } from './client.js';
