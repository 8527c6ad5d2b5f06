'use strict';

// A small MQTT 3.1.1 client (the protocol's own spec: CONNECT, SUBSCRIBE at QoS 0, PUBLISH both
// ways, PINGREQ), enough for zigbee2mqtt: an app carries no node_modules when hearth copies it, so
// the client is part of the app. It reconnects by itself (1 s, doubling to 30 s) and subscribes
// again; 'connect' and 'offline' say when it can and cannot reach the broker.
const net = require('node:net');
const { EventEmitter } = require('node:events');

const MAX_PACKET = 16 * 1024 * 1024;

function varint(n) {
  const out = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 128;
    out.push(b);
  } while (n > 0);
  return Buffer.from(out);
}

function text(s) {
  const b = Buffer.from(s, 'utf8');
  const len = Buffer.alloc(2);
  len.writeUInt16BE(b.length);
  return Buffer.concat([len, b]);
}

const packet = (type, flags, body) => Buffer.concat([Buffer.from([(type << 4) | flags]), varint(body.length), body]);

class MqttClient extends EventEmitter {
  /** `url`: mqtt://[user:password@]host[:port]. */
  constructor(url, { clientId, keepaliveS = 30 } = {}) {
    super();
    const u = new URL(url);
    if (u.protocol !== 'mqtt:') throw new Error(`the broker's address is mqtt://host:port, not ${url}`);
    this.host = u.hostname;
    this.port = Number(u.port || 1883);
    this.user = decodeURIComponent(u.username);
    this.password = decodeURIComponent(u.password);
    this.clientId = clientId ?? `hearth-${Math.random().toString(16).slice(2, 10)}`;
    this.keepaliveS = keepaliveS;
    this.topics = new Set();
    this.connected = false;
    this.closed = false;
    this.delay = 1000;
    this.nextId = 1;
    this.open();
  }

  open() {
    if (this.closed) return;
    this.buffer = Buffer.alloc(0);
    const socket = net.connect(this.port, this.host);
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('connect', () => {
      let flags = 0x02; // clean session
      const payload = [text(this.clientId)];
      if (this.user) {
        flags |= 0x80;
        payload.push(text(this.user));
      }
      if (this.password) {
        flags |= 0x40;
        payload.push(text(this.password));
      }
      const keepalive = Buffer.alloc(2);
      keepalive.writeUInt16BE(this.keepaliveS);
      socket.write(packet(1, 0, Buffer.concat([text('MQTT'), Buffer.from([4, flags]), keepalive, ...payload])));
    });
    socket.on('data', (chunk) => this.read(chunk));
    socket.on('error', (err) => this.emit('problem', err));
    socket.on('close', () => {
      clearInterval(this.pinger);
      const was = this.connected;
      this.connected = false;
      if (was || this.delay === 1000) this.emit('offline');
      if (this.closed) return;
      this.retry = setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 30_000);
    });
  }

  read(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      if (this.buffer.length < 2) return;
      let length = 0;
      let mult = 1;
      let i = 1;
      for (;;) {
        if (i >= this.buffer.length) return;
        const b = this.buffer[i++];
        length += (b & 127) * mult;
        mult *= 128;
        if ((b & 128) === 0) break;
        if (i > 4) return this.socket.destroy(new Error('a malformed packet length'));
      }
      if (length > MAX_PACKET) return this.socket.destroy(new Error('a packet past 16 MiB'));
      if (this.buffer.length < i + length) return;
      const header = this.buffer[0];
      const body = this.buffer.subarray(i, i + length);
      this.buffer = this.buffer.subarray(i + length);
      this.handle(header, body);
    }
  }

  handle(header, body) {
    const type = header >> 4;
    if (type === 2) {
      if (body[1] !== 0) return this.socket.destroy(new Error(`the broker refused the connection (code ${body[1]})`));
      this.connected = true;
      this.delay = 1000;
      if (this.topics.size > 0) this.sendSubscribe([...this.topics]);
      this.pinger = setInterval(() => this.socket.write(Buffer.from([12 << 4, 0])), (this.keepaliveS * 1000) / 2);
      this.emit('connect');
    } else if (type === 3) {
      const qos = (header >> 1) & 3;
      const topicLength = body.readUInt16BE(0);
      const topic = body.toString('utf8', 2, 2 + topicLength);
      let at = 2 + topicLength;
      if (qos > 0) {
        const id = body.subarray(at, at + 2);
        at += 2;
        this.socket.write(packet(qos === 1 ? 4 : 5, 0, id));
      }
      this.emit('message', topic, body.subarray(at), { retain: (header & 1) === 1 });
    }
  }

  sendSubscribe(topics) {
    const id = Buffer.alloc(2);
    id.writeUInt16BE(this.nextId);
    this.nextId = (this.nextId % 65535) + 1;
    this.socket.write(packet(8, 2, Buffer.concat([id, ...topics.flatMap((t) => [text(t), Buffer.from([0])])])));
  }

  subscribe(topic) {
    if (this.topics.has(topic)) return;
    this.topics.add(topic);
    if (this.connected) this.sendSubscribe([topic]);
  }

  unsubscribe(topic) {
    if (!this.topics.delete(topic) || !this.connected) return;
    const id = Buffer.alloc(2);
    id.writeUInt16BE(this.nextId);
    this.nextId = (this.nextId % 65535) + 1;
    this.socket.write(packet(10, 2, Buffer.concat([id, text(topic)])));
  }

  /** Sends at QoS 0; false when not connected (nothing is queued: a command late is a command wrong). */
  publish(topic, payload, { retain = false } = {}) {
    if (!this.connected) return false;
    const body = Buffer.concat([text(topic), Buffer.isBuffer(payload) ? payload : Buffer.from(String(payload))]);
    this.socket.write(packet(3, retain ? 1 : 0, body));
    return true;
  }

  end() {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.pinger);
    if (this.connected) this.socket.write(Buffer.from([14 << 4, 0]));
    this.socket.end();
  }
}

module.exports = { MqttClient };
