import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian's chromium package puts the browser. */
const systemChromium = '/usr/bin/chromium';

/** Flags for a headless Chromium on this kind of machine: no sandbox as root, no background traffic. */
const quietFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A Chromium to launch: its executable and the flags it needs. */
export interface ChromiumBinary {
  readonly executablePath: string;
  readonly args: readonly string[];
  /** Where it came from, for messages. */
  readonly source: 'CHROMIUM_PATH' | 'system' | '@sparticuz/chromium';
}

/**
 * Finds a Chromium: `CHROMIUM_PATH`, else the system's (`/usr/bin/chromium`), else the one the
 * `@sparticuz/chromium` dev dependency ships inside its npm package, unpacked on first use into the
 * temp folder. Call it once per test run (the unpacking is not safe to run twice at once): the
 * suite's global setup does, and hands the result to the test files.
 */
export async function findChromium(): Promise<ChromiumBinary> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!existsSync(fromEnv))
      throw new Error(
        `CHROMIUM_PATH is ${fromEnv}, and no file is there: unset it or fix the path.`,
      );
    return { executablePath: fromEnv, args: quietFlags, source: 'CHROMIUM_PATH' };
  }
  if (existsSync(systemChromium))
    return { executablePath: systemChromium, args: quietFlags, source: 'system' };
  const { default: packaged } = await import('@sparticuz/chromium');
  const executablePath = await packaged.executablePath();
  return {
    executablePath,
    args: [...quietFlags, '--use-gl=angle', '--use-angle=swiftshader', '--no-zygote'],
    source: '@sparticuz/chromium',
  };
}

/** Starts a headless Chromium found by {@link findChromium}. */
export function launchBrowser(binary: ChromiumBinary): Promise<Browser> {
  return chromium.launch({ executablePath: binary.executablePath, args: [...binary.args] });
}
