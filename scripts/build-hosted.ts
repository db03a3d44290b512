#!/usr/bin/env node
/** npm run build:hosted — the production build configured for the local Content Lake, into .next-hosted (testkit/hosted-build.ts). */
import { buildHosted } from '../testkit/hosted-build.ts';

process.exitCode = await buildHosted();
