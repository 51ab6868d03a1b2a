import test from 'ava';
import { formatMedia, negotiateVersion, parseVendorMedia } from './media.js';

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
