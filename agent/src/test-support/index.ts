/**
 * `@platform/agent/testing`: helpers for tests of the agent and of what talks to it
 * (integration tests in test/): the agent binary as a child process, an in-test controller
 * side of agent.proto, a tar archive builder (including malicious archives), `eventually`.
 */
export { AgentProcess, AGENT_BIN } from './agent-process.js';
export { FakeController, type Received } from './fake-controller.js';
export { makeTarGz, sha256Digest, type TarEntry } from './tar.js';
export { eventually } from './wait.js';
export { requireTool, REQUIRE_SYSTEM_TOOLS } from './system.js';
