/** @platform/cli: the typed, fetch-based client of the platform's REST API (the `platform` command is its bin). */
export { PlatformClient, OPERATIONS, type ClientOptions, type Query, type RequestOptions } from './client.js';
export { ApiError, ConnectionError, type ApiErrorBody } from './errors.js';
export type * from './types.js';
