import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_ABANDON_RULE, PLAYER_OPTION_PARAMS, ParamError, parsePageParams } from '../src/config/session-params.ts';

test('defaults: vivace over datagrams, ABR content, the page host and the documented ports', () => {
  const p = parsePageParams('', '127.0.0.1');
  assert.equal(p.compare, false);
  const s = p.sessions[0]!;
  assert.equal(s.transport, 'datagram');
  assert.equal(s.cc, 'vivace');
  assert.equal(s.content, 'abr');
  assert.deepEqual(s.server, { host: '127.0.0.1', webTransportPort: 4433, httpPort: null, tcpScheme: 'http', tcpPort: 8081, httpsPort: 8443 });
});

test('tcp and quic-stream accept the registry\'s kernel and quinn controllers (quinn\'s newreno too)', () => {
  const tcp = parsePageParams('?transport=tcp&cc=bbr', 'h').sessions[0]!;
  assert.deepEqual([tcp.scheme, tcp.transport, tcp.cc], ['tcp-bbr', 'tcp', 'bbr']);
  const newreno = parsePageParams('?transport=quic-stream&cc=newreno', 'h').sessions[0]!;
  assert.deepEqual([newreno.scheme, newreno.transport, newreno.cc], ['quic-newreno', 'quic-stream', 'newreno']);
  assert.throws(() => parsePageParams('?transport=tcp&cc=vivace', 'h'), ParamError);
  assert.throws(() => parsePageParams('?transport=tcp&cc=newreno', 'h'), /cc="newreno" is not a congestion controller for transport=tcp/);
  assert.throws(() => parsePageParams('?transport=quic-stream&cc=pcp', 'h'), /cc="pcp"/);
  assert.throws(() => parsePageParams('?transport=udp&cc=bbr', 'h'), /transport="udp" is not supported/);
});

test('hostile values are rejected with a message naming the parameter', () => {
  assert.throws(() => parsePageParams('?cc=reno', 'h'), /cc="reno" is not a congestion controller/);
  assert.throws(() => parsePageParams('?cc=%3Cscript%3E', 'h'), ParamError);
  assert.throws(() => parsePageParams('?content=../../etc/passwd', 'h'), /content=/);
  assert.throws(() => parsePageParams('?content=a/b', 'h'), /content=/);
  assert.throws(() => parsePageParams('?content=.hidden', 'h'), /content=/);
  assert.throws(() => parsePageParams('?port=70000', 'h'), /port/);
  assert.throws(() => parsePageParams('?host=a%20b', 'h'), /host/);
  assert.throws(() => parsePageParams('?abr=off', 'h'), /bitrate/);
  assert.throws(() => parsePageParams('?compare=vivace', 'h'), /compare/);
});

test('abr=off pins a bitrate; compare builds one session per controller, with optional transports', () => {
  const pinned = parsePageParams('?abr=off&bitrate=4000', 'h').sessions[0]!;
  assert.equal(pinned.abr, false);
  assert.equal(pinned.pinnedBitrateKbps, 4000);
  const cmp = parsePageParams('?compare=vivace,cubic@tcp&content=fixed-8000k', 'h');
  assert.equal(cmp.compare, true);
  assert.deepEqual(cmp.sessions.map((s) => [s.cc, s.transport, s.content]), [['vivace', 'datagram', 'fixed-8000k'], ['cubic', 'tcp', 'fixed-8000k']]);
  // Canonical scheme names and the cc@transport aliases name the same sessions; plain controllers take the page's transport.
  const canonical = parsePageParams('?compare=vivace,tcp-cubic,quic-newreno&content=fixed-8000k', 'h');
  assert.deepEqual(canonical.sessions.map((s) => s.scheme), ['vivace', 'tcp-cubic', 'quic-newreno']);
  const aliases = parsePageParams('?compare=vivace@datagram,cubic@tcp,newreno@quic-stream&content=fixed-8000k', 'h');
  assert.deepEqual(aliases.sessions.map((s) => s.scheme), ['vivace', 'tcp-cubic', 'quic-newreno']);
  assert.deepEqual(parsePageParams('?transport=tcp&compare=cubic,bbr', 'h').sessions.map((s) => s.scheme), ['tcp-cubic', 'tcp-bbr']);
  assert.throws(() => parsePageParams('?compare=vivace,reno@tcp', 'h'), /cc="reno"/);
  assert.throws(() => parsePageParams('?compare=vivace,tcp-reno', 'h'), /cc="tcp-reno"/);
});

test('cc=fixed needs a sane rateBps and is offered only over datagrams', () => {
  assert.equal(parsePageParams('?cc=fixed&rateBps=50000000', 'h').sessions[0]!.fixedRateBps, 50_000_000);
  assert.throws(() => parsePageParams('?cc=fixed', 'h'), /rateBps/);
  assert.throws(() => parsePageParams('?cc=fixed&rateBps=1e12', 'h'), /rateBps/);
  assert.throws(() => parsePageParams('?transport=tcp&cc=fixed&rateBps=1000000', 'h'), /cc="fixed"/);
});

test('cc.<name>=<number> passes controller parameters for datagram sessions, with clear errors otherwise', () => {
  const s = parsePageParams('?cc=vivace&cc.epsilon_min=0.02&cc.epsilon_min_on_reversal=1', 'h').sessions[0]!;
  assert.deepEqual(s.controllerParams, { epsilon_min: 0.02, epsilon_min_on_reversal: 1 });
  assert.match(s.label, /^vivace \(epsilon_min=0\.02, epsilon_min_on_reversal=1\) · datagrams$/);
  assert.deepEqual(parsePageParams('?cc=vivace', 'h').sessions[0]!.controllerParams, {});
  assert.throws(() => parsePageParams('?cc=vivace&cc.epsilon_min=abc', 'h'), /cc\.epsilon_min="abc" must be a finite number/);
  assert.throws(() => parsePageParams('?cc=vivace&cc.epsilon_min=', 'h'), /must be a finite number/);
  assert.throws(() => parsePageParams('?cc=vivace&cc.Bad-Name=1', 'h'), /not a parameter name/);
  assert.throws(() => parsePageParams('?transport=tcp&cc=bbr&cc.epsilon=0.1', 'h'), /transport=datagram/);
});

test('content names the media sets named by their parameters and linked bring-your-own content', () => {
  for (const name of ['cbr-5000k-70s-2s', 'vbr-3300k-61.5s-1.5s', 'abr-vbr-70s-2s', 'byo-my-film-0123456789']) {
    assert.equal(parsePageParams(`?content=${name}`, 'h').sessions[0]!.content, name);
  }
  // A single-rendition set plays pinned without naming its bitrate, as fixed-<kbps>k does.
  assert.equal(parsePageParams('?content=vbr-3300k-70s-2s&abr=off', 'h').sessions[0]!.abr, false);
});

test('mode= chooses how compare panes share npm start --network\'s link; host= keeps the panes on the named origin', () => {
  assert.equal(parsePageParams('?compare=vivace,cubic@tcp', 'h').networkMode, 'competing');
  assert.equal(parsePageParams('?compare=vivace,cubic@tcp&mode=side-by-side', 'h').networkMode, 'side-by-side');
  assert.throws(() => parsePageParams('?compare=vivace,cubic@tcp&mode=shared', 'h'), /mode="shared" must be one of competing, side-by-side/);
  assert.equal(parsePageParams('?cc=vivace', 'h').serverGiven, false);
  assert.equal(parsePageParams('?cc=vivace&host=10.0.0.2', 'h').serverGiven, true);
});

test('fastSwitch: on by default (dash.js\'s own choice), off on every pane alike, anything else is refused by name; the bench may set it', () => {
  assert.equal(parsePageParams('', 'h').sessions[0]!.fastSwitch, 'on');
  const compared = parsePageParams('?compare=vivace,cubic@tcp&fastSwitch=off', 'h').sessions;
  assert.deepEqual(compared.map((s) => s.fastSwitch), ['off', 'off']);
  assert.match(compared[0]!.label, /− fast switch/);
  assert.throws(() => parsePageParams('?fastSwitch=false', 'h'), (e: unknown) => e instanceof ParamError
    && /fastSwitch="false" must be one of on, off/.test(e.message));
  assert.deepEqual(PLAYER_OPTION_PARAMS['fastSwitch'], ['on', 'off']);
});

test('abrThroughput: harmonic by default, dashjs gives dash.js\'s defaults back (every pane alike), anything else is refused by name', () => {
  assert.equal(parsePageParams('', 'h').sessions[0]!.abrThroughput, 'harmonic');
  assert.equal(parsePageParams('?abrThroughput=harmonic', 'h').sessions[0]!.abrThroughput, 'harmonic');
  const compared = parsePageParams('?compare=vivace,cubic@tcp&abrThroughput=dashjs', 'h').sessions;
  assert.deepEqual(compared.map((s) => s.abrThroughput), ['dashjs', 'dashjs']);
  assert.match(compared[1]!.label, /dash\.js ABR/);
  assert.throws(() => parsePageParams('?abrThroughput=ewma', 'h'), (e: unknown) => e instanceof ParamError
    && /abrThroughput="ewma" must be one of harmonic, dashjs/.test(e.message));
  assert.throws(() => parsePageParams('?abrThroughput=', 'h'), /abrThroughput="" must be one of/);
});

test('abandon: the page\'s rule (buffer) by default, dashjs keeps dash.js\'s AbandonRequestsRule (every pane alike), anything else is refused by name; the bench may set it', () => {
  assert.equal(DEFAULT_ABANDON_RULE, 'buffer');
  assert.equal(parsePageParams('', 'h').sessions[0]!.abandon, 'buffer');
  const compared = parsePageParams('?compare=vivace,cubic@tcp&abandon=dashjs', 'h').sessions;
  assert.deepEqual(compared.map((s) => s.abandon), ['dashjs', 'dashjs']);
  assert.match(compared[0]!.label, /abandon=dashjs/);
  assert.deepEqual(parsePageParams('?abandon=buffer', 'h').sessions.map((s) => s.abandon), ['buffer']);
  assert.throws(() => parsePageParams('?abandon=never', 'h'), (e: unknown) => e instanceof ParamError
    && /abandon="never" must be one of buffer, dashjs/.test(e.message));
  assert.deepEqual(PLAYER_OPTION_PARAMS['abandon'], ['buffer', 'dashjs']);
});

test('progress: received by default, in-order (the count before issue 18) on request, labelled on WebTransport panes only; the bench may set it', () => {
  assert.equal(parsePageParams('', 'h').sessions[0]!.progress, 'received');
  const compared = parsePageParams('?compare=vivace,cubic@tcp&progress=in-order', 'h').sessions;
  assert.deepEqual(compared.map((s) => s.progress), ['in-order', 'in-order']);
  assert.match(compared[0]!.label, /in-order progress/);
  assert.doesNotMatch(compared[1]!.label, /progress/);
  assert.throws(() => parsePageParams('?progress=all', 'h'), (e: unknown) => e instanceof ParamError
    && /progress="all" must be one of received, in-order/.test(e.message));
  assert.deepEqual(PLAYER_OPTION_PARAMS['progress'], ['received', 'in-order']);
});

test('workerScript: inline by default, fetched (the start before issue 18\'s worker-start) on request, labelled on WebTransport panes only; the bench may set it', () => {
  assert.equal(parsePageParams('', 'h').sessions[0]!.workerScript, 'inline');
  const compared = parsePageParams('?compare=vivace,cubic@tcp&workerScript=fetched', 'h').sessions;
  assert.deepEqual(compared.map((s) => s.workerScript), ['fetched', 'fetched']);
  assert.match(compared[0]!.label, /fetched worker/);
  assert.doesNotMatch(compared[1]!.label, /worker/);
  assert.throws(() => parsePageParams('?workerScript=blob', 'h'), (e: unknown) => e instanceof ParamError
    && /workerScript="blob" must be one of inline, fetched/.test(e.message));
  assert.deepEqual(PLAYER_OPTION_PARAMS['workerScript'], ['inline', 'fetched']);
});
