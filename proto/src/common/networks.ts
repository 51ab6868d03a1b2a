/**
 * What the controller and its agents agree on about virtual networks besides agent.proto.
 */

/** The system tag of agents that put instances on virtual networks: the scheduler places members only there. */
export const NETWORK_AGENT_TAG = 'networks:bridge';
