import { copyFileSync, mkdirSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EVERYTHING_SERVER } from '../gateway/test/support/mcp-servers.js';
import { screenshot } from './support/browser.js';
import { useConsoleSession } from './support/console-session.js';
import { layoutProblems, VIEWPORTS } from './support/layout.js';

/** Markup in a tool's output, with a handler that would run if it were ever rendered as HTML. */
const HOSTILE = '<b onmouseover="window.__mcpChatInjected=1">hello</b>';

/** The e2e screenshot, also copied to /tmp/shots for review. */
async function shot(page: Page, name: string): Promise<void> {
  const path = await screenshot(page, name);
  mkdirSync('/tmp/shots', { recursive: true });
  copyFileSync(path, `/tmp/shots/${name}.png`);
}

/** At each size, with `focus` scrolled into view as the thread does when it arrives. */
async function checkLayoutAndShoot(page: Page, name: string, focus: Locator): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await focus.scrollIntoViewIfNeeded();
    expect(await layoutProblems(page)).toEqual([]);
    await shot(page, `${name}-${viewport.width}`);
  }
}

describe('chat playground with MCP tools', () => {
  const session = useConsoleSession({
    signInPath: '/ui/chat',
    failurePrefix: 'mcp-chat',
    // A model that calls the tool the user names, with the JSON object the message ends with.
    upstream: { toolLoop: true },
    config: { mcp_servers: [{ id: 'everything', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] }] },
  });

  it('asks before a tool runs on server-everything, runs it once approved, and shows its result as text', async () => {
    const { page, stack } = session;
    await page.getByRole('button', { name: 'Choose MCP servers…' }).click();
    const everything = page.getByRole('checkbox', { name: /everything/ });
    await everything.check();
    await page.getByRole('combobox', { name: 'Ask before a tool runs' }).selectOption('always');

    const message = `Please call echo ${JSON.stringify({ message: HOSTILE })}`;
    await page.getByRole('textbox', { name: 'Message' }).fill(message);
    await page.keyboard.press('Enter');
    const prompt = page.getByRole('region', { name: 'Approve echo' });
    await prompt.waitFor();
    expect(await prompt.textContent()).toContain('The model wants to run echo on everything');
    expect(await prompt.getByLabel('Arguments').textContent()).toContain(JSON.stringify(HOSTILE).slice(1, -1));
    // Nothing ran yet: the model was asked once, and no tool result went back to it.
    const chatCalls = () => stack.upstream.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chatCalls()).toHaveLength(1);
    await checkLayoutAndShoot(page, 'mcp-chat-approval', prompt.getByRole('button', { name: 'Deny' }));

    await prompt.getByRole('button', { name: 'Approve' }).click();
    const answer = page.getByRole('article', { name: 'Assistant' }).last();
    await answer.getByText('Tool said: Echo:').waitFor();
    await prompt.waitFor({ state: 'detached' });
    const call = answer.getByRole('group', { name: 'Tool call echo' });
    expect(await call.textContent()).toMatch(/everything · echo\s*done\s*\d+ ms/);
    await call.locator('summary').click();
    expect(await call.getByLabel('Output').textContent()).toBe(`Echo: ${HOSTILE}`);
    expect(await call.locator('b').count()).toBe(0);
    await call.getByLabel('Output').hover();
    expect(await page.evaluate('window.__mcpChatInjected')).toBeUndefined();
    // The model's second turn read the tool's result.
    const second = chatCalls().at(-1)?.body as { messages: { role: string; content: unknown }[] };
    expect(second.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('Echo: ') });
    await checkLayoutAndShoot(page, 'mcp-chat-result', call.getByLabel('Output'));

    // The next turn tells the model which call the last answer made and what it returned.
    await page.getByRole('textbox', { name: 'Message' }).fill('Thanks');
    await page.keyboard.press('Enter');
    await page.getByRole('article', { name: 'Assistant' }).nth(1).getByText('Thanks').waitFor();
    const third = chatCalls().at(-1)?.body as { messages: { role: string; tool_calls?: unknown[] }[] };
    expect(third.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(third.messages[1].tool_calls).toMatchObject([{ function: { name: 'echo' } }]);
  });
});
