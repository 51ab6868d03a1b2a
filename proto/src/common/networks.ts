/**
 * What the controller and its agents agree on about virtual networks besides agent.proto.
 */

/** The system tag of agents that put instances on virtual networks: the scheduler places members only there. */
export const NETWORK_AGENT_TAG = 'networks:bridge';

/**
 * The system tags saying what network an agent gives instances that are on no virtual network:
 * one of their own (--instance-networks, bwrap) or the host's. A job that must not share its
 * host's network asks for the first with hard_scheduling_tags.
 */
export const OWN_NETWORK_TAG = 'instance-network:own';
export const HOST_NETWORK_TAG = 'instance-network:host';

/**
 * The system tags saying whether an agent enforces the `network` floors of its instances (the
 * bandwidth they share given to it, and the host's tc able to divide it) or not.
 */
export const FLOOR_ENFORCED_TAG = 'network-floor:enforced';
export const FLOOR_NOT_ENFORCED_TAG = 'network-floor:none';
