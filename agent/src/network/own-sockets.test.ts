import test from 'ava';
import { DestinationPolicy } from '@platform/proto/common';
import { withoutOwnSockets } from './own-sockets.js';

test("own sockets: an instance is never opened to the agent's own listeners; other loopback ports, names and the controller's address stay", (t) => {
  const rule = new DestinationPolicy({
    purpose: 'log drains',
    setting: '--allowed-destinations',
    listeners: () => [{ host: '127.0.0.1', port: 9100 }],
    platformAddresses: () => ['10.0.0.1'],
  });
  const { kept, dropped } = withoutOwnSockets(['127.0.0.1:9100', 'localhost:9100', '127.0.0.1:5432', '10.0.0.1:8080', 'db.example:5432', '[::1]:9100'], rule);
  t.deepEqual(dropped, ['127.0.0.1:9100', 'localhost:9100']);
  t.deepEqual(kept, ['127.0.0.1:5432', '10.0.0.1:8080', 'db.example:5432', '[::1]:9100'], 'the controller (an app token reaches its API) and another port of loopback are not its sockets');
});
