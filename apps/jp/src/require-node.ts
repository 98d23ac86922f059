/** The oldest Node.js jp runs on (package.json `engines`). */
export const NODE_FLOOR = [20, 19] as const;

/** One line for a Node.js older than the floor; `undefined` on one that will do. */
export function nodeTooOld(version: string): string | undefined {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const [floorMajor, floorMinor] = NODE_FLOOR;
  if (major > floorMajor || (major === floorMajor && minor >= floorMinor)) return undefined;
  return `jp: jp needs Node.js ${floorMajor}.${floorMinor} or newer, and this is Node.js ${version.replace(/^v/, '')}; install a newer Node.js (nodejs.org, or nvm install 20)`;
}
