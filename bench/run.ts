#!/usr/bin/env node
/**
 * npm run bench — the measurements of the site, one tool:
 *
 *   npm run bench                       the standard set (`site`, `back-office`)
 *   npm run bench -- studio publish     those measurements, in that order
 *   npm run bench -- lcp http://…/      a measurement with its own arguments (after its name)
 *   npm run bench -- --help             every measurement, with its target and its client
 *   npm run bench -- … --strict         exits 1 when a target is missed
 *
 * Each prints one report (report.ts: the rows, each naming its client, then notes) and writes it to
 * bench/reports/<name>.json. A measurement whose run met problems (a console error, a lost write) exits 1.
 */
import { performance } from 'node:perf_hooks';

import { stopAllProcesses } from '../testkit/processes.ts';
import { MEASUREMENTS, type Measurement } from './measurements.ts';
import { formatReport, loadAverage, missedRows, writeReport } from './report.ts';

function help(): string {
  const lines = ['npm run bench -- [name [args…]]… [--strict]', 'With no name: the standard set (marked *).', ''];
  for (const { name, what, target, client, standard } of MEASUREMENTS)
    lines.push(`${standard ? '*' : ' '} ${name}`, `    ${what}`, `    target: ${target}`, `    client: ${client}`, '');
  return lines.join('\n');
}

/** The measurements asked for, each with the arguments that follow its name. */
function planned(argv: string[]): { measurement: Measurement; args: string[] }[] {
  const plan: { measurement: Measurement; args: string[] }[] = [];
  for (const arg of argv.filter((value) => value !== '--strict')) {
    const measurement = MEASUREMENTS.find((candidate) => candidate.name === arg);
    if (measurement) plan.push({ measurement, args: [] });
    else if (plan.length > 0) plan.at(-1)!.args.push(arg);
    else throw new Error(`no measurement named "${arg}": npm run bench -- --help lists them`);
  }
  return plan.length > 0 ? plan : MEASUREMENTS.filter((m) => m.standard).map((measurement) => ({ measurement, args: [] }));
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${help()}\n`);
    return;
  }
  let failed = false;
  for (const { measurement, args } of planned(argv)) {
    const start = { at: new Date().toISOString(), time: performance.now(), load: loadAverage() };
    const { measure } = await measurement.load();
    const report = await measure(args);
    const run = {
      name: measurement.name,
      startedAt: start.at,
      seconds: (performance.now() - start.time) / 1000,
      loadAverage: { start: start.load, end: loadAverage() },
    };
    process.stdout.write(`\n${formatReport(run, report)}\n`);
    process.stderr.write(`[bench] report: ${writeReport(run, report)}\n`);
    if (report.problems?.length) failed = true;
    if (argv.includes('--strict') && missedRows(report).length > 0) failed = true;
  }
  if (failed) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  // A server that started before the failure (nginx runs detached, in its own group) goes too.
  void stopAllProcesses().finally(() => process.exit(1));
});
