#!/usr/bin/env node
// The CLI is compiled by `npm install` (prepare) and `npm start` (prestart) into dist/.
import '../dist/src/cli/main.js'
