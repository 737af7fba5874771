// DuckDB's node API from tests/peer/node_modules, for the compatibility
// scripts here; without it the calling script is skipped (exit 77).
'use strict';
const fs = require('fs');
const path = require('path');

const modDir = path.join(__dirname, 'node_modules', '@duckdb', 'node-api');
if (!fs.existsSync(modDir)) {
  console.log('SKIP: DuckDB is not installed in tests/peer/node_modules ' +
              '(scripts/deps.sh installs it)');
  process.exit(77);
}
module.exports = require(modDir);
