/**
 * Targets that misbehave, one behaviour each, on 127.0.0.1 and a free port: the suite must survive
 * every one of them (test/e2e/hostile.test.ts). Each closes completely: sockets, timers, server.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';

export type HostileBehaviour =
  | 'never-answers'
  | 'not-json'
  | 'wrong-json-type'
  | 'truncated-body'
  | 'resets-connections'
  | 'huge-body'
  | 'redirect-loop'
  | 'drips'
  | 'server-error'
  | 'unauthorized'
  | 'not-found';

export interface HostileTarget {
  readonly url: string;
  close(): Promise<void>;
}

export const hugeBodyBytes = 50 * 1024 * 1024;

type Answer = (request: IncomingMessage, response: ServerResponse) => void;

/** Answers at the HTTP level, each in its own wrong way. */
const httpAnswers: Partial<Record<HostileBehaviour, Answer>> = {
  'not-json': (_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('<html><body>Welcome to nginx!</body></html>'),
  'wrong-json-type': (_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('[]'),
  'truncated-body': (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    response.write('{"apiVersion":"1.0","da', () => response.destroy());
  },
  'huge-body': (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(hugeBodyBytes) });
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    let sent = 0;
    const pump = () => {
      while (sent < hugeBodyBytes) {
        sent += chunk.length;
        if (!response.write(chunk)) return void response.once('drain', pump);
      }
      response.end();
    };
    response.on('close', () => (sent = hugeBodyBytes));
    pump();
  },
  'redirect-loop': (request, response) => response.writeHead(302, { location: request.url ?? '/' }).end(),
  'server-error': (_request, response) => response.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error'),
  unauthorized: (_request, response) =>
    response.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Basic' }).end('{"error":"unauthorized"}'),
  'not-found': (_request, response) => response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}'),
};

/** Misbehaves below HTTP: on the socket itself. */
const socketBehaviours: Partial<Record<HostileBehaviour, (socket: Socket, timers: Set<NodeJS.Timeout>) => void>> = {
  'never-answers': () => {},
  'resets-connections': (socket) => socket.resetAndDestroy(),
  drips: (socket, timers) => {
    const body = '{"apiVersion":"1.0","success":true,"data":{}}';
    const answer = Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
    let sent = 0;
    const timer = setInterval(() => {
      if (sent >= answer.length || socket.destroyed) return void clearInterval(timer);
      socket.write(answer.subarray(sent, ++sent));
    }, 1000);
    timers.add(timer);
  },
};

export async function startHostileTarget(behaviour: HostileBehaviour): Promise<HostileTarget> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const answer = httpAnswers[behaviour];
  const onSocket = socketBehaviours[behaviour];
  let server: Server;
  if (answer) {
    server = createHttpServer((request, response) => {
      request.resume();
      answer(request, response);
    });
  } else {
    server = createNetServer((socket) => {
      socket.on('error', () => {});
      onSocket!(socket, timers);
    });
  }
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearInterval(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export const hostileBehaviours = Object.keys({ ...httpAnswers, ...socketBehaviours }) as HostileBehaviour[];
