import test from 'ava';
import { formatMedia, negotiateMedia, negotiateVersion, parseVendorMedia, wantsPlainJson } from './media.js';

test('media: parses vendor types and versions from Accept', (t) => {
  t.deepEqual(parseVendorMedia('application/vnd.platform.job;version=1, application/json'), [{ type: 'job', version: 1 }]);
  t.deepEqual(parseVendorMedia('application/vnd.platform.Package; version="2"'), [{ type: 'package', version: 2 }]);
  t.deepEqual(parseVendorMedia('application/json'), []);
  t.deepEqual(parseVendorMedia(undefined), []);
});

test('media: answers the asked version when served, else the default', (t) => {
  const spec = { type: 'createcontainerpackageresponse', versions: [2, 1] };
  t.is(negotiateVersion(spec, undefined), 2);
  t.is(negotiateVersion(spec, 'application/vnd.platform.createcontainerpackageresponse;version=1'), 1);
  t.is(negotiateVersion(spec, 'application/vnd.platform.createcontainerpackageresponse;version=7'), 2);
  t.is(negotiateVersion(spec, 'application/vnd.platform.job;version=1'), 2);
  t.is(formatMedia('job', 1), 'application/vnd.platform.job;version=1');
});

test('media: Accept asking for application/json and naming no vendor type answers plain JSON', (t) => {
  const spec = { type: 'job', versions: [1] };
  for (const accept of ['application/json', 'APPLICATION/JSON; charset=utf-8', 'application/json, text/plain, */*', 'text/html;q=0.9, application/json;q=0.1']) {
    t.true(wantsPlainJson(accept), accept);
    t.is(negotiateMedia(spec, accept), 'application/json; charset=utf-8', accept);
  }
  for (const accept of [undefined, '', '*/*', 'application/*', 'text/html', 'application/json;q=0', 'application/jsonx', 'application/json, application/vnd.platform.nonsense;version=1']) {
    t.false(wantsPlainJson(accept), String(accept));
    t.is(negotiateMedia(spec, accept), 'application/vnd.platform.job;version=1', String(accept));
  }
  t.is(negotiateMedia({ type: 'createcontainerpackageresponse', versions: [2, 1] }, 'application/json'), 'application/json; charset=utf-8');
});
