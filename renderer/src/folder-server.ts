/**
 * The folder server's command line (docs/ARCHITECTURE.md "First run", "Protocol features"): the
 * first-run guide builds one for a folder, and a server card reads the folders out of one, so it
 * can say truthfully where a filesystem server works when it is given no root folders. The
 * reference filesystem server takes its folders as command-line arguments and, when it is given
 * root folders, works in those instead. Pure.
 */

/** The npm package the first-run step runs (the reference filesystem server). */
export const FILESYSTEM_PACKAGE = '@modelcontextprotocol/server-filesystem';

/** The program name the package installs (`npm i -g` puts it on the PATH). */
const FILESYSTEM_BIN = 'mcp-server-filesystem';

/** The command of a filesystem server on one folder (`npx` fetches the package the first time). */
export function folderServerCommand(folder: string): string[] {
  return ['npx', '-y', FILESYSTEM_PACKAGE, folder];
}

/** A free server name: `files`, else `files-2`, `files-3`, … */
export function folderServerName(taken: readonly string[]): string {
  let name = 'files';
  for (let i = 2; taken.includes(name); i++) name = `files-${i}`;
  return name;
}

/** Whether one argument starts the filesystem server: the package (any version), its installed script, or its program. */
function startsFilesystemServer(arg: string): boolean {
  if (arg === FILESYSTEM_PACKAGE || arg.startsWith(`${FILESYSTEM_PACKAGE}@`)) return true;
  const file = arg.replace(/\\/g, '/');
  return file.endsWith(`/${FILESYSTEM_PACKAGE}/dist/index.js`) || file === FILESYSTEM_BIN || file.endsWith(`/${FILESYSTEM_BIN}`);
}

/**
 * The folders a command line gives the reference filesystem server (its arguments after the
 * package, script or program; options and masked secrets left out), or none when the command
 * runs another program.
 */
export function commandFolders(command: readonly string[]): string[] {
  const at = command.findIndex(startsFilesystemServer);
  if (at < 0) return [];
  return command.slice(at + 1).filter((a) => a !== '' && !a.startsWith('-') && a !== '***');
}
