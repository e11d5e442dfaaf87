#!/usr/bin/env node
// The `sha224d` command: dist/cli.js is built from src/cli/ (npm run build -w @sha224d/client).
import '../dist/cli.js';
