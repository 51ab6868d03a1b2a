/** Packages for tests: created through the API and, when asked, with their archive uploaded. */
import type { Package } from '@platform/controller';
import { archive, digestOf, unique } from './fixtures.js';
import type { ApiClient } from './http.js';
import { rawPut } from './upload.js';

export async function createPackage(api: ApiClient, namespace: string, options: { upload?: boolean } = {}): Promise<Package> {
  const data = archive();
  const r = await api.post<Package>('/packages', {
    fqn: `package::${namespace}::${unique('p')}`,
    resources: [{ length: data.length, digest: digestOf(data) }],
  });
  if (r.status !== 200) throw new Error(`package create failed: ${r.text}`);
  if (!options.upload) return r.body;
  const up = await rawPut(`${api.base}/packages/resources/${r.body.uuid}`, [data], data.length, api.defaultHeaders);
  if (up.status !== 200) throw new Error(`upload failed: ${up.body}`);
  return (await api.get<Package>(`/packages/${r.body.uuid}`)).body;
}
