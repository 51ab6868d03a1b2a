/** @platform/cli: the typed, fetch-based client of the platform's REST API (the `platform` command is its bin). */
export { PlatformClient, OPERATIONS, type ClientOptions, type Query, type RequestOptions } from './client.js';
export { ApiError, ConnectionError, type ApiErrorBody } from './errors.js';
export type * from './types.js';
export type { Answer, AnswerOr, ApiMethod, ApiPath, RequestBody } from './api-types.js';
export type { paths, components, operations } from './openapi.js';
