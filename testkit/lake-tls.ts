/**
 * A certificate for the hosted stand-in (the local lake playing Sanity's API): Sanity serves its API over
 * HTTP/2, which browsers speak only with TLS, and the real Studio holds more listener streams than the six
 * HTTP/1.1 connections a browser opens per host. Made once with Debian's openssl (self-signed, for
 * localhost, lake.localhost and 127.0.0.1; 30 days) and kept under .data/ while it is valid on this process's
 * clock for 10 more days (one made by a run with its clock moved ahead is not valid yet, and is made again). Browsers in the tests accept
 * it with ignoreHTTPSErrors; Node processes trust it through NODE_EXTRA_CA_CERTS (children) or
 * trustLakeCertificate (this process).
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';

import { APP_ROOT } from './paths.ts';

const DIR = path.join(APP_ROOT, '.data', 'lake-tls');
const CERT = path.join(DIR, 'cert.pem');
const KEY = path.join(DIR, 'key.pem');
const RENEW_BEFORE_MS = 10 * 24 * 3600 * 1000;

export type LakeTls = { cert: string; key: string; certFile: string };

function fresh(): boolean {
  try {
    const { validFromDate, validToDate } = new X509Certificate(readFileSync(CERT));
    const now = Date.now();
    return validFromDate.getTime() <= now && now + RENEW_BEFORE_MS < validToDate.getTime() && statSync(KEY).isFile();
  } catch {
    return false;
  }
}

/** The certificate and key, made when missing or old. */
export function lakeTls(): LakeTls {
  if (!fresh()) {
    mkdirSync(DIR, { recursive: true });
    // EC P-256: fast to make; SAN names the hosts the site, the Studio (<projectId>.localhost) and Node use.
    const names = 'subjectAltName=DNS:localhost,DNS:lake.localhost,IP:127.0.0.1';
    const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '30'];
    execFileSync('openssl', [...args, '-subj', '/CN=localhost', '-addext', names, '-keyout', KEY, '-out', CERT], { stdio: 'ignore' });
  }
  return { cert: readFileSync(CERT, 'utf8'), key: readFileSync(KEY, 'utf8'), certFile: CERT };
}

/** Makes this process's TLS clients (fetch, @sanity/client) accept the lake's certificate too. */
export function trustLakeCertificate(): void {
  tls.setDefaultCACertificates([...tls.getCACertificates('default'), lakeTls().cert]);
}
