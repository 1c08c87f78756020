// A forward proxy on 127.0.0.1, as a self-hosted runner's HTTPS_PROXY/HTTP_PROXY names one: it
// tunnels CONNECT and forwards plain-HTTP requests (absolute URLs). Host names resolve through
// its own table alone, so a client that reaches a host in it went through the proxy.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ForwardProxy {
  /** http://127.0.0.1:<port> */
  url: string;
  /** What it was asked for: `CONNECT host:port`, or `GET http://host/path`. */
  requests: string[];
  close(): Promise<void>;
}

/** `hosts` maps the names only this proxy knows to a port on 127.0.0.1. */
export async function startProxy(hosts: Record<string, number>): Promise<ForwardProxy> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const portOf = (host: string) => (Object.hasOwn(hosts, host) ? hosts[host] : undefined);

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    requests.push(`${req.method} ${req.url}`);
    const target = URL.canParse(req.url ?? '') ? new URL(req.url ?? '') : undefined;
    const port = target && portOf(target.hostname);
    if (!target || port === undefined) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end('unknown host');
      return;
    }
    const upstream = request(
      { host: '127.0.0.1', port, method: req.method, path: target.pathname + target.search },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    for (const [name, value] of Object.entries(req.headers))
      if (value !== undefined && name !== 'proxy-connection') upstream.setHeader(name, value);
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };

  const server = createServer(forward);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    requests.push(`CONNECT ${req.url}`);
    const [host = '', port = ''] = (req.url ?? '').split(':');
    const local = portOf(host);
    if (local === undefined) {
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    void port;
    const upstream = connect(local, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
