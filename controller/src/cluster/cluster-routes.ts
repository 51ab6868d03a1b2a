/** Cluster information: GET /info, /cluster/admin, /version. */
import { baseUrl, sendJson, v1, type Endpoint } from '../api/endpoint.js';
import { canAccess } from '../policy/access.js';
import type { CliDownloads } from './cli-downloads.js';
import { versionInfo } from './version.js';
import type { ControllerStatus } from '../store/leadership.js';

export interface ClusterInfoOptions {
  clusterName: string;
  domain: string;
  /** The API's public URL when known; else the request's origin is used. */
  publicUrl?: string;
  adminName: string;
  adminEmail: string;
  buildId: string;
  buildNumber: string;
  /** The command-line client's archives, listed in /version's download_urls. */
  downloads: CliDownloads;
  /** With several controllers on etcd: each of them, which one is active and since when (in /cluster/admin). */
  controllers?: () => Promise<ControllerStatus[]>;
}

export function clusterEndpoints(o: ClusterInfoOptions): Endpoint[] {
  return [
    {
      method: 'GET',
      path: '/info',
      media: v1('info'),
      handler: async (ctx) =>
        sendJson(ctx, v1('info'), {
          name: o.clusterName,
          url: o.publicUrl ?? (o.domain ? `${ctx.protocol}://api.${o.domain}` : baseUrl(ctx)),
          cluster_domain: o.domain,
        }),
    },
    {
      method: 'GET',
      path: '/cluster/admin',
      media: v1('admin'),
      // The controllers' addresses are the cluster's inside, as the agents' are: shown to those
      // who may read the cluster (`read` on cluster::/, as /instance_managers), to no one else.
      handler: async (ctx) =>
        sendJson(ctx, v1('admin'), {
          name: o.adminName,
          email: o.adminEmail,
          ...(o.controllers && canAccess(ctx, 'cluster::/', 'read') ? { controllers: await o.controllers() } : {}),
        }),
    },
    {
      method: 'GET',
      path: '/version',
      media: v1('versioninfo'),
      handler: async (ctx) => sendJson(ctx, v1('versioninfo'), versionInfo(o.buildId, o.buildNumber, (await o.downloads.current()).downloadUrls(baseUrl(ctx)))),
    },
  ];
}
