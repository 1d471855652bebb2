// Which request of a session gets the next packet.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RequestRoundRobin } from '../src/datagram/request-round-robin.ts';

class Req {
  constructor(readonly name: string, public packets: number) {}
  hasDataToSend(): boolean {
    return this.packets > 0;
  }
}

function drain(rr: RequestRoundRobin<Req>, max = 100): string[] {
  const order: string[] = [];
  for (let i = 0; i < max; i++) {
    const r = rr.next();
    if (!r) break;
    r.packets--;
    order.push(r.name);
  }
  return order;
}

test('requests take turns packet by packet; one that runs out drops out of the rotation', () => {
  const rr = new RequestRoundRobin<Req>();
  for (const [n, p] of [['a', 3], ['b', 1], ['c', 2]] as const) rr.add(new Req(n, p));
  assert.equal(rr.hasDataToSend(), true);
  assert.deepEqual(drain(rr), ['a', 'b', 'c', 'a', 'c', 'a']);
  assert.equal(rr.next(), null);
  assert.equal(rr.hasDataToSend(), false);
});

test('the rotation goes on after the request served last, also when requests come, go and get data again', () => {
  const rr = new RequestRoundRobin<Req>();
  const a = new Req('a', 10);
  const b = new Req('b', 10);
  rr.add(a);
  rr.add(b);
  assert.deepEqual(drain(rr, 3), ['a', 'b', 'a']);
  const c = new Req('c', 1);
  rr.add(c);
  assert.deepEqual(drain(rr, 3), ['b', 'c', 'a']);
  rr.remove(b);
  assert.equal(rr.size, 2);
  assert.deepEqual(drain(rr, 2), ['a', 'a'], 'c has nothing left; b is gone');
  c.packets = 2; // lost data to resend
  assert.deepEqual(drain(rr, 3), ['c', 'a', 'c']);
});

test('no request is starved: with n requests each gets a packet in every n', () => {
  const rr = new RequestRoundRobin<Req>();
  const reqs = Array.from({ length: 5 }, (_, i) => new Req(String(i), 1000));
  for (const r of reqs) rr.add(r);
  const order = drain(rr, 1000);
  for (let i = 0; i + 5 <= order.length; i += 5) assert.equal(new Set(order.slice(i, i + 5)).size, 5);
  assert.ok(reqs.every((r) => r.packets === 800));
});
