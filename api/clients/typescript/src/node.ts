/** @sha224d/client for Node ≥ 20: the browser build plus file paths, `ws` and socket.io-client. */
import { BaseClient, type ClientOptions } from './client.js';
import { nodePlatform } from './platform-node.js';

export * from './exports.js';

export class Sha224dClient extends BaseClient {
  constructor(options: ClientOptions) {
    super(options, nodePlatform);
  }
}
