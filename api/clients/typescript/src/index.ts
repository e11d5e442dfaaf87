/**
 * @sha224d/client for browsers and any runtime with fetch and WebSocket: no runtime dependencies.
 * Node resolves the package to node.ts instead (package.json "exports"), which adds file paths,
 * `ws` and socket.io-client.
 */
import { BaseClient, type ClientOptions } from './client.js';
import { webPlatform } from './platform-web.js';

export * from './exports.js';

export class Sha224dClient extends BaseClient {
  constructor(options: ClientOptions) {
    super(options, webPlatform());
  }
}
