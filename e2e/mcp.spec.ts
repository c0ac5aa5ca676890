import { copyFileSync, mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EVERYTHING_SERVER } from '../gateway/test/support/mcp-servers.js';
import { screenshot } from './support/browser.js';
import { useConsoleSession } from './support/console-session.js';
import { layoutProblems, VIEWPORTS } from './support/layout.js';

const SECRET = 'e2e-mcp-secret-91c2';
const HOSTILE = '<img src=x onerror="window.__mcpInjected=1"><b>bold</b>';

/** The e2e screenshot, also copied to /tmp/shots for review. */
async function shot(page: Page, name: string): Promise<void> {
  const path = await screenshot(page, name);
  mkdirSync('/tmp/shots', { recursive: true });
  copyFileSync(path, `/tmp/shots/${name}.png`);
}

describe('MCP servers page', () => {
  const session = useConsoleSession({
    signInPath: '/ui/mcp',
    failurePrefix: 'mcp',
    config: {
      mcp_servers: [
        { id: 'everything', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
        { id: 'broken', command: 'switchyard-no-such-command' },
      ],
    },
  });

  it('lists the servers with their state, and tries a tool whose result is shown as text, never as HTML', async () => {
    const { page } = session;
    const table = page.getByTestId('mcp-servers-table');
    const everything = table.getByRole('row', { name: 'everything' });
    await everything.getByTestId('mcp-state').filter({ hasText: 'ready' }).waitFor();
    const broken = table.getByRole('row', { name: 'broken' });
    expect(await broken.getByTestId('mcp-state').textContent()).toBe('failed');
    expect(await broken.textContent()).toContain('ENOENT');

    await everything.getByRole('button', { name: 'Tools of everything' }).click();
    const drawer = page.getByRole('dialog', { name: 'Tools of everything' });
    await drawer.waitFor();
    const echo = drawer.getByRole('region', { name: 'Tool echo' });
    expect(await echo.textContent()).toContain('read-only');
    await echo.getByRole('textbox', { name: 'Arguments (JSON)' }).fill(JSON.stringify({ message: HOSTILE }));
    await echo.getByRole('button', { name: 'Call echo' }).click();
    const result = echo.getByTestId('tool-result');
    await result.waitFor();
    expect(await result.textContent()).toContain(`Echo: ${HOSTILE}`);
    expect(await result.locator('img, b').count()).toBe(0);
    expect(await page.evaluate('window.__mcpInjected')).toBeUndefined();

    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      expect(await layoutProblems(page)).toEqual([]);
      await shot(page, `mcp-tools-${viewport.width}`);
    }
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      expect(await layoutProblems(page)).toEqual([]);
      await shot(page, `mcp-${viewport.width}`);
    }
  });

  it('adds a server with a secret it never shows again, imports an mcp.json, and removes a server', async () => {
    const { page } = session;
    await page.getByRole('button', { name: '+ Add server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an MCP server' });
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: 'Server id' }).fill('added');
    await dialog.getByRole('textbox', { name: 'Command' }).fill(process.execPath);
    await dialog.getByRole('textbox', { name: 'Arguments, one per line' }).fill(`${EVERYTHING_SERVER}\nstdio`);
    await dialog.getByRole('button', { name: '+ Add variable' }).click();
    await dialog.getByRole('textbox', { name: 'Environment name 1' }).fill('API_TOKEN');
    await dialog.getByLabel('Environment value 1').fill(SECRET);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      expect(await layoutProblems(page)).toEqual([]);
      await shot(page, `mcp-dialog-${viewport.width}`);
    }
    await dialog.getByRole('button', { name: 'Add server' }).click();
    await dialog.waitFor({ state: 'detached' });
    const added = page.getByTestId('mcp-servers-table').getByRole('row', { name: 'added' });
    await added.getByTestId('mcp-state').filter({ hasText: 'ready' }).waitFor();
    expect(await added.textContent()).toContain('API_TOKEN');
    expect(await page.content()).not.toContain(SECRET);

    await page.getByRole('button', { name: 'Import mcp.json' }).click();
    const importing = page.getByRole('dialog', { name: 'Import mcp.json' });
    await importing
      .getByRole('textbox', { name: 'mcp.json' })
      .fill(
        JSON.stringify({ mcpServers: { 'From LM Studio': { command: process.execPath, args: [EVERYTHING_SERVER] } } }),
      );
    await importing.getByRole('button', { name: 'Import' }).click();
    await importing.waitFor({ state: 'detached' });
    await page
      .getByTestId('mcp-servers-table')
      .getByRole('row', { name: 'From-LM-Studio' })
      .getByTestId('mcp-state')
      .filter({ hasText: 'ready' })
      .waitFor();

    await added.getByRole('button', { name: 'Remove added' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove MCP server added?' });
    await confirm.getByRole('button', { name: 'Remove server' }).click();
    await confirm.waitFor({ state: 'detached' });
    await added.waitFor({ state: 'detached' });
  });
});
