/**
 * The policy API (spec: the /policy row; behaviour notes: "Policy API on the
 * auth host"). Outside content negotiation: answers are `application/json`.
 * Clients call these paths with the `/v1` prefix; like every path they also
 * work without it (api/middleware.ts `versionPrefix`).
 *
 *   GET /v1/policy                      PolicyDocument[]        permit read on policy::/
 *   GET /v1/policy/{name}[?version=N]   PolicyDocument          permit read on policy::/
 *   PUT /v1/policy {"docs":[...]}       PolicyDocument[]        permit update on policy::/
 */
import { readJsonObject } from '../api/body.js';
import { changeContext, sendPlainJson, type Endpoint } from '../api/endpoint.js';
import { queryInt } from '../api/query.js';
import { authorize } from './access.js';
import { POLICY_REALM } from './permissions.js';
import { MAX_DOCS_PER_PUT, MAX_POLICY_DOC_BYTES, policyPutSchema, type PolicyService } from './policy-service.js';
import { PLAIN_JSON } from '../api/media.js';

/** A PUT may carry many documents of up to 512 KB each; JSON escaping can double their size. */
const PUT_BODY_LIMIT = Math.min(MAX_DOCS_PER_PUT * MAX_POLICY_DOC_BYTES * 2, 16 * 1024 * 1024);

export function policyEndpoints(policy: PolicyService): Endpoint[] {
  return [
    {
      method: 'GET',
      path: '/policy',
      doc: { summary: 'The policy documents', responseMedia: [PLAIN_JSON] },
      handler: async (ctx) => {
        await authorize(ctx, POLICY_REALM, 'read');
        sendPlainJson(ctx, policy.list());
      },
    },
    {
      method: 'GET',
      path: '/policy/:name',
      doc: { summary: 'A policy document (?version=N for an earlier one)', responseMedia: [PLAIN_JSON] },
      handler: async (ctx) => {
        await authorize(ctx, POLICY_REALM, 'read');
        const version = queryInt(ctx, 'version', 1);
        sendPlainJson(ctx, await policy.get(ctx.params['name'] ?? '', version));
      },
    },
    {
      method: 'PUT',
      path: '/policy',
      doc: { summary: 'Writes policy documents, all or none; a parse error answers 400 with line and column', body: policyPutSchema, responseMedia: [PLAIN_JSON] },
      handler: async (ctx) => {
        await authorize(ctx, POLICY_REALM, 'update');
        const body = await readJsonObject(ctx.req, PUT_BODY_LIMIT);
        const written = await policy.put(body, ctx.state.access!.caller, changeContext(ctx));
        sendPlainJson(ctx, written);
      },
    },
  ];
}
