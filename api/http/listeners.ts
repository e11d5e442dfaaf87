import type http from 'node:http';

/** One listening server of an API node (api/server.ts starts them). */
export interface RunningServer {
  server: http.Server;
  port: number;
  /** Stop accepting, let in-flight requests finish (up to `graceMs`), then close. Idempotent. */
  close(graceMs: number): Promise<void>;
}

/** Every listener of an API node: main (HTTP or HTTPS), sandbox, HTTP→HTTPS redirect. */
export interface Listeners {
  main: RunningServer;
  sandbox?: RunningServer;
  redirect?: RunningServer;
  close(graceMs: number): Promise<void>;
}
