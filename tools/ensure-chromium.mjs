// Makes sure a Chromium is there for the browser tests, the bench and the demo: the system
// one (Debian's package), installed with apt-get when missing and we are allowed to.
// Playwright's own browser download does not work on these machines.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const optional = process.argv.includes('--optional');

if (!existsSync(path)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = isRoot ? '' : 'sudo -n ';
  try {
    console.log(`Chromium not found at ${path}; installing Debian's chromium package…`);
    execSync(`${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium`, {
      stdio: 'inherit',
    });
  } catch {
    /* reported below */
  }
  if (!existsSync(path)) {
    const msg = `No Chromium at ${path}: install it with "sudo apt-get install -y chromium" (or set CHROMIUM_PATH).`;
    if (optional) console.warn(msg);
    else {
      console.error(msg);
      process.exit(1);
    }
  }
}
