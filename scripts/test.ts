/**
 * npm test: the suite's own tests, stage by stage (the types, the format, unit, end to end, the
 * mutant catalogue), each stage's time printed as it ends, stopping at the first that fails.
 */
import { spawnSync } from 'node:child_process';

const stages = ['typecheck', 'format:check', 'test:unit', 'test:e2e', 'test:catalogue'];
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
const started = Date.now();
for (const stage of stages) {
  const stageStarted = Date.now();
  const { status, signal } = spawnSync(npm[0], [...npm.slice(1), 'run', '--silent', stage], { stdio: 'inherit' });
  const seconds = ((Date.now() - stageStarted) / 1000).toFixed(1);
  console.log(`=== stage ${stage}: ${seconds} s (${status === 0 ? 'passed' : `failed: ${signal ?? `exit ${status}`}`})`);
  if (status !== 0) process.exit(status ?? 1);
}
console.log(`=== npm test: ${((Date.now() - started) / 1000).toFixed(1)} s, every stage passed`);
