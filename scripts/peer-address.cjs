// Preloaded into the web server (`node --require`, through NODE_OPTIONS in scripts/run.ts).
// Next.js does not show route handlers or server actions the socket's peer address, and its
// X-Forwarded-For is the client's own when the client sent one. This writes the peer address
// into x-beacon-peer-address on every request before Next.js reads it, replacing whatever the
// client sent under that name, and marks the process so lib/auth/client-address.ts knows the
// header can be believed. Keep the header name and the mark in step with that file.
"use strict";
// CommonJS on purpose: `--require` loads it synchronously, before Next.js creates its server.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const http = require("node:http");

const HEADER = "x-beacon-peer-address";
const INSTALLED = Symbol.for("beacon.peer-address-header");

if (!globalThis[INSTALLED]) {
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function emitWithPeerAddress(event, request) {
    if ((event === "request" || event === "checkContinue" || event === "checkExpectation") && request && request.headers) {
      request.headers[HEADER] = (request.socket && request.socket.remoteAddress) || "";
    }
    return emit.apply(this, arguments);
  };
  globalThis[INSTALLED] = true;
}
