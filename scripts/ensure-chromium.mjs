// `npm test` drives a real headless browser for the documentation page test (Debian's Chromium through
// playwright-core). On a machine without it, install it from the distribution's packages when we may
// (root, or passwordless sudo); otherwise say how, and the test itself fails with the same advice.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';
if (existsSync(CHROMIUM) || process.env.CARTEIRO_SKIP_BROWSER_INSTALL === '1') process.exit(0);

const root = process.getuid?.() === 0;
const sudo = !root && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
const aptGet = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
if (!aptGet || (!root && !sudo)) {
  console.warn(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium) for the docs-page test.`);
  process.exit(0);
}
const run = (args) => execFileSync(sudo ? 'sudo' : args[0], sudo ? args : args.slice(1), { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
console.log('Installing Debian\'s chromium for the docs-page browser test (once)…');
run(['apt-get', 'update', '-qq']);
run(['apt-get', 'install', '-y', '-qq', 'chromium']);
