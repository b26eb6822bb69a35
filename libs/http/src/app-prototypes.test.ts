import express from 'express';
import { IncomingMessage, request as httpRequest, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { appPrototypesOf } from './app-prototypes';
import { startHttpServer } from './http-server';

/** What the server's own request and response constructors gave a listener, before Express touched them. */
interface Seen {
  requestProto: unknown;
  responseProto: unknown;
}

function get(url: string): Promise<{ status: number; body: string; headers: string[] }> {
  return new Promise((resolve, reject) => {
    httpRequest(`${url}/hello`, (answer) => {
      let body = '';
      answer.on('data', (chunk: Buffer) => (body += chunk));
      answer.on('end', () => resolve({ status: answer.statusCode!, body, headers: answer.rawHeaders }));
    })
      .on('error', reject)
      .end();
  });
}

describe('requests and responses created with the app prototypes', () => {
  it('when an Express app is served, then its requests and responses are born with its prototypes and answer as usual', async () => {
    const app = express();
    app.disable('x-powered-by');
    let seen: Seen | undefined;
    app.get('/hello', (req, res) => {
      res.setHeader('X-Probe', 'yes');
      res.status(201).json({ path: req.path, secure: req.secure });
    });
    // Wraps the app as the service does, to see the objects before Express's own prototype switch.
    const observed = Object.assign(
      (req: IncomingMessage, res: ServerResponse) => {
        seen = { requestProto: Object.getPrototypeOf(req), responseProto: Object.getPrototypeOf(res) };
        app(req, res);
      },
      { request: app.request, response: app.response },
    );
    const running = await startHttpServer(observed, { port: 0 });
    try {
      const answer = await get(running.url);
      expect(answer.status).toBe(201);
      expect(JSON.parse(answer.body)).toEqual({ path: '/hello', secure: false });
      expect(answer.headers.slice(0, 4)).toEqual([
        'X-Probe',
        'yes',
        'Content-Type',
        'application/json; charset=utf-8',
      ]);
      expect(seen?.requestProto).toBe(app.request);
      expect(seen?.responseProto).toBe(app.response);
    } finally {
      await running.stop(100);
    }
  });

  it('when the objects are made, then they are still Node requests and responses', () => {
    const app = express();
    const { IncomingMessage: AppRequest, ServerResponse: AppResponse } = appPrototypesOf(app);
    const req = new AppRequest!(new Socket());
    const res = new AppResponse!(req);
    expect(req).toBeInstanceOf(IncomingMessage);
    expect(res).toBeInstanceOf(ServerResponse);
    expect(Object.getPrototypeOf(res)).toBe(app.response);
    expect(res.req).toBe(req);
  });

  it('when the listener is not an Express app, then Node makes its own objects', () => {
    expect(appPrototypesOf((_req, res) => res.end())).toEqual({});
  });
});
