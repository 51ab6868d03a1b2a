/**
 * The gateways shipped with the platform, written with the SDK:
 * `@platform/gateway-sdk/gateways`. Each is also a program (`dist/bin/*-gateway.js`)
 * that the controller runs as a built-in job.
 */
export { postgresGateway, type PostgresGatewayOptions, type PostgresProviderState, type PostgresServiceState, type PostgresBindingState } from './postgres.js';
export { redisGateway, type RedisGatewayOptions, type RedisProviderState, type RedisServiceState, type RedisBindingState } from './redis.js';
