#!/usr/bin/env node
import { unsupportedNodeMessage } from './config/node-version.js';

// The version check comes before the gateway's modules load: on an older Node they fail to link
// with errors that do not say why.
const tooOld = unsupportedNodeMessage(process.versions.node);
if (tooOld) {
  process.stderr.write(`${tooOld}\n`);
  process.exit(1);
}
const { serveGateway } = await import('./serve-gateway.js');
await serveGateway(process.argv.slice(2));
