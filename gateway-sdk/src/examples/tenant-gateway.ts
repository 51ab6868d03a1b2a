/**
 * The example of docs/gateway-authors.md: a two-tier gateway for an HTTP API
 * of your own that has tenants and API keys. A service is a tenant, a binding
 * is an API key of that tenant; both are made through the API's admin
 * endpoints (ADMIN_URL, e.g. http://admin:secret@api.internal:8081).
 */
import { BadRequestError, formatBindingUrl, GatewayError, NotFoundError, randomAlphanum, type GatewayDefinition } from '../index.js';

type Tenant = { tenant: string };
type Key = { tenant: string; key: string };

export function tenantGateway(adminUrl: string, publicUrl: string): GatewayDefinition<never, Tenant, Key> {
  const admin = new URL(adminUrl);
  const auth = `Basic ${Buffer.from(`${admin.username}:${admin.password}`).toString('base64')}`;
  async function call(method: string, path: string): Promise<void> {
    const res = await fetch(new URL(path, admin.origin), { method, headers: { authorization: auth } });
    if (res.status === 404) throw new NotFoundError(`${path} does not exist`);
    if (!res.ok) throw new GatewayError(502, `the admin API answered ${res.status} to ${method} ${path}`);
  }
  return {
    services: {
      params: { plan: 'small' }, // required; shown at GET /
      async create(request) {
        const tenant = request.name ?? `t_${randomAlphanum(10, 'lower')}`;
        if (!/^[a-z0-9_]{1,32}$/.test(tenant)) throw new BadRequestError('name: lower case, digits and _ only');
        await call('PUT', `/tenants/${tenant}?plan=${encodeURIComponent(String(request.params!['plan']))}`);
        return { name: tenant, state: { tenant } };
      },
      async delete(service) {
        await call('DELETE', `/tenants/${service.state.tenant}`);
      },
    },
    bindings: {
      async create(_request, { service }) {
        const key = randomAlphanum(40);
        await call('PUT', `/tenants/${service.state.tenant}/keys/${key}`);
        const api = new URL(publicUrl);
        const scheme = api.protocol.slice(0, -1);
        const port = Number(api.port || (scheme === 'https' ? 443 : 80));
        const url = formatBindingUrl({ scheme, host: api.hostname, port, username: service.state.tenant, password: key, path: api.pathname });
        return { url, protocol: { scheme }, state: { tenant: service.state.tenant, key } };
      },
      async delete(binding) {
        await call('DELETE', `/tenants/${binding.state.tenant}/keys/${binding.state.key}`);
      },
    },
  };
}
