import test from 'ava';
import { activeControllerOf, ControllerAddresses, ACTIVE_CONTROLLER_METADATA } from './controllers.js';
import { grpc } from './index.js';

function fakeClients() {
  const made: string[] = [];
  const closed: string[] = [];
  const make = (address: string) => {
    made.push(address);
    return { address, close: () => void closed.push(address) };
  };
  return { made, closed, make };
}

test('controller addresses: the next one given when one cannot be reached; the one a standby names, at once', (t) => {
  const { made, closed, make } = fakeClients();
  const addresses = new ControllerAddresses(['a:1', 'b:2'], make);
  t.is(addresses.address, 'a:1');
  addresses.client();
  addresses.client();
  t.deepEqual(made, ['a:1'], 'one client per address');
  addresses.failed();
  t.is(addresses.address, 'b:2');
  addresses.redirect('c:3');
  t.is(addresses.address, 'c:3');
  addresses.client();
  // The named one gone: back to where the list was.
  addresses.failed();
  t.is(addresses.address, 'b:2');
  addresses.failed();
  t.is(addresses.address, 'a:1');
  addresses.close();
  t.deepEqual(closed.sort(), ['a:1', 'c:3']);
});

test('controller addresses: a standby\'s refusal names the active controller; other errors name none', (t) => {
  const metadata = new grpc.Metadata();
  metadata.set(ACTIVE_CONTROLLER_METADATA, '127.0.0.1:7071');
  t.is(activeControllerOf(Object.assign(new Error('standby'), { code: grpc.status.UNAVAILABLE, metadata })), '127.0.0.1:7071');
  t.is(activeControllerOf(Object.assign(new Error('down'), { code: grpc.status.UNAVAILABLE, metadata: new grpc.Metadata() })), undefined);
  t.is(activeControllerOf(Object.assign(new Error('secret'), { code: grpc.status.UNAUTHENTICATED, metadata })), undefined);
  const bad = new grpc.Metadata();
  bad.set(ACTIVE_CONTROLLER_METADATA, 'not an address');
  t.is(activeControllerOf(Object.assign(new Error('x'), { code: grpc.status.UNAVAILABLE, metadata: bad })), undefined);
  t.is(activeControllerOf(undefined), undefined);
});
