/**
 * @platform/proto: the contract between the controller and its agents.
 *
 * The gRPC service definitions (registration, heartbeats, assignments, reports
 * over one bidirectional stream) arrive with the agents. What both sides agree
 * on already is the protocol version they negotiate at registration.
 */

/** Bumped on every change that an older peer cannot understand. */
export const PROTOCOL_VERSION = 1;

/** True when a peer speaking `version` can talk to this build. */
export function isCompatibleProtocol(version: number): boolean {
  return Number.isInteger(version) && version === PROTOCOL_VERSION;
}
