/**
 * The folder server's command line (renderer/src/folder-server.ts): the first-run guide's own
 * command reads back as its folder; the other ways of starting the reference filesystem server
 * (a version, its installed script, its program) name their folders too; any other program names
 * none, and options and masked secrets are not folders.
 */
import { describe, expect, it } from 'vitest';
import { commandFolders, folderServerCommand, folderServerName } from '../../../renderer/src/folder-server.js';

describe('the folder server command', () => {
  it('reads back the folder the first-run guide put in it', () => {
    expect(commandFolders(folderServerCommand('/home/me/notes'))).toEqual(['/home/me/notes']);
    expect(folderServerName([])).toBe('files');
    expect(folderServerName(['files', 'files-2'])).toBe('files-3');
  });

  it('finds the folders however the filesystem server is started', () => {
    expect(commandFolders(['npx', '-y', '@modelcontextprotocol/server-filesystem@2025.8.21', '/a', '/b'])).toEqual(['/a', '/b']);
    expect(commandFolders(['node', '/x/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', '/root'])).toEqual(['/root']);
    expect(commandFolders(['node', 'C:\\x\\node_modules\\@modelcontextprotocol\\server-filesystem\\dist\\index.js', 'D:\\work'])).toEqual(['D:\\work']);
    expect(commandFolders(['mcp-server-filesystem', '~/notes'])).toEqual(['~/notes']);
    expect(commandFolders(['/usr/local/bin/mcp-server-filesystem', '/srv'])).toEqual(['/srv']);
  });

  it('names nothing for another program, and never an option or a masked secret', () => {
    expect(commandFolders(['npx', '-y', '@modelcontextprotocol/server-everything', '/tmp'])).toEqual([]);
    expect(commandFolders(['node', '/x/server.js', '/root'])).toEqual([]);
    expect(commandFolders(['npx', '-y', '@modelcontextprotocol/server-filesystem'])).toEqual([]);
    expect(commandFolders(['npx', '-y', '@modelcontextprotocol/server-filesystem', '--verbose', '***', '/data'])).toEqual(['/data']);
  });
});
