import { readFileSync } from 'node:fs';
import net from 'node:net';

import { describe, expect, it } from 'vitest';

import { freePort } from './processes.ts';

/** The range Linux gives ports from on its own: to outgoing connections, and to a listen on port 0. */
const [ephemeralFirst, ephemeralLast] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);

describe('freePort', () => {
  it('hands out ports no outgoing connection can take, never the same one twice, each free to listen on', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 200; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    expect(ports.filter((port) => port >= ephemeralFirst! && port <= ephemeralLast!)).toEqual([]);
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(ports.at(-1), '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});
