/** The test harness, for other packages' tests: real controller processes and a JSON client. */
export { ControllerProcess, CONTROLLER_BIN, type SpawnOptions, type ExitInfo } from './harness/controller-process.js';
export { ApiClient, type Reply, type RequestOptions } from './harness/http.js';
export { eventually, DeadlineError, type EventuallyOptions } from './harness/wait.js';
export { unique, digestOf, archive, appJob } from './harness/fixtures.js';
export { Slapd, findSlapdTools, sshaHash, type SlapdOptions, type SlapdUser, type SlapdTools } from './harness/slapd.js';
