import { IncomingMessage, ServerResponse, type RequestListener, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';

/** An Express app, as a request listener: the objects its requests and responses inherit from. */
interface AppWithPrototypes {
  request: IncomingMessage;
  response: ServerResponse;
}

function hasAppPrototypes(handler: RequestListener): handler is RequestListener & AppWithPrototypes {
  const { request, response } = handler as Partial<AppWithPrototypes>;
  return (
    typeof request === 'object' &&
    typeof response === 'object' &&
    Object.prototype.isPrototypeOf.call(IncomingMessage.prototype, request) &&
    Object.prototype.isPrototypeOf.call(ServerResponse.prototype, response)
  );
}

/** Node's two constructors are plain functions (callable on an object made elsewhere); a class is not. */
const isClass = (constructor: unknown) => /^class\b/.test(Function.prototype.toString.call(constructor));

/**
 * The server's request and response constructors for `handler` when it is an Express app: objects created
 * with the app's own prototypes (`app.request`, `app.response`) instead of Node's. Express gives every request
 * and response those prototypes (`Object.setPrototypeOf`, in `app.handle`); done to an object Node has just
 * built, that switch leaves V8 with shapes it reads slowly, and every later step pays for it on each property
 * access (the headers set, the head written, each `req.get`): measured at about 17 µs a request in isolation
 * (docs/bench.md). Created with those prototypes, Express's switch changes nothing and the objects keep fast
 * shapes. What a request and a response are, and what they inherit, is the same as Express makes them.
 */
export function appPrototypesOf(
  handler: RequestListener,
): Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'> {
  if (!hasAppPrototypes(handler) || isClass(IncomingMessage) || isClass(ServerResponse)) return {};
  const nodeRequest = IncomingMessage as unknown as (this: IncomingMessage, socket: Socket) => void;
  const nodeResponse = ServerResponse as unknown as (
    this: ServerResponse,
    req: IncomingMessage,
    options?: unknown,
  ) => void;
  function AppRequest(this: IncomingMessage, socket: Socket): void {
    nodeRequest.call(this, socket);
  }
  AppRequest.prototype = handler.request;
  function AppResponse(this: ServerResponse, req: IncomingMessage, options?: unknown): void {
    nodeResponse.call(this, req, options);
  }
  AppResponse.prototype = handler.response;
  return {
    IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
    ServerResponse: AppResponse as unknown as typeof ServerResponse,
  };
}
